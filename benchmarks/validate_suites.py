"""Cost of `deskact validate` per built-in suite, and what its explore pass adds.

For each suite: wall time of validate with all three passes (reference, noop,
explore) and with ``explore=False``, both with 2 workers, then the explore
pass's per-task time (whole task and the one probe step) as medians and p95.

    .venv/bin/python benchmarks/validate_suites.py [--suites os,gmail]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from deskact.runtime.config import Config
from deskact.runtime.run.results import read_results
from deskact.runtime.run.validate import validate
from deskact.runtime.tasks.task import SUITES_DIR

ALL = sorted(p.name for p in SUITES_DIR.iterdir() if p.is_dir() and any(p.glob("*.yaml")))


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def timed(suite: str, explore: bool) -> tuple[float, Path, int, int]:
    out = Path(tempfile.mkdtemp(prefix=f"bench-validate-{suite}-"))
    config = Config()
    config.runner.workers = 2
    start = time.monotonic()
    problems, checked = validate(config, [str(SUITES_DIR / suite)], workers=2, out=out, explore=explore)
    return time.monotonic() - start, out, checked, len(problems)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--suites", default=",".join(ALL))
    suites = parser.parse_args().suites.split(",")
    print("| suite | tasks | problems | validate s | --no-explore s | explore task p50 / p95 s | probe step p50 / p95 s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    totals = [0.0, 0.0]
    for suite in suites:
        with_s, out, checked, problems = timed(suite, True)
        without_s, _, _, _ = timed(suite, False)
        totals[0] += with_s
        totals[1] += without_s
        results = read_results(out / "explore" / "results.jsonl")
        tasks = [r.duration_s for r in results]
        steps = [r.phases.agent for r in results]
        print(f"| {suite} | {checked} | {problems} | {with_s:.1f} | {without_s:.1f} | "
              f"{statistics.median(tasks):.2f} / {pct(tasks, 0.95):.2f} | "
              f"{statistics.median(steps):.2f} / {pct(steps, 0.95):.2f} |")
    print(f"\nall suites: validate {totals[0]:.1f} s, --no-explore {totals[1]:.1f} s "
          f"(explore adds {totals[0] - totals[1]:.1f} s, {100 * (totals[0] / totals[1] - 1):.0f} %)")


if __name__ == "__main__":
    main()
