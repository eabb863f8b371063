"""Rich terminal views: the run progress bar and the summary tables."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..run.results import SummaryRow, TaskResult, summarize


@contextmanager
def progress_bar(console: Console) -> Iterator[tuple[callable, callable]]:  # type: ignore[valid-type]
    """Yields (on_start(total), on_result(result)) callbacks driving a progress bar."""
    progress = Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("[green]{task.fields[passed]} passed[/] [red]{task.fields[failed]} failed[/] "
                   "[yellow]{task.fields[errors]} errors[/]"),
        TimeElapsedColumn(), console=console, transient=False,
    )
    counts = {"passed": 0, "failed": 0, "errors": 0}
    bar = progress.add_task("tasks", total=None, **counts)

    def on_start(total: int) -> None:
        progress.update(bar, total=total)

    def on_result(res: TaskResult) -> None:
        key = {"passed": "passed", "failed": "failed"}.get(res.status, "errors")
        counts[key] += 1
        progress.update(bar, advance=1, **counts)
        if res.status == "error":  # invalid tasks are listed before the bar starts
            progress.console.print(f"[yellow]{res.status}[/] {res.task_id}: {escape(str(res.error))}")

    with progress:
        yield on_start, on_result


def summary_table(rows: list[SummaryRow], title: str) -> Table:
    table = Table(title=title)
    for col in ("", "tasks", "success", "errors", "finish reasons", "mean steps", "mean time", "tokens in/out"):
        table.add_column(col, justify="right" if col not in ("", "finish reasons") else "left")
    for row in rows:
        reasons = ", ".join(f"{k} {v}" for k, v in sorted(row.finish_reasons.items()))
        table.add_row(
            row.group, str(row.tasks), f"{row.passed}/{row.tasks} ({row.success_rate:.0%})",
            str(row.errors + row.invalid), reasons, f"{row.mean_steps:.1f}", f"{row.mean_duration_s:.1f}s",
            f"{row.input_tokens}/{row.output_tokens}",
        )
    return table


def print_summary(console: Console, results: list[TaskResult]) -> None:
    console.print(summary_table(summarize(results, "suite"), "By suite"))
    if any(r.tags for r in results):
        console.print(summary_table(summarize(results, "tag"), "By tag"))
