"""google.* reset steps and judges through the per-worker service (emulator backend).

Run: .venv/bin/python benchmarks/google_steps.py [--n 200]
Prints median and p95 (ms) per operation: what a Google task's reset and judging cost.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from deskact.runtime.config import Config
from deskact.runtime.tasks.steps import StepContext, load_plugins, run_judge, run_reset
from deskact.toolkits.base import ServiceContext
from deskact.toolkits.google.service import google_service


def measure(n: int, fn: Callable[[], Any], before: Callable[[], Any] = lambda: None) -> tuple[float, float]:
    times = []
    for _ in range(n):
        before()
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=200)
    n = parser.parse_args().n
    load_plugins()
    tmp = Path(tempfile.mkdtemp())
    with google_service(ServiceContext(0, tmp / "g", Config())) as handle:
        ctx = StepContext(workspace=tmp, files=tmp, home=tmp, services={"google": handle.host}, config=Config())
        reset = lambda: run_reset("google.reset", {}, ctx)  # noqa: E731
        events = {"events": [{"summary": "Meeting {i}", "start": "tomorrow 09:00", "repeat": 10,
                              "attendees": ["a@example.com"]}]}
        mails = {"messages": [{"from": "a@example.com", "subject": "Hello {i}", "body": "x", "repeat": 10}]}

        def seeded() -> None:
            reset()
            run_reset("google.calendar_events", events, ctx)
            run_reset("google.emails", mails, ctx)
            run_reset("google.spreadsheet", {"title": "S", "sheets": {"A": [[1, 2], [3, "=A1+B2"]]}}, ctx)

        rows = [
            ("google.reset (after a seeded task)", measure(n, reset, seeded)),
            ("google.calendar_events (10 events)", measure(n // 4, lambda: run_reset("google.calendar_events", events, ctx), reset)),
            ("google.emails (10 messages)", measure(n // 4, lambda: run_reset("google.emails", mails, ctx), reset)),
            ("google.spreadsheet (2x2, one formula)", measure(n // 4, lambda: run_reset(
                "google.spreadsheet", {"title": "S", "sheets": {"A": [[1, 2], [3, "=A1+B2"]]}}, ctx), reset)),
        ]
        seeded()
        rows += [
            ("google.event_exists (10 events)", measure(n, lambda: run_judge(
                "google.event_exists", {"summary": "Meeting 3", "start": "tomorrow 11:00"}, ctx))),
            ("google.email_state (10 messages)", measure(n // 4, lambda: run_judge(
                "google.email_state", {"subject_contains": "Hello", "has_labels": ["INBOX"]}, ctx))),
            ("google.sheet_range", measure(n, lambda: run_judge(
                "google.sheet_range", {"spreadsheet": "S", "range": "A!A1:B2", "equals": [[1, 2], [3, 5]]}, ctx))),
        ]
    print(f"{'operation':42} {'median ms':>10} {'p95 ms':>8}")
    for name, (med, p95) in rows:
        print(f"{name:42} {med:10.2f} {p95:8.2f}")


if __name__ == "__main__":
    main()
