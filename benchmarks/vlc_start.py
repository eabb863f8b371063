"""How long apps.vlc takes to show VLC in a task's world: with no media and with vlc.media's clip.

    .venv/bin/python benchmarks/vlc_start.py [--repeat 3]

Resets built-in vlc tasks as a run does (worker, world, display) and times ``TaskEnv.reset``
(seeding vlcrc, starting VLC as the world's unprivileged account, waiting for its window to be
drawn and still; with the clip, writing it and playing it to its paused end). The vlcrc template
is made once per process (VLC's own --reset-config) and timed apart. Runs alternate, so both see
the same machine load.
"""

from __future__ import annotations

import argparse
import time

from app_resets import print_resets, time_resets
from deskact.reset_scripts.apps import vlc
from deskact.runtime.tasks.suites import SUITES_DIR
from deskact.runtime.tasks.task import load_tasks

TASKS = {"no media": "vlc-hide-cone", "3 s clip": "vlc-minimal-view"}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    tasks = {t.id: t for t in load_tasks([str(SUITES_DIR / "vlc")]).tasks}
    started = time.monotonic()
    vlc.vlcrc_template()
    template_s = time.monotonic() - started
    times = time_resets({mode: (lambda task_id=task_id: tasks[task_id]) for mode, task_id in TASKS.items()},
                        args.repeat)
    print(f"vlcrc template made once per process: {template_s:.1f} s")
    print_resets(times, "reset")


if __name__ == "__main__":
    main()
