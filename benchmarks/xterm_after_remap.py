"""Reproducer for the xterm that stays one cell big (15x26) -- see reset_scripts/apps/terminal.py.

Starts xterm N times on one display the way ``apps.terminal`` does (no retry) and
counts windows still smaller than 100 px three seconds after bash set their title.
Between starts, while the previous xterm is open, it does one of:

    none        nothing
    ascii       type 30 ASCII characters into it
    remap       remap 30 pool keycodes to new keysyms (no key pressed)
    remapsleep  remap, then wait 2 s before the next start
    remaponce   remap only before the first start
    type        type 30 distinct non-ASCII characters (remaps and presses)

    .venv/bin/python benchmarks/xterm_after_remap.py remap 120
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time

from deskact.reset_scripts import _x11
from deskact.runtime.world.display import Display
from Xlib import display as xdisplay

CHARS = "αβγδεζηθικλμνξοπρστυφχψωабвгдежзийклмнопрстуфхцчшщъыьэюя日本語中文字漢✓✗★☆♠♣♥♦→←↑↓€£¥©®°±×÷"
TYPE = "import sys; from deskact.toolkits.gui.unicode_keys import type_text; type_text(sys.argv[1])"
REMAP = ("import sys; from deskact.toolkits.gui.unicode_keys import typer; t = typer(); t._refresh(); "
         "[t._pool_keycode(0x01000000 | ord(c)) for c in sys.argv[1]]")


def size(conn: xdisplay.Display, wid: int) -> tuple[int, int] | None:
    try:
        geo = conn.create_resource_object("window", wid).get_geometry()
    except Exception:  # noqa: BLE001 - window gone
        return None
    return geo.width, geo.height


def main(mode: str, runs: int) -> None:
    with Display(width=1280, height=800) as display:
        env = {**os.environ, "DISPLAY": display.name}
        conn = xdisplay.Display(display.name)
        stuck = 0
        for i in range(runs):
            title = f"T{i}"
            ready = f"printf '\\033]0;%s\\007' {title}; exec bash --norc"
            proc = subprocess.Popen(
                ["xterm", "-T", "starting", "-geometry", "80x24", "-fa", "DejaVu Sans Mono", "-fs", "13",
                 "-e", "bash", "--norc", "-c", ready],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )
            window, box, titled = None, None, None
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                window = next((w for w in _x11.list_windows(display.name) if w.title == title), None)
                if window is not None:
                    titled = titled or time.monotonic()
                    box = size(conn, window.id)
                    if (box and min(box) >= 100) or time.monotonic() - titled > 3:
                        break
                time.sleep(0.02)
            if window is not None and not (box and min(box) >= 100):
                stuck += 1
                print(f"start {i}: stayed {box}", flush=True)
            if window is not None:
                subprocess.run(["wmctrl", "-i", "-a", hex(window.id)], env=env, check=False)
                sample = "".join(random.sample(CHARS, 30))
                if mode == "ascii":
                    subprocess.run([sys.executable, "-c", TYPE, "".join(random.sample("abcdefghijklmnopqrstuvwxyz", 20))],
                                   env=env, check=True)
                elif mode == "type":
                    subprocess.run([sys.executable, "-c", TYPE, sample], env=env, check=True)
                elif mode in ("remap", "remapsleep") or (mode == "remaponce" and i == 0):
                    subprocess.run([sys.executable, "-c", REMAP, sample], env=env, check=True)
                if mode == "remapsleep":
                    time.sleep(2)
            proc.kill()
            proc.wait()
        print(f"mode {mode}: {stuck} of {runs} xterms stayed tiny")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
