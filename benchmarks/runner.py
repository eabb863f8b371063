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

    .venv/bin/python benchmarks/runner.py [--latency 1.0] [--repeat 5] [--tasks 'os-*']

Back to back, one run of the suite takes 2-4 s, so machine noise moves it a lot:
those runs are repeated (1 and 2 workers alternately) and medians reported.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from deskact.runtime.agent.models import offline
from deskact.runtime.config import Config
from deskact.runtime.run.results import TaskResult
from deskact.runtime.run.runner import Run, RunOptions

SUITE = Path(__file__).resolve().parent.parent / "task_suites" / "os"


@dataclass
class Measured:
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
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def overhead(r: TaskResult) -> float:
    p = r.phases
    return p.reset + p.kernel + p.judge + p.cleanup


def run(workers: int, glob: str | None, latency: float) -> Measured:
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
        measured = Measured(results, time.monotonic() - start, machine_cpu() - cpu)
    finally:
        offline.Reference.reply = original  # type: ignore[method-assign]
    failed = [r.task_id for r in results if r.reward != 1]
    assert not failed, f"reference solutions failed: {failed}"
    return measured


def row(name: str, runs: list[Measured]) -> str:
    """One table row: medians over the runs; overhead percentiles over all their tasks."""
    results = [r for m in runs for r in m.results]
    ms = [overhead(r) * 1000 for r in results]
    phases = " | ".join(
        f"{statistics.median(getattr(r.phases, k) for r in results) * 1000:.0f}"
        for k in ("reset", "kernel", "judge", "cleanup")
    )
    tput = statistics.median(m.throughput for m in runs)
    cpu = statistics.median(m.cpu / len(m.results) for m in runs) * 1000
    busy = statistics.median(m.cores_busy for m in runs)
    return (f"| {name} | {len(runs)} x {len(runs[0].results)} | {tput:.2f} | {cpu:.0f} | {busy:.2f} | "
            f"{statistics.median(ms):.0f} | {pct(ms, 0.95):.0f} | {phases} |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--latency", type=float, default=1.0, help="simulated model latency per reply (s)")
    ap.add_argument("--repeat", type=int, default=5, help="back-to-back runs per worker count (interleaved)")
    ap.add_argument("--tasks", default=None)
    args = ap.parse_args()

    slow = {w: [run(w, args.tasks, args.latency)] for w in (1, 2)}
    fast: dict[int, list[Measured]] = {1: [], 2: []}
    for _ in range(args.repeat):  # interleaved: both worker counts see the same machine load
        for w in (1, 2):
            fast[w].append(run(w, args.tasks, 0.0))
    print(f"{os.cpu_count()} cores, load average at the end {os.getloadavg()[0]:.2f}\n")
    print("| run | runs x tasks | tasks/s | machine CPU ms/task | cores busy | overhead p50 ms | p95 | "
          "reset p50 | kernel p50 | judge p50 | cleanup p50 |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for w in (1, 2):
        print(row(f"{w} worker{'s' if w > 1 else ''}, model latency {args.latency:g} s", slow[w]))
    for w in (1, 2):
        print(row(f"{w} worker{'s' if w > 1 else ''}, back to back", fast[w]))
    print()
    cores = os.cpu_count() or 1
    for runs, regime in ((slow, "with model latency"), (fast, "back to back")):
        one = statistics.median(m.throughput for m in runs[1])
        two = statistics.median(m.throughput for m in runs[2])
        busy = statistics.median(m.cores_busy for m in runs[1])
        each = ", ".join(f"{b.throughput / a.throughput:.2f}" for a, b in zip(runs[1], runs[2]))
        print(f"throughput {regime}: 2 workers / 1 worker = {two / one:.2f}x (medians; run by run: {each}; "
              f"ceiling on {cores} cores: {cores / busy:.2f}x, as 1 worker keeps {busy:.2f} cores busy)")


if __name__ == "__main__":
    main()
