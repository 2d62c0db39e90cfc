#!/usr/bin/env python3
"""Builds filters.json: Apple's filters from the facts in Catalog/reference/coreimage-attributes.json, plus the
filters that are not Apple's (ours, or a user's) as written in Catalog/custom-filters.json.

filters.json is the one source of truth at run time and this script is its one maker; never edit it by hand
except for the hand-written text of Apple's filters (descriptions, notes, unavailability reasons, fidelity), which
the script keeps, so it can be re-run after the reference changes without losing what people wrote. A custom
filter's master is its entry in Catalog/custom-filters.json (same schema as a filters.json entry), copied as is.

Usage: scripts/build-catalog.py [--reference FILE] [--custom FILE] [--out FILE] [--check]
  --check  write nothing; exit 1 (printing the first differences) if OUT is not what the script would write.
"""
import argparse, difflib, json, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
REFERENCE = os.path.join(ROOT, "Catalog", "reference", "coreimage-attributes.json")
CUSTOM = os.path.join(ROOT, "Catalog", "custom-filters.json")
OUT = os.path.join(ROOT, "filters.json")

CATEGORY_ORDER = [
    "DistortionEffect", "GeometryAdjustment", "CompositeOperation", "HalftoneEffect", "ColorAdjustment",
    "ColorEffect", "Transition", "TileEffect", "Generator", "Reduction", "Gradient", "Stylize", "Sharpen",
    "Blur", "Video", "StillImage", "Interlaced", "NonSquarePixels", "HighDynamicRange", "BuiltIn",
]

# Filters that cannot be made on this platform, with the reason shown to users.
# Identity values Apple declares that leave no image unchanged in our implementation's reading of the filter;
# dropped so that "identity" keeps its meaning (the catalogue-wide identity test relies on it).
DROPPED_IDENTITIES = {
    ("CICircularWrap", "inputAngle"): "Apple declares identity 0 here, but wrapping the image around a circle never leaves it unchanged; dropped",
    ("CICMYKHalftone", "inputWidth"): "identity dropped: no value of this input makes the halftone reproduce the image",
    ("CICMYKHalftone", "inputAngle"): "identity dropped: no value of this input makes the halftone reproduce the image",
    ("CICMYKHalftone", "inputGCR"): "identity dropped: no value of this input makes the halftone reproduce the image",
    ("CICMYKHalftone", "inputUCR"): "identity dropped: no value of this input makes the halftone reproduce the image",
    ("CIDotScreen", "inputAngle"): "identity dropped: no value of this input makes the dot screen reproduce the image",
    ("CIEdges", "inputIntensity"): "identity dropped: at intensity 0 the edge image is black, not the input",
    ("CIHatchedScreen", "inputAngle"): "identity dropped: no value of this input makes the hatched screen reproduce the image",
    ("CIHeightFieldFromMask", "inputRadius"): "identity dropped: a height field is never the mask itself",
    ("CILineOverlay", "inputNRNoiseLevel"): "identity dropped: the output is an outline layer, never the input image",
    ("CILineOverlay", "inputNRSharpness"): "identity dropped: the output is an outline layer, never the input image",
    ("CILineOverlay", "inputEdgeIntensity"): "identity dropped: the output is an outline layer, never the input image",
    ("CILineOverlay", "inputThreshold"): "identity dropped: the output is an outline layer, never the input image",
    ("CILineOverlay", "inputContrast"): "identity dropped: the output is an outline layer, never the input image",
    ("CILineScreen", "inputAngle"): "identity dropped: no value of this input makes the line screen reproduce the image",
    ("CIKMeans", "inputCount"): "Apple declares identity 0 here, but a reduction never returns its input; dropped",
    ("CIKMeans", "inputPasses"): "Apple declares identity 0 here, but a reduction never returns its input; dropped",
    ("CISpotLight", "inputBrightness"): "Apple declares identity 1 here, but no brightness/concentration pair leaves the image unchanged (the light still falls off with angle and incidence); dropped so identity values keep their meaning",
    ("CISpotLight", "inputConcentration"): "Apple declares identity 20 here, but no brightness/concentration pair leaves the image unchanged (the light still falls off with angle and incidence); dropped so identity values keep their meaning",
}

TILE_IDENTITY_NOTE = "identity dropped: no value of this input makes the tile pattern reproduce the image"
for tile, keys in {
    "CIEightfoldReflectedTile": ["inputAngle", "inputWidth"],
    "CIFourfoldReflectedTile": ["inputAngle", "inputWidth", "inputAcuteAngle"],
    "CIFourfoldRotatedTile": ["inputAngle", "inputWidth"],
    "CIFourfoldTranslatedTile": ["inputAngle", "inputWidth", "inputAcuteAngle"],
    "CIGlideReflectedTile": ["inputAngle", "inputWidth"],
    "CIKaleidoscope": ["inputAngle"],
    "CIParallelogramTile": ["inputAngle", "inputAcuteAngle", "inputWidth"],
    "CISixfoldReflectedTile": ["inputAngle", "inputWidth"],
    "CISixfoldRotatedTile": ["inputAngle", "inputWidth"],
    "CITriangleTile": ["inputAngle"],
    "CITwelvefoldReflectedTile": ["inputAngle", "inputWidth"],
}.items():
    for key in keys:
        DROPPED_IDENTITIES[(tile, key)] = TILE_IDENTITY_NOTE

