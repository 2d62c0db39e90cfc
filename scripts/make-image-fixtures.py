#!/usr/bin/env python3
"""Writes the image-metadata fixtures of Tests/FilterEngineTests/Fixtures/metadata/ with Pillow (run it again
to remake them; the tests read the committed files, so CI needs no Pillow):

- orientation-N.jpg (N = 1...8): the same upright 48x32 picture (four coloured quadrants: red top-left, green
  top-right, blue bottom-left, white bottom-right), stored turned so that EXIF orientation N turns it upright.
- orientation-6.png: the same with orientation 6 in a PNG eXIf chunk.
- icc-srgb.jpg, icc-lab.jpg: a JPEG carrying an sRGB profile, and one carrying a non-sRGB profile (Lab).
- icc-wide.png: an RGB profile not named sRGB in an iCCP chunk; icc-lab.png: a Lab profile, invalid in an RGB PNG.
- dpi-300.jpg: JFIF density 300 dpi.
"""
import io
import os
import sys

from PIL import Image, ImageCms

OUT = os.path.join(os.path.dirname(__file__), "..", "Tests", "FilterEngineTests", "Fixtures", "metadata")


def upright():
    image = Image.new("RGB", (48, 32))
    colours = {(0, 0): (255, 0, 0), (1, 0): (0, 255, 0), (0, 1): (0, 0, 255), (1, 1): (255, 255, 255)}
    for (qx, qy), colour in colours.items():
        image.paste(colour, (qx * 24, qy * 16, qx * 24 + 24, qy * 16 + 16))
    return image


# The operation that turns a stored picture with orientation N upright is Pillow's exif_transpose table; the
# stored picture is the upright one turned by that operation's inverse.
INVERSE = {
    1: None,
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_90,    # exif_transpose applies ROTATE_270
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_270,   # exif_transpose applies ROTATE_90
}


def main():
    os.makedirs(OUT, exist_ok=True)
    picture = upright()
    for n, inverse in INVERSE.items():
        stored = picture if inverse is None else picture.transpose(inverse)
        exif = Image.Exif()
        exif[0x0112] = n
        path = os.path.join(OUT, f"orientation-{n}.jpg")
        stored.save(path, quality=95, exif=exif.tobytes())
        # Check: Pillow's own reading turns it upright.
        back = Image.open(path)
        from PIL import ImageOps
        assert ImageOps.exif_transpose(back).size == picture.size, n
    exif = Image.Exif()
    exif[0x0112] = 6
    picture.transpose(INVERSE[6]).save(os.path.join(OUT, "orientation-6.png"), exif=exif.tobytes())
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    lab = ImageCms.ImageCmsProfile(ImageCms.createProfile("LAB")).tobytes()
    picture.save(os.path.join(OUT, "icc-srgb.jpg"), quality=95, icc_profile=srgb)
    picture.save(os.path.join(OUT, "icc-lab.jpg"), quality=95, icc_profile=lab)
    # libpng drops a Lab profile in an RGB PNG as invalid (reported as such); an RGB profile with another name:
    # the sRGB one renamed (same length).
    wide = srgb.replace(b"sRGB built-in", b"Wide gamut 13")  # ICC v2 text
    wide = wide.replace("sRGB built-in".encode("utf-16-be"), "Wide gamut 13".encode("utf-16-be"))  # v4 mluc
    assert wide != srgb
    picture.save(os.path.join(OUT, "icc-wide.png"), icc_profile=wide)
    picture.save(os.path.join(OUT, "icc-lab.png"), icc_profile=lab)
    picture.save(os.path.join(OUT, "dpi-300.jpg"), quality=95, dpi=(300, 300))
    print(f"wrote fixtures to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    sys.exit(main())
