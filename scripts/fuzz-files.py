#!/usr/bin/env python3
"""The bad-file corpus: generates hostile and odd input files and output destinations (the cases of
reliability review section 2), runs `cifiltertest render` over each, and classifies every outcome:

  ok            exit 0 and a readable output
  clean-error   exit 1 (64 for usage errors) with one short "Error: ..." line and no raw control characters
  unclear-error a non-zero exit whose message is several lines, raw control bytes or very long
  crash         killed by a signal, or a runtime crash report
  hang          still running at the time limit (killed)
  memory        peak RSS over the memory limit, or an allocation failure
  fail          the outcome is not the one the case expects (e.g. a refused valid file, a rendered directory)

It prints one line per case and the summary "files: N cases, N crash, N hang, N memory, N fail, N unclear-error,
N clean-error, N ok" and exits 1 if any crash, hang, memory or fail occurred.

  scripts/fuzz-files.py [--quick] [--binary PATH] [--timeout S] [--memory-mb MB] [--keep DIR]

--quick leaves out the slow big-image cases (used by the test suite). Needs Pillow (python3-pil).
"""
import argparse
import io
import json
import os
import resource
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

from PIL import Image

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SAMPLE = os.path.join(ROOT, "SampleImages", "astronaut.png")


def png_chunk(kind, body):
    data = kind + body
    return struct.pack(">I", len(body)) + data + struct.pack(">I", zlib.crc32(data) & 0xFFFFFFFF)


def png_bytes(width, height, depth=8, colour=0, raw=b"", extra=(), crc_ok=True):
    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    ihdr = png_chunk(b"IHDR", header)
    if not crc_ok:
        ihdr = ihdr[:-4] + b"\0\0\0\0"
    body = b"\x89PNG\r\n\x1a\n" + ihdr
    for kind, data in extra:
        body += png_chunk(kind, data)
    return body + png_chunk(b"IDAT", zlib.compress(raw, 9)) + png_chunk(b"IEND", b"")


def jpeg_declaring(width, height):
    """A small real JPEG whose frame header is patched to declare width x height (the rest is truncated data)."""
    buffer = io.BytesIO()
    Image.new("RGB", (64, 64), (120, 80, 40)).save(buffer, "JPEG", quality=50)
    data = bytearray(buffer.getvalue())
    i = data.index(b"\xff\xc0")
    struct.pack_into(">HH", data, i + 5, height, width)
    return bytes(data[: 10 * 1024])


def save(image, path, **options):
    image.save(path, **options)
    return path


