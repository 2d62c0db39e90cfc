#!/usr/bin/env python3
"""The explorer's monkey test: random keys, mouse sequences, broken escapes and text into the real explorer in a
detached tmux session, with a window resize every 200 keys (sizes from 1x1 to 300x100) and a responsiveness probe
every 1000 keys (`?` must show the help within 5 s). At the end `q` must exit with status 0 and the terminal must
be restored. Reports peak RSS (VmHWM) of the explorer and prints the summary line

  monkey: N keys, N resizes, N crash, N hang, N broken-terminal, peak RSS N MB

and exits 1 on any crash, hang or broken terminal.

  scripts/monkey-explorer.py [--keys 10000] [--seed 1] [--binary PATH]

Needs tmux. The explorer's own state and exports go to a temporary directory.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

KEYS = (["Up", "Down", "Left", "Right", "S-Left", "S-Right", "S-Up", "S-Down", "Tab", "BTab", "Enter", "Escape",
         "BSpace", "DC", "Home", "End", "PPage", "NPage", "Space"] + [f"F{n}" for n in range(1, 13)]
        + list("0123456789abcdfghijklmnoprstuvwxyzABCDEFGHIJKLMNOPRSTUVWXYZ") + ["/", "?", "=", "#", "-", ".", ",", "[", "]"])
# Literal byte strings: mouse reports (SGR and X10, some far outside the window), broken escapes, text.
LITERALS = ["\x1b[<0;10;10M", "\x1b[<0;10;10m", "\x1b[<64;50;20M", "\x1b[<65;50;20M", "\x1b[<0;9999;9999M",
            "\x1b[<32;30;12M", "\x1b[M !!", "\x1b[M #\xff", "\x1b[", "\x1b[999999999999A", "\x1bO", "\x1b[<",
            "é", "日本語", "שלום", "\u202e", "pi/4", "1e30", "nan", "-inf", "\x1b]52;c;aGVsbG8=\x07"]
SIZES = [(1, 1), (2, 1), (1, 40), (300, 1), (10, 5), (20, 8), (60, 16), (80, 24), (120, 40), (200, 60), (300, 100)]


class Tmux:
    def __init__(self, socket):
        self.socket = socket

    def run(self, *arguments, check=True):
        result = subprocess.run(["tmux", "-L", self.socket, *arguments], capture_output=True, text=True)
        if check and result.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(arguments)}: {result.stderr.strip()}")
        return result.stdout

    def screen(self):
        return self.run("capture-pane", "-p", "-t", "main", check=False)

    def format(self, variable):
        return self.run("display-message", "-p", "-t", "main", variable, check=False).strip()

    def wait_for(self, predicate, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate(self.screen()):
                return True
            time.sleep(0.05)
        return False


def explorer_pid(tmux):
    shell = tmux.format("#{pane_pid}")
    try:
        with open(f"/proc/{shell}/task/{shell}/children") as f:
            children = f.read().split()
        return int(children[0]) if children else None
    except (OSError, ValueError):
        return None


def peak_rss_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keys", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--binary", default=os.environ.get("CIFILTERTEST_BIN", os.path.join(ROOT, ".build", "debug", "cifiltertest")))
    options = parser.parse_args()
    if not shutil.which("tmux"):
        print("monkey: tmux is not installed")
        return 2
    rng = random.Random(options.seed)
    work = tempfile.mkdtemp(prefix="cifiltertest-monkey-")
    tmux = Tmux(f"cifiltertest-monkey-{os.getpid()}")
    samples = os.path.join(ROOT, "SampleImages")
    script = (f"trap : INT QUIT; ulimit -c 0; cd '{work}' && env -i PATH=/usr/bin:/bin HOME='{work}' TERM=tmux-256color "
              f"LANG=C.UTF-8 XDG_STATE_HOME='{work}/state' CIFILTERTEST_SAMPLES='{samples}' '{options.binary}' explore; "
              "echo EXITED:$?; case \"$(stty -a)\" in *-icanon*|*' -echo '*) echo TTY:raw;; *) echo TTY:sane;; esac; exec sleep 600")
    counts = {"crash": 0, "hang": 0, "broken-terminal": 0}
    resizes = 0
    peak = 0.0
    sent = 0
    try:
        tmux.run("-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40", "-s", "main", "sh", "-c", script)
        if not tmux.wait_for(lambda s: "? help" in s, 30):
            print("monkey: the explorer did not open")
            counts["hang"] += 1
            return 1
        pid = explorer_pid(tmux)
        batch = []
        while sent < options.keys:
            if rng.random() < 0.1:
                if batch:
                    tmux.run("send-keys", "-t", "main", *batch, check=False)
                    batch = []
                tmux.run("send-keys", "-t", "main", "-l", rng.choice(LITERALS), check=False)
            else:
                batch.append(rng.choice(KEYS))
            sent += 1
            if len(batch) >= 10:
                tmux.run("send-keys", "-t", "main", *batch, check=False)
                batch = []
            if sent % 200 == 0:
                width, height = rng.choice(SIZES)
                tmux.run("resize-window", "-t", "main", "-x", str(width), "-y", str(height), check=False)
                resizes += 1
            if sent % 1000 == 0:
                peak = max(peak, peak_rss_mb(pid))
                if "EXITED:" in tmux.screen() or not os.path.exists(f"/proc/{pid}"):
                    print(f"monkey: the explorer ended after {sent} keys:\n{tmux.screen()}")
                    counts["crash"] += 1
                    break
                # Probe at a readable size: leave any editor or prompt, open the help, close it.
                tmux.run("resize-window", "-t", "main", "-x", "120", "-y", "40", check=False)
                tmux.run("send-keys", "-t", "main", "Escape", "Escape", "Escape", check=False)
                time.sleep(0.1)
                tmux.run("send-keys", "-t", "main", "?", check=False)
                if not tmux.wait_for(lambda s: "Keys (any key closes)" in s, 5):
                    print(f"monkey: no help within 5 s after {sent} keys:\n{tmux.screen()}")
                    counts["hang"] += 1
                    break
                tmux.run("send-keys", "-t", "main", "Escape", check=False)
                print(f"monkey: {sent} keys, peak RSS {peak:.0f} MB", flush=True)
        if counts["crash"] == 0 and counts["hang"] == 0:
            peak = max(peak, peak_rss_mb(pid))
            tmux.run("resize-window", "-t", "main", "-x", "120", "-y", "40", check=False)
            tmux.run("send-keys", "-t", "main", "Escape", "Escape", "Escape", check=False)
            time.sleep(0.2)
            tmux.run("send-keys", "-t", "main", "q", check=False)
            if not tmux.wait_for(lambda s: "TTY:" in s, 15):
                counts["hang"] += 1
            else:
                screen = tmux.screen()
                restored = ("EXITED:0" in screen and "TTY:sane" in screen and tmux.format("#{alternate_on}") == "0"
                            and tmux.format("#{cursor_flag}") == "1" and tmux.format("#{mouse_any_flag}#{mouse_button_flag}") == "00")
                if "EXITED:0" not in screen:
                    counts["crash"] += 1
                elif not restored:
                    counts["broken-terminal"] += 1
    finally:
        tmux.run("kill-server", check=False)
        shutil.rmtree(work, ignore_errors=True)
    print(f"monkey: {sent} keys, {resizes} resizes, {counts['crash']} crash, {counts['hang']} hang, "
          f"{counts['broken-terminal']} broken-terminal, peak RSS {peak:.0f} MB")
    return 1 if any(counts.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
