"""xlsx.view: frozen panes against the gold sheet's, the zoom against a value; feedback says what
was found. Verdicts against OSWorld's compare_table freeze and zoom rules:
tests/runtime/importers/osworld_conformance/test_conformance_table.py."""

from __future__ import annotations

from pathlib import Path

import openpyxl
from deskact.runtime.tasks.steps import StepContext, run_judge


def _book(path: Path, freeze: str | None, zoom: int | None) -> None:
    wb = openpyxl.Workbook()
    wb.active.freeze_panes = freeze
    wb.active.sheet_view.zoomScale = zoom
    wb.save(path)


def test_freeze_and_zoom(ctx: StepContext) -> None:
    assert ctx.gold is not None
    _book(ctx.gold / "gold.xlsx", "B2", None)
    _book(ctx.workspace / "out.xlsx", "A2", 80)
    params = {"path": "out.xlsx", "gold": "gold.xlsx", "same_freeze": True,
              "zoom": {"coordinate": "", "method": "ge", "ref": 100}}
    v = run_judge("xlsx.view", params, ctx)
    assert not v.passed and "frozen panes start at A2 (gold: B2)" in v.feedback
    assert "its zoom is 80 % (should be ge 100)" in v.feedback, v.feedback
    _book(ctx.workspace / "out.xlsx", "B2", 100)
    assert run_judge("xlsx.view", params, ctx).passed
    v = run_judge("xlsx.view", {"path": "out.xlsx", "sheet": 4}, ctx)
    assert not v.passed and "has no sheet 4" in v.feedback


def test_rows_and_data_validation_rules(ctx: StepContext) -> None:
    from openpyxl.worksheet.datavalidation import DataValidation

    assert ctx.gold is not None
    for target, hidden in ((ctx.gold / "gold.xlsx", 3), (ctx.workspace / "out.xlsx", 2)):
        wb = openpyxl.Workbook()
        wb.active.row_dimensions[hidden].hidden = True
        dv = DataValidation(type="list", formula1='"Yes,No"')
        dv.add("A1:A9")
        wb.active.add_data_validation(dv)
        wb.save(target)
    v = run_judge("xlsx.view", {"path": "out.xlsx", "gold": "gold.xlsx", "same_rows": ["hidden"]}, ctx)
    assert not v.passed and "row 2 has {'hidden': True} (gold: None)" in v.feedback, v.feedback
    rules = [{"type": {"method": "eq", "ref": "list"}, "formula1": {"method": "str_set_eq", "ref": ["No", "Yes"]}}]
    assert run_judge("xlsx.validation_rules", {"path": "out.xlsx", "rules": rules}, ctx).passed
    v = run_judge("xlsx.validation_rules", {"path": "out.xlsx", "rules": [{"type": {"method": "eq", "ref": "whole"}}]}, ctx)
    assert not v.passed and "fits none of the expected ones" in v.feedback
