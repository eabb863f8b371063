"""What the task's browser costs: browser.open ready in a fresh world, and the browser judges.

Usage: .venv/bin/python benchmarks/browser.py [--repeat N]

Each repetition makes a fresh world on one Xvfb display (not timed), then times:
(a) ``browser.open`` with no URL (a fresh profile copied from the template, Chromium
    started in the world, DevTools answering, its window mapped). Target: <= 1.5 s p50.
(b) ``browser.open`` of one page served in the world (``browser.serve``), loaded.
(c) a live judge (``browser.url``, over DevTools through the world's network namespace).
(d) a profile judge (``browser.bookmark``: closes Chromium, reads its Bookmarks file).
The template profile is made once per process before the first repetition (reported apart).

``--compare-weight`` instead times (a) alone, alternating the deskact CPU group's weight
between the old default (cpu.shares 1024: all worlds weigh as one host process) and
``cgroups.weigh_parent()`` (one ordinary process per world), in the same run. Other
processes that make worlds recount the weight too, so while the first mode's
``browser.open`` the old default is held by rewriting it every 5 ms.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from deskact.runtime.config import Config
from deskact.runtime.tasks.steps import StepContext, run_judge, run_reset
from deskact.runtime.world import cgroups
from deskact.runtime.world.display import Display
from deskact.runtime.world.world import World
from deskact.toolkits.browser import chromium

SUITE_FILES = Path(__file__).resolve().parent.parent / "task_suites" / "browser" / "files"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _cpu_weight_file() -> Path | None:
    kind, parents = cgroups.layout()
    if kind == "none":
        return None
    return parents[2] / "cpu.shares" if kind == "v1" else parents[0] / "cpu.weight"


def set_weight(mode: str) -> str:
    """"default": the kernel's default weight for the deskact group; "per-world": weigh_parent()."""
    path = _cpu_weight_file()
    if path is None:
        return "-"
    if mode == "default":
        path.write_text(str(cgroups.WEIGHT_PER_WORLD[cgroups.layout()[0]]))
    else:
        cgroups.weigh_parent()
    return path.read_text().strip()


@contextlib.contextmanager
def bench_world(config: Config, display: str, prefix: str) -> Iterator[tuple[Path, World]]:
    """A started world on ``display`` with ws/, private/ and gold/ in a fresh folder (not timed);
    closed and removed afterwards."""
    base = Path(tempfile.mkdtemp(prefix=prefix))
    for d in ("ws", "private", "gold"):
        (base / d).mkdir()
    world = World(config, workspace=base / "ws", private_dir=base / "private", display=display)
    os.chown(base / "private", world.uid, world.uid)
    world.start()
    try:
        yield base, world
    finally:
        world.close()
        shutil.rmtree(base, ignore_errors=True)


def one(display: str, config: Config, rows: dict[str, list[float]], serve: bool, weight: str = "") -> None:
    with bench_world(config, display, "deskact-bench-browser-") as (base, world):
        ctx = StepContext(workspace=base / "ws", files=SUITE_FILES, home=base / "ws", gold=base / "gold",
                          task_id="bench", world=world, display=display, config=config)
        if serve:
            start = time.perf_counter()
            run_reset("browser.serve", {"dir": "site"}, ctx)
            rows["reset browser.serve (http.server in the world)"].append(time.perf_counter() - start)
            start = time.perf_counter()
            run_reset("browser.open", {"urls": ["http://127.0.0.1:8000/docs.html"]}, ctx)
            rows["reset browser.open one served page, loaded"].append(time.perf_counter() - start)
        elif weight:
            # Other processes recount the weight whenever they make or remove a world: the old
            # default is held by rewriting it every 5 ms while browser.open runs.
            hold = threading.Event()

            def keep_default() -> None:
                while not hold.wait(0.005):
                    set_weight("default")

            holder = threading.Thread(target=keep_default, daemon=True)
            set_weight(weight)
            if weight == "default":
                holder.start()
            start = time.perf_counter()
            try:
                run_reset("browser.open", {}, ctx)
            finally:
                hold.set()
            rows[f"reset browser.open, deskact cpu weight {weight}"].append(time.perf_counter() - start)
            set_weight("per-world")
            return
        else:
            start = time.perf_counter()
            run_reset("browser.open", {}, ctx)
            rows["reset browser.open (ready: DevTools + window)"].append(time.perf_counter() - start)
        with world.frozen():
            start = time.perf_counter()
            verdict = run_judge("browser.url", {"contains": "/"}, ctx)
            rows["judge browser.url (live, DevTools)"].append(time.perf_counter() - start)
            assert not verdict.error, verdict.feedback
            start = time.perf_counter()
            verdict = run_judge("browser.bookmark", {"name": "x", "present": False}, ctx)
            rows["judge browser.bookmark (closes Chromium, reads the file)"].append(time.perf_counter() - start)
            assert verdict.passed, verdict.feedback


