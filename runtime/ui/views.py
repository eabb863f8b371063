"""Rich terminal views: the summary tables (run progress is in progress.py)."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from ..run.epochs import has_epochs, suite_epochs, task_epochs
from ..run.results import SummaryRow, TaskResult, summarize


def summary_table(rows: list[SummaryRow], title: str) -> Table:
    """One line per row on an 80-column terminal where it can: short headers, numbers never
    wrap, and no token column for offline models (which use none)."""
    tokens = any(r.input_tokens or r.output_tokens for r in rows)
    table = Table(title=title)
    cols = ["", "tasks", "success", "errors", "finish reasons", "steps", "time"] + (["tokens in/out"] if tokens else [])
    for col in cols:
        text = col in ("", "finish reasons")
        table.add_column(col, justify="left" if text else "right", no_wrap=not text)
    for row in rows:
        reasons = ", ".join(f"{k} {v}" for k, v in sorted(row.finish_reasons.items()))
        cells = [row.group, str(row.tasks), f"{row.passed}/{row.tasks} ({row.success_rate:.0%})",
                 str(row.errors + row.invalid), reasons, f"{row.mean_steps:.1f}", f"{row.mean_duration_s:.1f}s"]
        table.add_row(*cells, *([f"{row.input_tokens}/{row.output_tokens}"] if tokens else []))
    return table


def models_named(results: list[TaskResult]) -> str:
    """'model X' (or 'models X, Y' for a resumed run that mixed them), for titles."""
    models = sorted({r.model for r in results if r.model})
    return f"model{'s' if len(models) > 1 else ''} {', '.join(models) or 'n/a'}"


def print_summary(console: Console, results: list[TaskResult]) -> None:
    named = models_named(results)
    console.print(summary_table(summarize(results, "suite"), f"By suite ({named})"))
    if any(r.tags for r in results):
        console.print(summary_table(summarize(results, "tag"), f"By tag ({named})"))
    if has_epochs(results):
        print_epochs(console, results)


def print_epochs(console: Console, results: list[TaskResult]) -> None:
    """pass@k and spread per suite and per task (a run with --epochs above 1)."""
    tasks = task_epochs(results)
    suites = suite_epochs(tasks, results)
    table = Table(title="Epochs by suite (pass@1 = mean reward)")
    ks = list(suites[0].pass_at)
    for col in ("suite", "tasks", "epochs", *(f"pass@{k}" for k in ks), "success per epoch", "spread (sd)"):
        table.add_column(col, justify="left" if col in ("suite", "success per epoch") else "right")
    for s in suites:
        table.add_row(s.suite, str(s.tasks), str(s.n), *(f"{s.pass_at[k]:.1%}" for k in ks),
                      ", ".join(f"{r:.0%}" for r in s.epoch_rates), f"{s.spread:.3f}")
    console.print(table)
    # Only the tasks whose epochs disagree: the others passed or failed every time, as the suite table says.
    varied = [t for t in tasks if len(set(t.rewards)) > 1]
    same = len(tasks) - len(varied)
    note = f"{same} other task{'s' if same != 1 else ''} had the same outcome in every epoch"
    if not varied:
        console.print(f"Epochs by task: {note}.")
        return
    per_task = Table(title=f"Epochs by task whose epochs differ ({note})")
    for col in ("task", "passed", "rewards", "pass@k", "spread (sd)"):
        per_task.add_column(col, justify="right" if col in ("passed", "spread (sd)") else "left")
    for t in varied:
        per_task.add_row(t.task_id, f"{t.passed}/{t.n}", " ".join(map(str, t.rewards)),
                         ", ".join(f"@{k} {v:.3f}" for k, v in t.pass_at.items()), f"{t.spread:.3f}")
    console.print(per_task)