UNAVAILABLE = {
    "CICoreMLModelFilter": "needs a Core ML model, which does not exist off Apple's systems",
    "CIPersonSegmentation": "needs Apple's person-segmentation neural network",
    "CISaliencyMapFilter": "needs Apple's saliency neural network",
    "CICameraCalibrationLensCorrection": "needs AVFoundation camera calibration data from an Apple device",
    "CIDepthBlurEffect": "needs AVFoundation camera calibration and depth metadata from an Apple device",
}


def split_words(key):
    name = key[5:] if key.startswith("input") else key
    words = re.findall(r"[A-Z]+(?=[A-Z][a-z]|\d|$)|[A-Z]?[a-z]+|\d+|[A-Z]+", name)
    return " ".join(words) or name


def convert_value(cls, value):
    """Reference values to filters.json values: numbers, booleans, arrays of numbers, strings, tagged data."""
    if isinstance(value, dict):
        if "CIColor" in value:
            return value["CIColor"]
        if "CGAffineTransform" in value:
            return value["CGAffineTransform"]
        if "CGColorSpace" in value:
            return value["CGColorSpace"]
        if "NSData" in value:
            return {"byteCount": value["NSData"]["length"]}
        raise ValueError(f"unknown value {value!r}")
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


def nice(x):
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return round(x, 6) if isinstance(x, float) else x


def derive_slider(inp):
    """Slider range for a number the reference gives none for. Returns (lo, hi, note) or None."""
    t = inp.get("type")
    if inp["class"] != "NSNumber" or t == "CIAttributeTypeBoolean":
        return None
    lo, hi, d = inp.get("min"), inp.get("max"), inp.get("default")
    if lo is not None and hi is not None:
        return lo, hi, "slider range derived: the legal range"
    if t == "CIAttributeTypeAngle":
        return (lo if lo is not None else -3.141593), 3.141593, "slider range derived: a half turn each way"
    base = abs(d) if isinstance(d, (int, float)) and d else 1
    if lo is not None:
        span = {"CIAttributeTypeDistance": max(4 * base, 100)}.get(t, 4 * base)
        return lo, nice(max(lo + span, lo + 1)), "slider range derived: from the minimum to about four times the default"
    if hi is not None:
        return nice(hi - 4 * base), hi, "slider range derived: up to the maximum"
    if isinstance(d, (int, float)) and d > 0:
        return 0, nice(4 * d), "slider range derived: from zero to four times the default"
    if isinstance(d, (int, float)) and d < 0:
        return nice(4 * d), 0, "slider range derived: from four times the default to zero"
    return -1, 1, "slider range derived: one each way of zero"


def sibling_facts(reference):
    """Type and default of each (key, class) where some filter states them, for entries that omit them."""
    facts = {}
    for f in reference.values():
        for r in f["inputs"]:
            if "CIAttributeType" in r:
                facts.setdefault((r["key"], r["CIAttributeClass"]), {}).setdefault("type", r["CIAttributeType"])
            if "CIAttributeDefault" in r:
                facts.setdefault((r["key"], r["CIAttributeClass"]), {}).setdefault("default", r["CIAttributeDefault"])
    return facts


