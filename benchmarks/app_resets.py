"""What the app start-up benchmarks share (gimp_start, vlc_start, thunderbird_start): reset times
of tasks on one worker, the modes alternating so that each sees the same machine load."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from deskact.runtime.config import Config
from deskact.runtime.run.task_env import TaskEnv
from deskact.runtime.run.worker import Worker
from deskact.runtime.tasks.task import Task


def time_resets(modes: dict[str, Callable[[], Task]], repeat: int) -> dict[str, list[float]]:
    """Seconds of ``TaskEnv.reset`` per mode, ``repeat`` times each; a mode's callable readies the
    mode (a patched profile template, say) and returns the task to reset."""
    worker = Worker(Config(), 0)
    times: dict[str, list[float]] = {mode: [] for mode in modes}
    try:
        for _ in range(repeat):
            for mode, ready in modes.items():
                env = TaskEnv(ready(), worker)
                try:
                    started = time.monotonic()
                    env.reset()
                    times[mode].append(time.monotonic() - started)
                finally:
                    env.cleanup()
    finally:
        worker.close()
    return times


def print_resets(times: dict[str, list[float]], what: str) -> None:
    """The table BENCHMARKS.md holds: one row per mode, median and max."""
    print(f"| {what} | resets | p50 s | max s |")
    print("|---|---:|---:|---:|")
    for mode, values in times.items():
        print(f"| {mode} | {len(values)} | {statistics.median(values):.1f} | {max(values):.1f} |")
