"""``deskact suites``: the built-in suites, their task counts and what they need."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from ..tasks.suites import SuiteInfo


def _counts(counts: dict[str, int], limit: int = 6) -> str:
    shown = [f"{name} {n}" for name, n in list(counts.items())[:limit]]
    more = len(counts) - limit
    return ", ".join(shown) + (f", +{more} more" if more > 0 else "")


def suites_table(infos: list[SuiteInfo]) -> Table:
    table = Table(title="built-in suites (run one by name: deskact run NAME)")
    for col in ("suite", "tasks", "visual", "toolkits", "tags"):
        table.add_column(col, justify="right" if col in ("tasks", "visual") else "left")
    for s in infos:
        tasks = str(s.tasks) + (f" (+{s.invalid} invalid)" if s.invalid else "")
        table.add_row(s.name, tasks, str(s.visual), _counts(s.toolkits) or "-", _counts(s.tags, 4) or "-")
    return table


def print_suites(console: Console, infos: list[SuiteInfo]) -> None:
    console.print(suites_table(infos))
    console.print(f"{sum(s.tasks for s in infos)} tasks in {len(infos)} suites", markup=False, highlight=False)
