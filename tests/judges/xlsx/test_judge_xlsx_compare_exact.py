"""xlsx.compare's exact_text, decimals, numeric_text and positions (the modes OSWorld's compare_table
sheet_data rules translate to; their verdicts against desktop-env are in
tests/runtime/importers/osworld_conformance/test_conformance_table.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge


def _book(path: Path, sheets: dict[str, list[list[Any]]]) -> None:
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(name)
        for row in rows:
            ws.append(row)
    wb.save(path)


def j(ctx: StepContext, **params: object) -> Verdict:
    v = run_judge("xlsx.compare", {"path": "out.xlsx", "gold": "gold.xlsx", **params}, ctx)
    assert not v.error, v.feedback
    return v


def test_exact_text_decimals_and_numeric_text(ctx: StepContext) -> None:
    assert ctx.gold is not None
    _book(ctx.gold / "gold.xlsx", {"S": [["Item", "Qty", "Price"], ["Tea", 3, 2.5]]})
    _book(ctx.workspace / "out.xlsx", {"S": [["Item", "Qty", "Price"], ["Tea ", "3", 2.50001]]})
    assert not j(ctx).passed  # "3" is text, 2.50001 is not 2.5
    v = j(ctx, exact_text=True, decimals=4, numeric_text=True)
    assert not v.passed and v.feedback.endswith("S!A2 is 'Tea ' (gold: 'Tea')"), v.feedback
    _book(ctx.workspace / "out.xlsx", {"S": [["Item", "Qty", "Price"], ["Tea", "3", 2.50001]]})
    assert j(ctx, exact_text=True, decimals=4, numeric_text=True).passed
    assert not j(ctx, exact_text=True, decimals=5, numeric_text=True).passed


def test_positions_compare_sheets_by_place_not_name(ctx: StepContext) -> None:
    assert ctx.gold is not None
    _book(ctx.gold / "gold.xlsx", {"Sheet1": [["a"]], "Notes": [["b"]]})
    _book(ctx.workspace / "out.xlsx", {"Data": [["a"]], "Other": [["c"]]})
    assert j(ctx, positions=[0], sheet_names=False).passed
    v = j(ctx, positions=[0, 1], sheet_names=False)
    assert not v.passed and "Other!A1 is 'c' (gold: 'b')" in v.feedback, v.feedback
    v = j(ctx, positions=[2], sheet_names=False)
    assert not v.passed and "no sheet at position 2" in v.feedback
