"""Visual tasks under load: do any fail on timing? (issue 26)

    .venv/bin/python benchmarks/gui_timing.py [--workers 32] [--runs 3] [--latency 1.0] [--suite os_gui]
        [--steps 10]

Runs the suite's references through a stand-in model that waits ``--latency`` seconds before each
reply (a remote model's latency), with ``--workers`` workers at once (each its own display and
worlds), ``--runs`` times (each reference takes one or two steps). Every task's reference passes when the box is
idle (``deskact validate``), so a task that fails here failed on timing: each is printed with its
reason. ``--steps N`` pads each episode to N steps: N-1 looking steps (a cell that lists the windows,
each with its screenshot) before the reference, then the exit, so the screens are captured and the
kernels kept busy as a longer episode would.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from deskact.runtime.agent.models import offline
from deskact.runtime.agent.models.base import Message, ModelReply
from deskact.runtime.config import Config
from deskact.runtime.run.runner import Run, RunOptions
from deskact.runtime.tasks.suites import SUITES_DIR
from deskact.runtime.tasks.task import Task


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, default=32)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--latency", type=float, default=1.0)
    ap.add_argument("--suite", default="os_gui")
    ap.add_argument("--steps", type=int, default=0, help="pad each episode to this many steps")
    args = ap.parse_args()
    original, original_start = offline.Reference.reply, offline.Reference.start_episode
    looked: dict[int, int] = {}  # id(model) -> looking steps sent this episode

    def start(self: offline.Reference, task: Task) -> None:
        looked[id(self)] = 0
        original_start(self, task)

    def slow(self: offline.Reference, system: str, messages: list[Message]) -> ModelReply:
        time.sleep(args.latency)
        if looked.get(id(self), 0) < args.steps - 1:
            looked[id(self)] = n = looked.get(id(self), 0) + 1
            # Each look differs: the episode stops a model that repeats its code.
            return ModelReply(text=offline.python_block(f"print({n}, windows.list())"))
        return original(self, system, messages)

    offline.Reference.reply = slow  # type: ignore[method-assign]
    offline.Reference.start_episode = start  # type: ignore[method-assign]
    config = Config()
    print("| run | tasks | failed on timing | wall s |\n|---|---:|---:|---:|")
    failures: list[str] = []
    for run in range(1, args.runs + 1):
        out = Path(tempfile.mkdtemp(prefix="bench-gui-timing-"))
        opts = RunOptions(paths=[str(SUITES_DIR / args.suite)], model="reference", out=out, workers=args.workers)
        start = time.monotonic()
        results = Run(config, opts).execute()
        wall = time.monotonic() - start
        failed = [r for r in results if r.reward != 1]
        steps = sorted(r.steps for r in results)
        print(f"steps per task: median {steps[len(steps) // 2]}, min {steps[0]}, max {steps[-1]}", flush=True)
        failures += [f"run {run}: {r.task_id}: {r.status}: {r.error or r.feedback}" for r in failed]
        print(f"| {run} | {len(results)} | {len(failed)} | {wall:.0f} |", flush=True)
    for line in failures:
        print(line)


if __name__ == "__main__":
    main()
