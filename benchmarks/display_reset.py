"""What the X server reset between two tasks costs (runtime/world/display.py ``Display.reset``).

Run: .venv/bin/python benchmarks/display_reset.py [--n 30]
Prints median and p95 of the reset's wall time (ms) and its CPU (ms: this process, Xvfb, and
the window manager started again), on a clean display and after a task-like mess (a window and
a 64 MB pixmap kept with RetainPermanent, a root property, a remapped key).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from deskact.runtime.world.display import Display

MESS = """
from Xlib import X, XK, Xatom, display
d = display.Display()
root = d.screen().root
d.set_close_down_mode(X.RetainPermanent)
root.create_window(0, 0, 400, 300, 0, d.screen().root_depth, override_redirect=True).map()
root.create_pixmap(4096, 4096, d.screen().root_depth)
root.change_property(d.intern_atom("LEFTOVER"), Xatom.STRING, 8, b"x" * 100000)
d.change_keyboard_mapping(38, [(XK.string_to_keysym("b"),) * len(d.get_keyboard_mapping(38, 1)[0])])
d.sync()
"""


def _cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    # utime, stime, and the waited children's (Xvfb runs xkbcomp to compile its keymap at a reset)
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _own_cpu() -> float:
    self_, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return self_.ru_utime + self_.ru_stime + children.ru_utime + children.ru_stime


def measure(display: Display, n: int, mess: bool) -> tuple[list[float], list[float]]:
    walls, cpus = [], []
    for _ in range(n):
        if mess:
            subprocess.run([sys.executable, "-c", MESS], env={**os.environ, "DISPLAY": display.name}, check=True)
        xvfb, own = _cpu_of(display.pids["xvfb"]), _own_cpu()  # the window manager is a waited child
        start = time.perf_counter()
        display.reset()
        walls.append((time.perf_counter() - start) * 1000)
        cpus.append((_cpu_of(display.pids["xvfb"]) - xvfb + _own_cpu() - own) * 1000)
    return walls, cpus


def _row(label: str, values: list[float]) -> str:
    values = sorted(values)
    p95 = values[min(len(values) - 1, round(0.95 * (len(values) - 1)))]
    return f"| {label} | {statistics.median(values):.0f} | {p95:.0f} |"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=30)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    print("| measure (ms) | median | p95 |\n|---|---:|---:|")
    with Display(width=1920, height=1080) as display:
        for mess in (False, True):
            walls, cpus = measure(display, args.n, mess)
            what = "after a task's mess" if mess else "clean display"
            print(_row(f"reset wall, {what}", walls))
            print(_row(f"reset CPU (runner + Xvfb + openbox), {what}", cpus))


if __name__ == "__main__":
    main()
