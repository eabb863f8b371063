"""The run summary stays short: on an 80-column terminal every table row is one line, so the
README's first command (the `os` suite, 47 tasks, ~20 tags) prints a short log."""

from __future__ import annotations

from deskact.runtime.run.results import TaskResult
from deskact.runtime.tasks.task import load_tasks
from deskact.runtime.ui.views import print_summary
from rich.console import Console


def test_the_os_suite_summary_is_one_line_per_row_at_80_columns() -> None:
    tasks = load_tasks(["os"]).tasks
    results = [TaskResult(task_id=t.id, suite=t.suite, tags=t.tags, status="passed", reward=1, steps=1,
                          duration_s=2.5, finish_reason="done") for t in tasks]
    console = Console(width=80, record=True, color_system=None)
    print_summary(console, results)
    lines = console.export_text().splitlines()
    tags = {tag for t in tasks for tag in t.tags}
    # Per table: title, top border, header, separator, rows, bottom border.
    assert len(lines) == (5 + 1) + (5 + len(tags)), "\n".join(lines)
    assert max(len(line) for line in lines) <= 80
    assert "tokens" not in lines[2]  # offline models use no tokens: no column for them
