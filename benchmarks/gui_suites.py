"""Speed of the GUI suites (os_gui, editor) with the reference model, as `deskact validate` runs them.

Per task: reset (apps started and ready), agent (the reference driving the GUI),
cleanup (apps killed) and the whole task, medians and p95 per suite; then wall
time for reference with 1 and 2 workers and for noop with 2 workers (validate =
reference + noop).

    .venv/bin/python benchmarks/gui_suites.py [--tasks 'editor-*']
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from deskact.runtime.config import Config
from deskact.runtime.run.results import TaskResult
from deskact.runtime.run.runner import Run, RunOptions

SUITES = [Path(__file__).resolve().parent.parent / "task_suites" / s for s in ("os_gui", "editor")]


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def run(model: str, workers: int, glob: str | None) -> tuple[list[TaskResult], float]:
    out = Path(tempfile.mkdtemp(prefix="bench-gui-"))
    opts = RunOptions(paths=[str(s) for s in SUITES], model=model, out=out, workers=workers, tasks_glob=glob)
    start = time.monotonic()
    results = Run(Config(), opts).execute()
    return results, time.monotonic() - start


def phase(r: TaskResult, name: str) -> float:
    return r.duration_s if name == "total" else getattr(r.phases, name)


def report(results: list[TaskResult]) -> None:
    print("| suite | tasks | reset p50 / p95 s | agent p50 / p95 s | cleanup p50 / p95 s | task p50 / p95 s |")
    print("|---|---:|---:|---:|---:|---:|")
    for suite in sorted({r.suite for r in results}):
        rows = [r for r in results if r.suite == suite]
        cells = []
        for name in ("reset", "agent", "cleanup", "total"):
            values = [phase(r, name) for r in rows]
            cells.append(f"{statistics.median(values):.2f} / {pct(values, 0.95):.2f}")
        print(f"| {suite} | {len(rows)} | " + " | ".join(cells) + " |")
    slowest = max(results, key=lambda r: r.phases.agent)
    print(f"\nslowest reference: {slowest.task_id} ({slowest.phases.agent:.2f} s)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tasks", default=None)
    args = ap.parse_args()
    one, t1 = run("reference", 1, args.tasks)
    report(one)
    two, t2 = run("reference", 2, args.tasks)
    noop, tn = run("noop", 2, args.tasks)
    failed = [r.task_id for r in one + two if r.reward != 1] + [r.task_id for r in noop if r.reward != 0]
    print(f"\nreference, 1 worker: {t1:.1f} s; reference, 2 workers: {t2:.1f} s ({t1 / t2:.2f}x); "
          f"noop, 2 workers: {tn:.1f} s; validate-equivalent with 2 workers: {t2 + tn:.1f} s")
    print(f"tasks with the wrong reward: {failed or 'none'}")


if __name__ == "__main__":
    main()