def start_to_devtools(display: str, template: bool) -> float:
    """Chromium on the host (no world) from a copied template profile or an empty one, until DevTools
    answers: what the template saves, apart from the world and the window."""
    import signal
    import subprocess

    profile = Path(tempfile.mkdtemp(prefix="deskact-bench-profile-"))
    try:
        start = time.perf_counter()
        if template:
            shutil.copytree(chromium.template_profile(), profile, dirs_exist_ok=True, symlinks=True)
        proc = subprocess.Popen(chromium.argv(str(profile), ["about:blank"], 1280, 800),
                                env={**os.environ, "DISPLAY": display, **chromium.env(str(profile))},
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        chromium._wait_port(profile, proc, 60)
        took = time.perf_counter() - start
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        return took
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--compare-weight", action="store_true",
                        help="browser.open only, alternating the deskact CPU group's weight (old default, per world)")
    args = parser.parse_args()
    config = Config()
    config.display.width, config.display.height = 1280, 800
    start = time.perf_counter()
    chromium.template_profile()
    print(f"template profile (once per process): {1000 * (time.perf_counter() - start):.0f} ms")
    rows: dict[str, list[float]] = {}
    for key in ("reset browser.open (ready: DevTools + window)", "reset browser.serve (http.server in the world)",
                "reset browser.open one served page, loaded", "judge browser.url (live, DevTools)",
                "judge browser.bookmark (closes Chromium, reads the file)"):
        rows[key] = []
    with Display(width=1280, height=800) as display:
        fresh, copied = [], []
        for _ in range(max(3, args.repeat // 2)):  # interleaved
            fresh.append(start_to_devtools(display.name, template=False))
            copied.append(start_to_devtools(display.name, template=True))
        print(f"host Chromium to DevTools: empty profile {1000 * statistics.median(fresh):.0f} ms p50, "
              f"template copy {1000 * statistics.median(copied):.0f} ms p50 "
              f"(ratio {statistics.median(fresh) / statistics.median(copied):.1f}x)")
        one(display.name, config, {k: [] for k in rows}, serve=False)  # warm-up (page cache, fonts)
        if args.compare_weight:
            rows = {f"reset browser.open, deskact cpu weight {m}": [] for m in ("default", "per-world")}
            for i in range(args.repeat):
                one(display.name, config, rows, serve=False, weight=("default", "per-world")[i % 2])
            set_weight("per-world")
        for i in range(0 if args.compare_weight else args.repeat):
            one(display.name, config, rows, serve=bool(i % 2))
    print(f"load average at the end: {' / '.join(f'{x:.1f}' for x in os.getloadavg())} (1 / 5 / 15 min)")
    print("| step | n | median ms | p95 ms |\n|---|---:|---:|---:|")
    for key, values in rows.items():
        if values:
            print(f"| {key} | {len(values)} | {1000 * statistics.median(values):.0f} | {1000 * pct(values, 0.95):.0f} |")


if __name__ == "__main__":
    main()
