"""The peer benchmark behind scripts/bench-peers: our `bench` figures against OpenCV and libvips, same photo, same
thread count, alternating rounds, best median per tool. Peers get every advantage a real user of theirs would take:
8-bit pixels, masks and grain computed once outside the timing, their own fastest call for each operation."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

parser = argparse.ArgumentParser()
parser.add_argument("--binary", required=True)
parser.add_argument("--rounds", type=int, default=3)
parser.add_argument("--runs", type=int, default=15)
parser.add_argument("--threads", type=int, default=os.cpu_count())
args = parser.parse_args()

os.environ["VIPS_CONCURRENCY"] = str(args.threads)
import cv2  # noqa: E402
import numpy as np  # noqa: E402
import pyvips  # noqa: E402
from PIL import Image  # noqa: E402

# No operation cache: every call computes its pixels, as a new frame would.
pyvips.cache_set_max(0)

cv2.setNumThreads(args.threads)
here = os.path.dirname(os.path.abspath(__file__))

# The photo: the bundled sample enlarged to 1920×1920 (Lanczos) and its middle 1080 rows, opaque 8-bit sRGB.
sample = Image.open(os.path.join(here, "..", "SampleImages", "astronaut.png")).convert("RGB")
photo = np.asarray(sample.resize((1920, 1920), Image.LANCZOS))[420:1500].copy()
workdir = tempfile.mkdtemp(prefix="bench-peers-")
photo_path = os.path.join(workdir, "photo.png")
Image.fromarray(photo).save(photo_path)
height, width = photo.shape[:2]
bgr = cv2.cvtColor(photo, cv2.COLOR_RGB2BGR)
vips_photo = pyvips.Image.new_from_memory(photo.tobytes(), width, height, 3, "uchar")

# Computed once, outside the timing, as an OpenCV or libvips user would.
yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
radius = np.hypot(width, height) / 2
vignette = np.clip(1 - 0.5 * ((xx - width / 2) ** 2 + (yy - height / 2) ** 2) / radius ** 2, 0, 1)
vignette3 = cv2.merge([(vignette * 255).astype(np.uint8)] * 3)
grain = (np.random.default_rng(1).random((height, width)) * 0.06 + 0.94) * 255
grain3 = cv2.merge([grain.astype(np.uint8)] * 3)
warm = np.diag([0.92, 1.0, 1.08]).astype(np.float32)  # BGR gains: a warmer white balance
sepia = np.array([[0.272, 0.534, 0.131], [0.349, 0.686, 0.168], [0.393, 0.769, 0.189]], np.float32)  # BGR rows
saturation = 1.2
luma = np.array([0.114, 0.587, 0.299], np.float32)
controls = (np.outer(np.ones(3), luma) * (1 - saturation) + np.eye(3) * saturation) * 1.1
controls = np.hstack([controls, np.full((3, 1), 0.05 * 255 - 0.1 * 128)]).astype(np.float32)


def vintage_cv():
    warmed = cv2.transform(bgr, warm)
    return cv2.multiply(cv2.multiply(warmed, vignette3, scale=1 / 255), grain3, scale=1 / 255)


rows = [
    # (label, our bench case, {peer: callable})
    ("vintage chain (temperature, vignette, grain, multiply)", "a vintage dailies chain", {
        "OpenCV u8": vintage_cv,
    }),
    ("Gaussian blur sigma 10", "c CIGaussianBlur radius 10", {
        "OpenCV u8": lambda: cv2.GaussianBlur(bgr, (0, 0), 10),
        # Out to 3 sigma as ours and OpenCV's 8-bit path: libvips' default (min_ampl 0.2) stops at 1.8 sigma.
        "libvips u8": lambda: vips_photo.gaussblur(10, min_ampl=float(np.exp(-4.5))).write_to_memory(),
    }),
    ("sepia tone", "d CISepiaTone", {
        "OpenCV u8": lambda: cv2.transform(bgr, sepia),
        "libvips u8": lambda: vips_photo.recomb(sepia[::-1, ::-1].tolist()).cast("uchar").write_to_memory(),
    }),
    ("colour controls", "e CIColorControls", {
        "OpenCV u8": lambda: cv2.transform(bgr, controls),
    }),
    ("Lanczos scale 50 %", "k CILanczosScaleTransform 0.5", {
        # Not OpenCV: its INTER_LANCZOS4 keeps 8 taps when shrinking (no antialiasing), half the work and
        # aliased; Core Image's Lanczos and libvips' widen the kernel by 1/scale (12 taps at 50 %).
        "libvips u8": lambda: vips_photo.resize(0.5, kernel="lanczos3").write_to_memory(),
    }),
]


def median_ms(function):
    for _ in range(3):
        function()
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        function()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def ours_ms(case):
    out = subprocess.run([args.binary, "bench", "--image", photo_path, "--only", case, "--runs", str(args.runs),
                          "--threads", str(args.threads), "--json"], check=True, capture_output=True, text=True).stdout
    results = [r for r in json.loads(out) if r["case"] == case]
    if not results:
        sys.exit(f"bench has no case named {case!r}")
    return results[0]["ms"]


best = {}
for round in range(args.rounds):
    for label, case, peers in rows:
        figures = {"ours": ours_ms(case)}
        figures.update({name: median_ms(call) for name, call in peers.items()})
        for name, ms in figures.items():
            best[(label, name)] = min(ms, best.get((label, name), float("inf")))

print(f"bench-peers: {width}x{height} photo, {args.threads} threads, best of {args.rounds} rounds of "
      f"{args.runs}-run medians (ms); ratio = ours / fastest peer (below 1: ours is faster)")
print(f"{'operation':56} {'ours':>8} {'OpenCV':>8} {'libvips':>8} {'ratio':>6}")
for label, case, peers in rows:
    ours = best[(label, "ours")]
    cv = best.get((label, "OpenCV u8"))
    vips = best.get((label, "libvips u8"))
    fastest = min(v for v in (cv, vips) if v is not None)
    show = lambda v: f"{v:8.2f}" if v is not None else f"{'-':>8}"
    print(f"{label:56} {ours:8.2f} {show(cv)} {show(vips)} {ours / fastest:6.2f}")
