"""CPU cost of the input log (``runtime/run/input_log.py``) in the runner: its thread's own time.

    .venv/bin/python benchmarks/input_log_cost.py [--moves N] [--chars N] [--repeat N]

A private Xvfb; the log runs in this process while a child sends XTest input through python-xlib
(N pointer moves 1 ms apart, as pyautogui's moveTo with a duration sends them, then N typed
characters). The logger thread's user + system time is read from /proc/self/task/TID/stat, so
nothing else of this process counts. Prints a Markdown table: events received, written, CPU ms,
microseconds per received event (medians over --repeat runs).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from deskact.runtime.run import input_log
from deskact.runtime.world.display import Display

DRIVER = """
import sys, time
from Xlib import X, XK, display
from Xlib.ext import xtest
x = display.Display()
moves, chars = int(sys.argv[1]), int(sys.argv[2])
for i in range(moves):
    xtest.fake_input(x, X.MotionNotify, x=100 + i % 800, y=100 + (i // 800) % 600)
    x.sync()
    time.sleep(0.001)
codes = [x.keysym_to_keycode(XK.string_to_keysym(c)) for c in "abcdefghij"]
for i in range(chars):
    xtest.fake_input(x, X.KeyPress, codes[i % 10])
    xtest.fake_input(x, X.KeyRelease, codes[i % 10])
    x.sync()
"""


def thread_cpu_ms(native_id: int) -> float:
    fields = Path(f"/proc/self/task/{native_id}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return ticks * 1000 / os.sysconf("SC_CLK_TCK")


def one(display: Display, moves: int, chars: int) -> tuple[int, int, float]:
    with tempfile.TemporaryDirectory() as tmp:
        logger = input_log.start(display.name, Path(tmp) / "input.jsonl")
        tid = logger._thread.native_id
        assert tid is not None
        subprocess.run([sys.executable, "-c", DRIVER, str(moves), str(chars)], env={**os.environ, **display.env()},
                       check=True)
        cpu = thread_cpu_ms(tid)  # before stop(): the thread ends there
        summary = logger.stop()
    received = summary.events + summary.motion_dropped
    return received, summary.events, cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--chars", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rows = []
    with Display(width=1280, height=800) as display:
        for _ in range(args.repeat):
            rows.append(one(display, args.moves, args.chars))
    received = statistics.median(r[0] for r in rows)
    written = statistics.median(r[1] for r in rows)
    cpu = statistics.median(r[2] for r in rows)
    print("| events received | written (motion sampled at 50 ms) | logger thread CPU | per received event |")
    print("|---|---|---|---|")
    print(f"| {received:.0f} | {written:.0f} | {cpu:.0f} ms | {cpu * 1000 / received:.0f} µs |")


if __name__ == "__main__":
    main()
