"""Runner overhead and throughput on the `os` suite with the offline reference model.

Overhead = reset + kernel (getting a ready kernel and workspace) + judge + cleanup,
i.e. everything outside the model and the agent's own code. Measured twice:
- "with model latency": the reference model waits --latency seconds before each
  reply, like a real model; the warm pool refills meanwhile (the realistic case);
- "back to back": no model latency, so kernel start-up (CPU-bound) is on the
  critical path and shows up in the `kernel` phase.
Throughput: tasks per second with 1 and 2 workers, back to back, same run.

    .venv/bin/python benchmarks/runner.py [--latency 1.0] [--tasks 'os-*']
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from deskact.runtime.config import Config
from deskact.runtime.models import offline
from deskact.runtime.results import TaskResult
from deskact.runtime.runner import Run, RunOptions

SUITE = Path(__file__).resolve().parent.parent / "task_suites" / "os"


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def overhead(r: TaskResult) -> float:
    p = r.phases
    return p.reset + p.kernel + p.judge + p.cleanup


def run(workers: int, glob: str | None) -> tuple[list[TaskResult], float]:
    out = Path(tempfile.mkdtemp(prefix="bench-runner-"))
    opts = RunOptions(paths=[str(SUITE)], model="reference", out=out, workers=workers, tasks_glob=glob)
    start = time.monotonic()
    results = Run(Config(), opts).execute()
    return results, time.monotonic() - start


def report(name: str, results: list[TaskResult]) -> None:
    ms = [overhead(r) * 1000 for r in results]
    print(f"| {name} | {len(results)} | {statistics.median(ms):.0f} | {pct(ms, 0.95):.0f} | "
          + " | ".join(f"{statistics.median(getattr(r.phases, k) for r in results) * 1000:.0f}"
                       for k in ("reset", "kernel", "judge", "cleanup")) + " |")
    assert all(r.reward == 1 for r in results), [r.task_id for r in results if r.reward != 1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--latency", type=float, default=1.0, help="simulated model latency (s)")
    ap.add_argument("--tasks", default=None)
    args = ap.parse_args()

    original = offline.Reference.reply

    def slow_reply(self, system, messages):  # type: ignore[no-untyped-def]
        time.sleep(args.latency)
        return original(self, system, messages)

    print("| run | tasks | overhead p50 ms | p95 ms | reset p50 | kernel p50 | judge p50 | cleanup p50 |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    offline.Reference.reply = slow_reply  # type: ignore[method-assign]
    slow, _ = run(1, args.tasks)
    offline.Reference.reply = original  # type: ignore[method-assign]
    report(f"1 worker, model latency {args.latency:g} s", slow)
    one, t1 = run(1, args.tasks)
    report("1 worker, back to back", one)
    two, t2 = run(2, args.tasks)
    report("2 workers, back to back", two)
    print()
    print(f"throughput: 1 worker {len(one) / t1:.2f} tasks/s ({t1:.1f} s), "
          f"2 workers {len(two) / t2:.2f} tasks/s ({t2:.1f} s), ratio {t1 / t2:.2f}x")


if __name__ == "__main__":
    main()
