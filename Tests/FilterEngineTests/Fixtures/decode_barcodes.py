#!/usr/bin/env python3
"""Decodes barcode images for the Swift tests with an independent decoder (zxing-cpp, from PyPI).

Usage: decode_barcodes.py FILE.pgm ...   (binary PGM, P5, 8-bit)
Prints one JSON object per file: {"file", "results": [{"format", "hex", "ec_level"}]}.
Each image is given a 10-pixel white border and scaled 4x (nearest) first: the generators draw one pixel per
module, smaller than a camera-oriented decoder expects. Exits 3 when zxing-cpp is missing.
"""
import json
import sys

try:
    import zxingcpp
except ImportError:
    print("zxing-cpp is not installed (pip install zxing-cpp)", file=sys.stderr)
    sys.exit(3)


def read_pgm(path):
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:  # magic, width, height, maxval; '#' comments not used by the tests
        while data[pos:pos + 1].isspace():
            pos += 1
        start = pos
        while not data[pos:pos + 1].isspace():
            pos += 1
        fields.append(data[start:pos])
    assert fields[0] == b"P5", path
    width, height = int(fields[1]), int(fields[2])
    return width, height, data[pos + 1:pos + 1 + width * height]


def enlarge(width, height, pixels, border=10, scale=4):
    w, h = (width + 2 * border) * scale, (height + 2 * border) * scale
    out = bytearray(b"\xff" * (w * h))
    for y in range(height):
        row = bytearray()
        for x in range(width):
            row += pixels[y * width + x:y * width + x + 1] * scale
        for k in range(scale):
            offset = ((y + border) * scale + k) * w + border * scale
            out[offset:offset + len(row)] = row
    return w, h, bytes(out)


for path in sys.argv[1:]:
    w, h, pixels = enlarge(*read_pgm(path))
    image = memoryview(pixels).cast("B", (h, w))
    results = zxingcpp.read_barcodes(image)
    print(json.dumps({"file": path, "results": [
        {"format": str(r.format).split(".")[-1], "hex": bytes(r.bytes).hex(), "ec_level": r.ec_level}
        for r in results]}))
