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
import time
from collections.abc import Callable

from app_resets import print_resets, time_resets
from deskact.reset_scripts.apps import gimp
from deskact.runtime.tasks.suites import SUITES_DIR
from deskact.runtime.tasks.task import Task, load_tasks

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

    def mode(warm: bool) -> Callable[[], Task]:
        def ready() -> Task:
            gimp.seed_profile = seed if warm else (lambda ctx: None)  # type: ignore[assignment,return-value]
            return task
        return ready

    times = time_resets({"cold": mode(False), "warm": mode(True)}, args.repeat)
    print(f"template made once per process: {template_s:.1f} s")
    print_resets(times, "profile")


if __name__ == "__main__":
    main()
