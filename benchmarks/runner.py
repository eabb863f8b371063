"""Runner overhead and throughput on the `os` suite with the offline reference model.

Overhead = reset + kernel (getting a ready kernel and workspace) + judge + cleanup,
i.e. everything outside the model and the agent's own code. Throughput = tasks
per second with 1 and 2 workers. Both are measured in two regimes, all in one run:
- "model latency": the reference model waits --latency seconds before each
  reply, like a real model; the warm pool refills meanwhile;
- "back to back": no model latency, so every task is pure CPU work (kernel
  start, the solution's shell commands, judges) and the machine's cores are
  the limit.
For each run it also prints the machine's CPU time per task and how many
cores were busy on average (all processes, from /proc/stat), which bounds
what a second worker can add: on C cores, a run whose single worker already
keeps B cores busy can speed up by at most C / B.

    .venv/bin/python benchmarks/runner.py [--latency 1.0] [--tasks 'os-*']
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from deskact.runtime.config import Config
from deskact.runtime.models import offline
from deskact.runtime.results import TaskResult
from deskact.runtime.runner import Run, RunOptions

SUITE = Path(__file__).resolve().parent.parent / "task_suites" / "os"


@dataclass
class Measured:
    name: str
    results: list[TaskResult]
    wall: float
    cpu: float
    """CPU seconds used by the whole machine during the run."""

    @property
    def throughput(self) -> float:
        return len(self.results) / self.wall

    @property
    def cores_busy(self) -> float:
        return self.cpu / self.wall


def machine_cpu() -> float:
    """CPU seconds the whole machine has spent busy (not idle, not waiting for I/O) since boot."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def overhead(r: TaskResult) -> float:
    p = r.phases
    return p.reset + p.kernel + p.judge + p.cleanup


def run(name: str, workers: int, glob: str | None, latency: float) -> Measured:
    original = offline.Reference.reply

    def slow_reply(self, system, messages):  # type: ignore[no-untyped-def]
        time.sleep(latency)
        return original(self, system, messages)

    if latency:
        offline.Reference.reply = slow_reply  # type: ignore[method-assign]
    try:
        out = Path(tempfile.mkdtemp(prefix="bench-runner-"))
        opts = RunOptions(paths=[str(SUITE)], model="reference", out=out, workers=workers, tasks_glob=glob)
        cpu, start = machine_cpu(), time.monotonic()
        results = Run(Config(), opts).execute()
        measured = Measured(name, results, time.monotonic() - start, machine_cpu() - cpu)
    finally:
        offline.Reference.reply = original  # type: ignore[method-assign]
    failed = [r.task_id for r in results if r.reward != 1]
    assert not failed, f"reference solutions failed: {failed}"
    return measured


def row(m: Measured) -> str:
    ms = [overhead(r) * 1000 for r in m.results]
    phases = " | ".join(
        f"{statistics.median(getattr(r.phases, k) for r in m.results) * 1000:.0f}"
        for k in ("reset", "kernel", "judge", "cleanup")
    )
    return (f"| {m.name} | {len(m.results)} | {m.throughput:.2f} | {m.cpu / len(m.results) * 1000:.0f} | "
            f"{m.cores_busy:.2f} | {statistics.median(ms):.0f} | {pct(ms, 0.95):.0f} | {phases} |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--latency", type=float, default=1.0, help="simulated model latency per reply (s)")
    ap.add_argument("--tasks", default=None)
    args = ap.parse_args()

    runs = [
        run(f"1 worker, model latency {args.latency:g} s", 1, args.tasks, args.latency),
        run(f"2 workers, model latency {args.latency:g} s", 2, args.tasks, args.latency),
        run("1 worker, back to back", 1, args.tasks, 0.0),
        run("2 workers, back to back", 2, args.tasks, 0.0),
    ]
    print(f"{os.cpu_count()} cores, load average at the end {os.getloadavg()[0]:.2f}\n")
    print("| run | tasks | tasks/s | machine CPU ms/task | cores busy | overhead p50 ms | p95 | "
          "reset p50 | kernel p50 | judge p50 | cleanup p50 |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for m in runs:
        print(row(m))
    print()
    cores = os.cpu_count() or 1
    for one, two, regime in ((runs[0], runs[1], "with model latency"), (runs[2], runs[3], "back to back")):
        print(f"throughput {regime}: 2 workers / 1 worker = {two.throughput / one.throughput:.2f}x "
              f"(ceiling on {cores} cores: {cores / one.cores_busy:.2f}x, as 1 worker keeps "
              f"{one.cores_busy:.2f} cores busy)")


if __name__ == "__main__":
    main()