def build(reference, existing, custom=None):
    custom = custom or {}
    siblings = sibling_facts(reference)
    old = {f["name"]: f for f in existing.get("filters", [])}
    seen = set()
    for f in reference.values():
        for c in f["CIAttributeFilterCategories"]:
            seen.add(c[len("CICategory"):])
    custom_categories = {c["name"]: c for c in custom.get("categories", [])}
    for f in custom.get("filters", []):
        for c in f.get("categories", []):
            if c.startswith("CICategory") and c not in custom_categories:
                seen.add(c[len("CICategory"):])
    order = CATEGORY_ORDER + sorted(seen - set(CATEGORY_ORDER))
    old_categories = {c["name"]: c for c in existing.get("categories", [])}
    categories = []
    for name in order:
        full = "CICategory" + name
        entry = {"name": full, "displayName": split_words(name)}
        if full in old_categories and old_categories[full].get("description"):
            entry["description"] = old_categories[full]["description"]
        categories.append(entry)
    # Categories only custom filters use, as their file declares them (name, displayName, description).
    for name, category in custom_categories.items():
        if not any(c["name"] == name for c in categories):
            categories.append(category)

    filters = []
    for name in sorted(reference):
        ref = reference[name]
        prev = old.get(name, {})
        prev_inputs = {i["key"]: i for i in prev.get("inputs", [])}
        out = {
            "name": name,
            "displayName": ref["CIAttributeFilterDisplayName"],
            "description": prev.get("description", ""),
            "categories": ref["CIAttributeFilterCategories"],
            "availableMac": ref["CIAttributeFilterAvailable_Mac"],
            "availableIOS": ref["CIAttributeFilterAvailable_iOS"],
        }
        reason = prev.get("unavailableReason") or UNAVAILABLE.get(name)
        if reason:
            out["unavailableReason"] = reason
        # Hand-written: how sure we are of the filter and on what evidence (verified / formula / approximate /
        # unavailable); kept as written, and an Apple-only filter is always "unavailable".
        fidelity = prev.get("fidelity")
        if reason:
            fidelity = {"status": "unavailable", "evidence": (fidelity or {}).get("evidence") or reason}
        if fidelity:
            out["fidelity"] = fidelity
        inputs = []
        for r in ref["inputs"]:
            p = prev_inputs.get(r["key"], {})
            inp = {"key": r["key"], "class": r["CIAttributeClass"]}
            notes = []
            sib = siblings.get((r["key"], r["CIAttributeClass"]), {})
            if "CIAttributeType" in r:
                inp["type"] = r["CIAttributeType"]
            elif "type" in sib:
                inp["type"] = sib["type"]
                notes.append("type taken from the same input of another filter")
            if "CIAttributeDefault" not in r and "default" in sib and inp.get("type") == "CIAttributeTypeBoolean":
                r = dict(r, CIAttributeDefault=sib["default"])
                notes.append("default taken from the same input of another filter")
            inp["displayName"] = r.get("CIAttributeDisplayName") or split_words(r["key"])
            inp["description"] = p.get("description", "")
            for src, dst in [("CIAttributeDefault", "default"), ("CIAttributeMin", "min"), ("CIAttributeMax", "max"),
                             ("CIAttributeSliderMin", "sliderMin"), ("CIAttributeSliderMax", "sliderMax"),
                             ("CIAttributeIdentity", "identity")]:
                if src in r:
                    inp[dst] = convert_value(r["CIAttributeClass"], r[src])
            dropped = DROPPED_IDENTITIES.get((name, r["key"]))
            if dropped and "identity" in inp:
                del inp["identity"]
                notes.append(dropped)
            if "CIAttributeDisplayName" not in r:
                notes.append("display name derived from the key")
            if "sliderMin" not in inp:
                derived = derive_slider(inp)
                if derived:
                    inp["sliderMin"], inp["sliderMax"], note = derived
                    notes.append(note)
            # Keep a slider inside the legal range (a reference slider may not be).
            if "sliderMin" in inp:
                if "min" in inp and inp["sliderMin"] < inp["min"]:
                    inp["sliderMin"] = inp["min"]; notes.append("slider minimum raised to the legal minimum")
                if "max" in inp and inp["sliderMax"] > inp["max"]:
                    inp["sliderMax"] = inp["max"]; notes.append("slider maximum lowered to the legal maximum")
            for n in p.get("notes", []):
                if n not in notes:
                    notes.append(n)
            if notes:
                inp["notes"] = notes
            inputs.append(inp)
        out["inputs"] = inputs
        filters.append(out)
    for entry in custom.get("filters", []):
        if entry.get("name") in reference:
            raise SystemExit(f"{entry.get('name')}: a custom filter cannot take the name of an Apple filter")
        if any(f["name"] == entry.get("name") for f in filters):
            raise SystemExit(f"{entry.get('name')}: custom filter listed twice")
        filters.append(entry)
    filters.sort(key=lambda f: f["name"])
    return {
        "source": "Derived from Core Image's built-in filter attributes (Catalog/reference) and our custom filters "
                  "(Catalog/custom-filters.json); descriptions are ours.",
        "categories": categories,
        "filters": filters,
    }


def main():
    parser = argparse.ArgumentParser(description="Builds filters.json from Apple's reference and the custom filters.")
    parser.add_argument("--reference", default=REFERENCE)
    parser.add_argument("--custom", default=CUSTOM)
    parser.add_argument("--out", default=OUT)
    parser.add_argument("--check", action="store_true", help="exit 1 if OUT is not what the script would write")
    args = parser.parse_args()
    with open(args.reference) as fh:
        reference = json.load(fh)["filters"]
    custom = {}
    if os.path.exists(args.custom):
        with open(args.custom) as fh:
            custom = json.load(fh)
    existing, current = {}, ""
    if os.path.exists(args.out):
        with open(args.out) as fh:
            current = fh.read()
        existing = json.loads(current)
    catalog = build(reference, existing, custom)
    text = json.dumps(catalog, indent=1, ensure_ascii=False) + "\n"
    if args.check:
        if text == current:
            print(f"{args.out} is up to date: {len(catalog['filters'])} filters")
            return
        diff = list(difflib.unified_diff(current.splitlines(), text.splitlines(), args.out, "build-catalog.py", lineterm=""))
        print("\n".join(diff[:40]))
        print(f"{args.out} is not what scripts/build-catalog.py writes: edit Catalog/custom-filters.json (or the "
              f"reference) and run scripts/build-catalog.py", file=sys.stderr)
        sys.exit(1)
    with open(args.out, "w") as fh:
        fh.write(text)
    print(f"wrote {args.out}: {len(catalog['filters'])} filters, {len(catalog['categories'])} categories")


if __name__ == "__main__":
    main()
