"""xlsx.compare's sheets picked by position: ``within`` (two sheets of the workbook against each
other) and ``names_at``/``gold_names_at`` (the sheet at a position has a name). Verdicts against
OSWorld's compare_table: tests/runtime/importers/osworld_conformance/test_conformance_table_sheets.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
from deskact.runtime.tasks.steps import StepContext, run_judge

ROWS = [["Resource", "Hours"], ["Printer", 3]]


def _book(path: Path, sheets: dict[str, list[list[Any]]]) -> None:
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(row)
    wb.save(path)


def test_a_sheet_against_its_copy(ctx: StepContext) -> None:
    assert ctx.gold is not None
    _book(ctx.gold / "gold.xlsx", {"A": ROWS, "B": ROWS})
    params = {"path": "out.xlsx", "gold": "gold.xlsx", "positions": [], "within": [[0, 1]], "sheet_names": False}
    _book(ctx.workspace / "out.xlsx", {"A": ROWS, "A (Backup)": ROWS})
    assert run_judge("xlsx.compare", params, ctx).passed
    _book(ctx.workspace / "out.xlsx", {"A": ROWS, "A (Backup)": [["Resource", "Hours"], ["Printer", 4]]})
    v = run_judge("xlsx.compare", params, ctx)
    assert not v.passed and "A!B2 is 3 (A (Backup): 4)" in v.feedback, v.feedback
    _book(ctx.workspace / "out.xlsx", {"A": ROWS})
    v = run_judge("xlsx.compare", params, ctx)
    assert not v.passed and "has no sheet 0 or 1" in v.feedback, v.feedback


def test_the_sheet_at_a_position_is_named(ctx: StepContext) -> None:
    assert ctx.gold is not None
    _book(ctx.gold / "gold.xlsx", {"Sheet1": ROWS})
    params = {"path": "out.xlsx", "gold": "gold.xlsx", "positions": [], "sheet_names": False,
              "names_at": {0: "Sheet1"}, "gold_names_at": {0: "Sheet1"}}
    _book(ctx.workspace / "out.xlsx", {"Sheet1": ROWS, "Notes": []})
    assert run_judge("xlsx.compare", params, ctx).passed
    _book(ctx.workspace / "out.xlsx", {"Notes": [], "Sheet1": ROWS})
    v = run_judge("xlsx.compare", params, ctx)
    assert not v.passed and "should have a sheet named 'Sheet1' at position 0" in v.feedback, v.feedback
    _book(ctx.workspace / "out.xlsx", {"Sheet1": ROWS})
    v = run_judge("xlsx.compare", {**params, "gold_names_at": {0: "Data"}}, ctx)
    assert not v.passed and "the gold workbook should have a sheet named 'Data'" in v.feedback, v.feedback
