"""keyboard.type cost per character on a fresh Xvfb (no window focused: the X server's
work is the same, and no app's speed is measured).

    .venv/bin/python benchmarks/gui_typing.py [--repeat 10]

Cases: printable ASCII through the keyboard map (and pyautogui's press loop for
comparison), non-ASCII characters already mapped to pool keycodes, and 60 distinct
non-ASCII characters per call (more than the 19 pool keycodes: remaps with settles).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

from deskact.runtime.world.display import Display

ASCII = "".join(chr(c) for c in range(32, 127))
WARM = "éßü日本✓Ωαβγ" * 5
CHURN = "αβγδεζηθικλμνξοπρστυφχψωабвгдежзийклмнопрстуфхцчшщъыьэюя日本語中"[:60]


def per_char_ms(fn: Callable[[], None], chars: int, repeat: int) -> tuple[float, float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000 / chars)
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, round(0.95 * (len(samples) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    with Display(width=1280, height=800) as display:
        os.environ["DISPLAY"] = display.name
        from deskact.toolkits.gui.api import _pyautogui, keyboard

        pag = _pyautogui()
        keyboard.type(WARM)  # map the warm set once
        cases: list[tuple[str, Callable[[], None], int]] = [
            ("ASCII, keyboard map (keyboard.type)", lambda: keyboard.type(ASCII), len(ASCII)),
            ("ASCII, pyautogui.press loop (old path)", lambda: [pag.press(c, _pause=False) for c in ASCII], len(ASCII)),
            ("non-ASCII, already mapped", lambda: keyboard.type(WARM), len(WARM)),
            ("60 distinct non-ASCII per call (pool churn)", lambda: keyboard.type(CHURN), len(CHURN)),
        ]
        print(f"Xvfb {display.name}, {args.repeat} calls per case; ms per character, median / p95")
        for name, fn, chars in cases:
            median, p95 = per_char_ms(fn, chars, args.repeat)
            print(f"{name:48s} {median:6.2f} / {p95:6.2f}")


if __name__ == "__main__":
    main()
