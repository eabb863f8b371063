"""How long apps.gimp takes to show GIMP in a task's world, with the warm profile and without.

    .venv/bin/python benchmarks/gimp_start.py [--repeat 3]

Resets built-in gimp tasks as a run does (worker, world, display) and times ``TaskEnv.reset``
(copying the image, starting GIMP, waiting for its window to be drawn and still). "cold" starts
GIMP on an empty profile (what every task would pay without the template: plug-ins queried,
pluginrc written); "warm" seeds the template first. The template itself is made once per process
and timed apart. Runs alternate, so both see the same machine load.
"""

from __future__ import annotations

import argparse
import statistics
import time

from deskact.reset_scripts.apps import gimp
from deskact.runtime.config import Config
from deskact.runtime.run.task_env import TaskEnv
from deskact.runtime.run.worker import Worker
from deskact.runtime.tasks.suites import SUITES_DIR
from deskact.runtime.tasks.task import load_tasks

TASK = "gimp-flip-horizontal"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    task = next(t for t in load_tasks([str(SUITES_DIR / "gimp")]).tasks if t.id == TASK)
    started = time.monotonic()
    gimp.profile_template()
    template_s = time.monotonic() - started
    seed = gimp.seed_profile
    worker = Worker(Config(), 0)
    times: dict[str, list[float]] = {"cold": [], "warm": []}
    try:
        for _ in range(args.repeat):
            for mode in times:
                gimp.seed_profile = seed if mode == "warm" else (lambda ctx: None)  # type: ignore[assignment,return-value]
                env = TaskEnv(task, worker)
                try:
                    started = time.monotonic()
                    env.reset()
                    times[mode].append(time.monotonic() - started)
                finally:
                    env.cleanup()
    finally:
        worker.close()
    print(f"template made once per process: {template_s:.1f} s")
    print("| profile | resets | p50 s | max s |")
    print("|---|---:|---:|---:|")
    for mode, values in times.items():
        print(f"| {mode} | {len(values)} | {statistics.median(values):.1f} | {max(values):.1f} |")


if __name__ == "__main__":
    main()