class Corpus:
    def __init__(self, directory, quick):
        self.dir = directory
        self.quick = quick
        self.cases = []  # (name, arguments, expectation, check)

    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, name, data):
        with open(self.path(name), "wb") as f:
            f.write(data)
        return self.path(name)

    def add(self, name, arguments, expect, check=None):
        self.cases.append((name, arguments, expect, check))

    def render_input(self, name, path, expect, filter_args=("CISepiaTone",), check=None):
        self.add(name, ["render", *filter_args, "-i", path, "-o", self.path(f"out-{len(self.cases)}.png")], expect, check)

    def build(self):
        p = self.path
        photo = Image.open(SAMPLE).convert("RGB").resize((96, 96))
        good_png = save(photo, p("good.png"))
        png = open(good_png, "rb").read()
        good_jpg = save(photo, p("good.jpg"), quality=90)
        jpg = open(good_jpg, "rb").read()

        # Damaged files: each must be a clean error.
        self.render_input("truncated PNG", self.write("truncated.png", png[: len(png) // 2]), "error")
        self.render_input("header-only PNG", self.write("header.png", png[:33]), "error")
        self.render_input("zero-byte file", self.write("empty.png", b""), "error")
        self.render_input("text named .png", self.write("text.png", b"hello, world\n"), "error")
        self.render_input("bad IHDR CRC", self.write("crc.png", png_bytes(8, 8, raw=b"\0" * 72, crc_ok=False)), "error")
        self.render_input("missing file", p("missing.png"), "error")
        self.render_input("/dev/null", "/dev/null", "error")
        self.render_input("/dev/zero (a device)", "/dev/zero", "error")
        os.mkdir(p("folder.png"))
        self.render_input("a directory", p("folder.png"), "error")
        os.mkfifo(p("pipe.png"))
        self.render_input("a FIFO", p("pipe.png"), "error")
        self.render_input("truncated JPEG", self.write("truncated.jpg", jpg[: len(jpg) // 2]), "either")
        self.render_input("JPEG of 20 bytes", self.write("tiny.jpg", jpg[:20]), "error")
        self.render_input("PNG declaring 100000x100000", self.write("huge.png", png_bytes(100000, 100000)), "error")
        self.render_input("JPEG declaring 65500x65500", self.write("huge.jpg", jpeg_declaring(65500, 65500)), "error")
        self.render_input("10 KB JPEG declaring 16000x16000", self.write("bomb.jpg", jpeg_declaring(16000, 16000)), "error")
        zero_rows = zlib.compress(b"\0" * (16001 * 16000), 9) if not self.quick else None
        if zero_rows:
            header = struct.pack(">IIBBBBB", 16000, 16000, 8, 0, 0, 0, 0)
            bomb = b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", zero_rows) + png_chunk(b"IEND", b"")
            self.render_input("all-zero 16000x16000 PNG (decompression bomb)", self.write("bomb.png", bomb), "error")
        self.render_input("PNG declaring 8000x8000 in 100 bytes", self.write("short.png", png_bytes(8000, 8000, raw=b"\0" * 10)), "error")

        # Odd but valid files: each must render.
        self.render_input("grey + alpha PNG", save(photo.convert("LA"), p("la.png")), "ok")
        pal = photo.convert("P")
        pal.info["transparency"] = 0
        self.render_input("palette + tRNS PNG", save(pal, p("pal.png"), transparency=0), "ok")
        self.render_input("1-bit PNG", save(photo.convert("1"), p("bit.png")), "ok")
        self.render_input("interlaced PNG", self.write("interlaced.png", interlaced(photo)), "ok")
        grey16 = b"".join(b"\0" + b"".join(struct.pack(">H", (x * 700 + y * 13) & 0xFFFF) for x in range(96)) for y in range(96))
        self.render_input("16-bit grey PNG", self.write("grey16.png", png_bytes(96, 96, depth=16, raw=grey16)), "ok")
        # Untagged 16-bit is sRGB-encoded: 64×257 must come out as 64 in 8 bits (read as linear light it was 137).
        flat16 = b"".join(b"\0" + struct.pack(">H", 64 * 257) * 8 for _ in range(8))
        out16 = self.path("flat16-out.png")
        self.add("untagged 16-bit PNG keeps its values", ["render", "CIExposureAdjust", "inputEV=0", "-i",
                 self.write("flat16.png", png_bytes(8, 8, depth=16, raw=flat16)), "-o", out16], "ok",
                 check=lambda r: abs(Image.open(out16).convert("L").getpixel((4, 4)) - 64) <= 1
                 or f"64 came out as {Image.open(out16).convert('L').getpixel((4, 4))}")
        self.render_input("CMYK JPEG", save(photo.convert("CMYK"), p("cmyk.jpg"), quality=90), "ok")
        self.render_input("progressive JPEG", save(photo, p("progressive.jpg"), quality=90, progressive=True), "ok")
        self.render_input("greyscale JPEG", save(photo.convert("L"), p("grey.jpg"), quality=90), "ok")
        exif = Image.Exif()
        exif[0x0112] = 6
        self.render_input("EXIF orientation 6 JPEG", save(photo, p("rot.jpg"), quality=90, exif=exif.tobytes()), "ok")
        try:
            from PIL import ImageCms
            lab = ImageCms.ImageCmsProfile(ImageCms.createProfile("LAB")).tobytes()
            self.render_input("JPEG with a non-sRGB ICC profile (warned)", save(photo, p("icc.jpg"), quality=90, icc_profile=lab),
                              "ok", check=lambda r: "not applied" in r.stderr or "the ICC warning is missing")
        except ImportError:
            pass
        one = save(Image.new("RGB", (1, 1), (10, 200, 30)), p("one.png"))
        self.render_input("1x1 through a blur", one, "ok", ("CIGaussianBlur", "inputRadius=10"))
        self.render_input("1x1 through a 3x3 convolution", one, "ok", ("CIConvolution3X3",))
        self.render_input("20000x1 through a blur", save(Image.new("RGB", (20000, 1), (9, 9, 9)), p("wide.png")), "ok", ("CIGaussianBlur",))
        self.render_input("1x20000 through a blur", save(Image.new("RGB", (1, 20000), (9, 9, 9)), p("tall.png")), "ok", ("CIGaussianBlur",))
        self.render_input("upper-case .PNG", save(photo, p("UPPER.PNG")), "ok")
        for label, name in [("spaces", "a b.png"), ("quotes", "a'b\"c.png"), ("$()", "$(touch pwned).png"), ("newline", "a\nb.png")]:
            self.render_input(f"name with {label}", save(photo, p(name)), "ok")
        self.render_input("name with an OSC 52 sequence (missing)", p("\x1b]52;c;aGVsbG8=\x07.png"), "error")
        if not self.quick:
            # Under the default decode limit (2^27 pixels) and over it.
            self.render_input("11000x11000 PNG", save(Image.new("RGB", (11000, 11000), (30, 60, 90)), p("big.png")), "ok")
            self.render_input("12000x12000 PNG (over the default limit)", save(Image.new("RGB", (12000, 12000), (30, 60, 90)), p("bigger.png")),
                              "error", check=None)

        # Outputs.
        sepia = ["render", "CISepiaTone", "-i", good_png]
        self.add("output over its input", ["render", "CISepiaTone", "-i", save(photo, p("self.png")), "-o", p("self.png")], "ok")
        os.makedirs(p("sub"))
        self.add("../ in the output path", sepia + ["-o", p("sub/../up.png")], "ok")
        self.add("output: missing parent", sepia + ["-o", p("nowhere/o.png")], "error")
        self.add("output: a directory", sepia + ["-o", p("folder.png")], "error")
        self.add("output: a FIFO", sepia + ["-o", p("pipe.png")], "error")
        self.add("output: .tiff", sepia + ["-o", p("o.tiff")], "error")
        self.add("output: no extension", sepia + ["-o", p("o")], "error")
        self.add("output: /dev/full", sepia + ["-o", "/dev/full"], "error")
        self.add("output: /proc/1/x.png", sepia + ["-o", "/proc/1/x.png"], "error")
        os.symlink(p("linked-target.png"), p("link.png"))
        shutil.copy(good_png, p("linked-target.png"))
        self.add("output: a symlink (its target replaced)", sepia + ["-o", p("link.png")], "ok",
                 check=lambda r: os.path.islink(p("link.png")) or "the symlink was replaced by a file")
        for quality in ["0", "101", "abc", "1e9"]:
            self.add(f"--quality {quality}", sepia + ["-o", p("q.jpg"), "--quality", quality], "error")
        gen = ["render", "CICheckerboardGenerator", "-o", p("crop.png")]
        for crop in ["nan,0,10,10", "inf,0,10,10", "1e30,0,10,10", "a,b,c,d", "1,2,3", "1,2,3,4,5", "0,0,-5,5", "0,0,70000,70000"]:
            self.add(f"--crop {crop}", gen + [f"--crop={crop}"], "error")

        # Recipes and catalogues.
        recipe = ["render", "-i", good_png, "-o", p("r.png"), "--recipe"]
        self.add("recipe: malformed", recipe + [self.write("bad.json", b'[{"filter": ')], "error")
        self.add("recipe: 100000 deep", recipe + [self.write("deep.json", b"[" * 100000)], "error")
        self.add("recipe: binary garbage", recipe + [self.write("garbage.json", bytes(range(256)) * 40)], "error")
        self.add("recipe: not a list", recipe + [self.write("object.json", b'{"filter": "CISepiaTone"}')], "error")
        self.add("recipe: a directory", recipe + [p("folder.png")], "error")
        self.add("recipe: a FIFO", recipe + [p("pipe.png")], "error")
        steps = json.dumps([{"filter": "CISepiaTone", "inputs": {"inputIntensity": 0.1}}] * (200 if self.quick else 2000))
        self.add("recipe: 2000 steps" if not self.quick else "recipe: 200 steps", recipe + [self.write("long.json", steps.encode())], "ok")
        self.add("--catalog: garbage", ["list", "--catalog", p("garbage.json")], "error")
        self.add("--catalog: 100000 deep", ["list", "--catalog", p("deep.json")], "error")
        self.add("--catalog: a FIFO", ["list", "--catalog", p("pipe.png")], "error")
        cube = self.write("dir.cube", b"")
        os.remove(cube)
        os.mkfifo(cube)
        self.add(".cube data that is a FIFO", ["render", "CIColorCube", "inputCubeData=" + cube, "inputCubeDimension=2", "-i", good_png, "-o", p("c.png")], "error")


def interlaced(image):
    """An Adam7-interlaced 8-bit RGB PNG (Pillow writes none), built pass by pass."""
    width, height = image.size
    pixels = image.tobytes()
    passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    raw = b""
    for x0, y0, dx, dy in passes:
        for y in range(y0, height, dy):
            row = b"".join(pixels[(y * width + x) * 3:(y * width + x) * 3 + 3] for x in range(x0, width, dx))
            if row:
                raw += b"\0" + row
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 1)
    return b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header) + png_chunk(b"IDAT", zlib.compress(raw)) + png_chunk(b"IEND", b"")


class Result:
    def __init__(self, status, signal_number, stderr, seconds, peak_mb, timed_out):
        self.status, self.signal, self.stderr = status, signal_number, stderr
        self.seconds, self.peak_mb, self.timed_out = seconds, peak_mb, timed_out


def run(binary, arguments, timeout, memory_mb):
    def limits():
        limit = (memory_mb * 4) << 20  # address space: leaves room for the runtime's reservations
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    environment = dict(os.environ, SWIFT_BACKTRACE="enable=no")
    environment.pop("CIFILTERTEST_MAX_PIXELS", None)
    start = time.monotonic()
    with tempfile.TemporaryFile() as err:
        process = subprocess.Popen([binary] + arguments, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=err, preexec_fn=limits, env=environment)
        timed_out = False
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - start > timeout:
                timed_out = True
                os.kill(process.pid, signal.SIGKILL)
                pid, status, usage = os.wait4(process.pid, 0)
                break
            time.sleep(0.01)
        process.returncode = 0  # reaped here
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    seconds = time.monotonic() - start
    signal_number = os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + signal_number
    return Result(code, signal_number, stderr, seconds, usage.ru_maxrss / 1024, timed_out)


def classify(result, expect, check, memory_mb):
    raw_control = any(ord(c) < 0x20 and c not in "\n" for c in result.stderr) or "\x7f" in result.stderr
    if result.timed_out:
        return "hang"
    if result.peak_mb > memory_mb or "failed to allocate" in result.stderr or "out of memory" in result.stderr.lower():
        return "memory"
    if result.signal or "Fatal error" in result.stderr or "Program crashed" in result.stderr:
        return "crash"
    if result.status == 0:
        outcome = "ok"
    else:
        lines = [l for l in result.stderr.splitlines() if l.strip()]
        # 1: a render or file error; 64: a usage error (ArgumentParser's EX_USAGE, followed by the usage line).
        clean = result.status in (1, 64) and len(lines) >= 1 and lines[0].startswith("Error: ") and not raw_control \
            and len(lines[0]) <= 400 and all(l.startswith(("Error: ", "Help: ", "Usage: ", "  ", "See ", "cifiltertest: warning")) for l in lines)
        outcome = "clean-error" if clean else "unclear-error"
    if raw_control:
        return "unclear-error"
    if expect == "ok" and outcome != "ok" or expect == "error" and outcome == "ok":
        return "fail"
    if check and outcome == "ok":
        verdict = check(result)
        if verdict is not True:
            return "fail"
    return outcome


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--binary", default=os.environ.get("CIFILTERTEST_BIN", os.path.join(ROOT, ".build", "debug", "cifiltertest")))
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--memory-mb", type=int, default=1500)
    parser.add_argument("--keep", help="build the corpus in this directory and keep it")
    options = parser.parse_args()
    directory = options.keep or tempfile.mkdtemp(prefix="cifiltertest-files-")
    os.makedirs(directory, exist_ok=True)
    corpus = Corpus(directory, options.quick)
    corpus.build()
    counts = {k: 0 for k in ["crash", "hang", "memory", "fail", "unclear-error", "clean-error", "ok"]}
    for name, arguments, expect, check in corpus.cases:
        result = run(options.binary, arguments, options.timeout, options.memory_mb)
        outcome = classify(result, expect, check, options.memory_mb)
        counts[outcome] += 1
        first = next((l for l in result.stderr.splitlines() if l.strip()), "")
        shown = first.encode("unicode_escape").decode()[:140]
        print(f"{outcome:13} {result.seconds:6.2f}s {result.peak_mb:7.0f} MB  {name}" + (f"  | {shown}" if shown else ""))
    if not options.keep:
        shutil.rmtree(directory, ignore_errors=True)
    summary = f"files: {len(corpus.cases)} cases, " + ", ".join(f"{counts[k]} {k}" for k in counts)
    print(summary)
    bad = counts["crash"] + counts["hang"] + counts["memory"] + counts["fail"] + counts["unclear-error"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
