"""csv.rows: a CSV file's rows, compared like spreadsheet cells."""

from __future__ import annotations

import csv
from typing import Any

from ..runtime.tasks.helpers import clip
from ..runtime.tasks.steps import StepContext, Verdict, judge
from .xlsx.cells import cell_equal


def _row_equal(actual: list[str], expected: list[Any]) -> bool:
    return len(actual) == len(expected) and all(cell_equal(a, e) for a, e in zip(actual, expected))


@judge("csv.rows", one_of=("equals", "contains"))
def csv_rows(
    ctx: StepContext, path: str, equals: list[list[Any]] | None = None,
    contains: list[list[Any]] | None = None, delimiter: str = ",", ordered: bool = True,
) -> Verdict:
    """The CSV's rows (header included) are exactly ``equals`` (in order unless ``ordered:
    false``), or include every row of ``contains``. Cells compare like spreadsheet cells
    (trimmed; "3.0" equals 3)."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be a CSV file but does not exist")
    with p.open(newline="", encoding="utf-8-sig", errors="replace") as f:
        rows = [r for r in csv.reader(f, delimiter=delimiter) if any(c.strip() for c in r)]
    if contains is not None:
        missing = [e for e in contains if not any(_row_equal(r, e) for r in rows)]
        if missing:
            return Verdict.fail(f"{p.name} lacks rows {clip(missing, 160)}; it has {len(rows)} rows, first {clip(rows[:5], 200)}")
        return Verdict.ok(f"{p.name} has all {len(contains)} expected rows")
    assert equals is not None
    if len(rows) != len(equals):
        return Verdict.fail(f"{p.name} should have {len(equals)} rows but has {len(rows)}: {clip(rows[:6], 240)}")
    if ordered:
        for i, (r, e) in enumerate(zip(rows, equals)):
            if not _row_equal(r, e):
                return Verdict.fail(f"{p.name} row {i} should be {clip(e, 120)} but is {clip(r, 120)}")
    else:
        pool = list(rows)
        for e in equals:
            hit = next((i for i, r in enumerate(pool) if _row_equal(r, e)), None)
            if hit is None:
                return Verdict.fail(f"{p.name} lacks row {clip(e, 120)} (rows: {clip(rows[:6], 200)})")
            pool.pop(hit)
    return Verdict.ok(f"{p.name} has the expected {len(equals)} rows")
