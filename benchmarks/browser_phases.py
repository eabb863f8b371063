"""Where ``browser.open`` spends its time in a world, phase by phase.

Usage: .venv/bin/python benchmarks/browser_phases.py [--repeat N]

Each repetition makes a fresh world on one Xvfb display (not timed) and runs
``browser.open`` with no URL, timing: profile copy (template into the world's
/tmp, chown), spawn (the world's exec of Chromium returns), DevTools port
written, first tab listed, window mapped. Prints the deskact cpu cgroup's
weight and the load average, so runs before and after a scheduling change compare.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path
from typing import Any

from browser import bench_world  # benchmarks/browser.py, beside this script
from deskact.reset_scripts import _x11
from deskact.runtime.config import Config
from deskact.runtime.tasks.steps import StepContext, run_reset
from deskact.runtime.world import cgroups
from deskact.runtime.world.display import Display
from deskact.runtime.world.world import World
from deskact.toolkits.browser import chromium, session

PHASES = ["profile copy", "spawn", "DevTools port", "first tab", "window mapped", "total"]


def timed(marks: dict[str, float], name: str, fn: Any) -> Any:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        finally:
            marks[name] = time.perf_counter()
    return wrapper


def one(display: str, config: Config, rows: dict[str, list[float]]) -> None:
    with bench_world(config, display, "deskact-bench-phases-") as (base, world):
        timed_open(display, config, rows, base, world)


def timed_open(display: str, config: Config, rows: dict[str, list[float]], base: Path, world: World) -> None:
    marks: dict[str, float] = {}
    originals = (session.ensure_profile, world.spawn, chromium._wait_port, _x11.wait_for_window)
    session.ensure_profile = timed(marks, "profile copy", session.ensure_profile)
    world.spawn = timed(marks, "spawn", world.spawn)  # type: ignore[method-assign]
    chromium._wait_port = timed(marks, "DevTools port", chromium._wait_port)
    _x11.wait_for_window = timed(marks, "first tab", _x11.wait_for_window)  # set below: its start
    try:
        ctx = StepContext(workspace=base / "ws", files=base, home=base / "ws", gold=base / "gold",
                          task_id="bench", world=world, display=display, config=config)
        wait_window = originals[3]

        def window(*args: Any, **kwargs: Any) -> Any:
            marks["first tab"] = time.perf_counter()
            found = wait_window(*args, **kwargs)
            marks["window mapped"] = time.perf_counter()
            return found

        _x11.wait_for_window = window
        start = time.perf_counter()
        run_reset("browser.open", {}, ctx)
        marks["total"] = time.perf_counter()
        last = start
        for name in PHASES[:-1]:
            rows[name].append(marks[name] - last)
            last = marks[name]
        rows["total"].append(marks["total"] - start)
    finally:
        session.ensure_profile, world.spawn, chromium._wait_port, _x11.wait_for_window = originals


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=6)
    args = parser.parse_args()
    config = Config()
    config.display.width, config.display.height = 1280, 800
    chromium.template_profile()
    rows: dict[str, list[float]] = {name: [] for name in PHASES}
    with Display(width=1280, height=800) as display:
        one(display.name, config, {name: [] for name in PHASES})  # warm-up
        for _ in range(args.repeat):
            one(display.name, config, rows)
    kind, parents = cgroups.layout()
    weight = "-"
    if kind == "v1":
        weight = (parents[2] / "cpu.shares").read_text().strip()
    print(f"load average {os.getloadavg()[0]:.1f}; deskact cpu weight {weight}")
    print("| phase | n | median ms | max ms |\n|---|---:|---:|---:|")
    for name, values in rows.items():
        print(f"| {name} | {len(values)} | {1000 * statistics.median(values):.0f} | {1000 * max(values):.0f} |")


if __name__ == "__main__":
    main()
