"""How long apps.thunderbird takes to show Thunderbird in a task's world, with the warm profile
template and without.

    .venv/bin/python benchmarks/thunderbird_start.py [--repeat 3]

Resets a built-in thunderbird task as a run does (worker, world, display) and times
``TaskEnv.reset`` (the profile copied and its Local Folders written, Thunderbird started, its
3-pane window showing the Inbox, maximized, drawn and still). "cold" copies a bare profile (the
same settled prefs.js and mail, never started: what every task would pay without the template);
"warm" copies apps.thunderbird's template (started once by Thunderbird on a private Xvfb and
quit). The template itself is made once per process and timed apart. Runs alternate, so both see
the same machine load.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from deskact.reset_scripts.apps import thunderbird
from deskact.runtime.config import Config
from deskact.runtime.run.task_env import TaskEnv
from deskact.runtime.run.worker import Worker
from deskact.runtime.tasks.suites import SUITES_DIR
from deskact.runtime.tasks.task import load_tasks

TASK = "thunderbird-flag-report"


def bare_profile() -> Path:
    """The settled prefs.js and an empty Local Folders store, never started."""
    profile = Path(tempfile.mkdtemp(prefix="deskact-thunderbird-bare-")) / "profile"
    (profile / thunderbird.LOCAL_FOLDERS).mkdir(parents=True)
    (profile / "prefs.js").write_text("".join(thunderbird.pref_line(k, v) for k, v in thunderbird.SETTLED.items()))
    return profile


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    task = next(t for t in load_tasks([str(SUITES_DIR / "thunderbird")]).tasks if t.id == TASK)
    started = time.monotonic()
    warm = thunderbird.profile_template()
    template_s = time.monotonic() - started
    bare = bare_profile()
    worker = Worker(Config(), 0)
    times: dict[str, list[float]] = {"cold": [], "warm": []}
    try:
        for _ in range(args.repeat):
            for mode in times:
                chosen = warm if mode == "warm" else bare
                thunderbird.profile_template = lambda chosen=chosen: chosen  # type: ignore[misc]
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
