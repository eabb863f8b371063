"""xlsx.styles: cell styles against the gold sheet's and against values, conditional formats it
evaluates and those it refuses, the used-area cap; feedback says what was found. Verdicts against
OSWorld's compare_table style and check_cell rules:
tests/runtime/importers/osworld_conformance/test_conformance_table_styles.py."""

from __future__ import annotations

import re
import zipfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import openpyxl
from deskact.runtime.config import Config
from deskact.runtime.tasks.steps import StepContext, run_judge
from openpyxl.formatting.rule import CellIsRule, FormulaRule
from openpyxl.styles import Font, PatternFill

GREEN = Font(color="FF00FF00")


def _book(path: Path, green: str | None = "B3", rule: Any = None, far: str | None = None) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    for row in (["Period", "Rate"], ["Q1", 1.5], ["Q2", 2.25]):
        ws.append(row)
    for col in ws.iter_cols():
        for cell in col:
            cell.font = Font(color="FF000000")
    if green:
        ws[green].font = GREEN
    if rule is not None:
        ws.conditional_formatting.add("B2:B3", rule)
    if far:
        ws[far].fill = PatternFill("solid", fgColor="FFFF0000")
    wb.save(path)


def _same(ctx: StepContext) -> Any:
    return run_judge("xlsx.styles", {"path": "out.xlsx", "gold": "gold.xlsx", "same": ["font_color"]}, ctx)


def test_style_against_the_gold_sheet(ctx: StepContext) -> None:
    assert ctx.gold is not None
    _book(ctx.gold / "gold.xlsx")
    _book(ctx.workspace / "out.xlsx")
    assert _same(ctx).passed
    _book(ctx.workspace / "out.xlsx", green="B2")
    v = _same(ctx)
    assert not v.passed and "B2 has 'FF00FF00' (gold: 'FF000000')" in v.feedback, v.feedback
    assert "B3 has 'FF000000' (gold: 'FF00FF00')" in v.feedback
    _book(ctx.workspace / "out.xlsx", far="D5")  # a fill out there grows the used area
    v = _same(ctx)
    assert not v.passed and "A4 has None (gold: outside the gold sheet's used area)" in v.feedback, v.feedback
    v = run_judge("xlsx.styles", {"path": "missing.xlsx", "gold": "gold.xlsx", "same": ["font_color"]}, ctx)
    assert not v.passed and "does not exist" in v.feedback


def test_conditional_formats(ctx: StepContext) -> None:
    assert ctx.gold is not None
    _book(ctx.gold / "gold.xlsx")
    _book(ctx.workspace / "out.xlsx", green=None, rule=CellIsRule(operator="greaterThan", formula=["2"], font=GREEN))
    assert _same(ctx).passed  # 2.25 > 2: B3 reads the rule's green
    _book(ctx.workspace / "out.xlsx", green=None, rule=CellIsRule(operator="greaterThan", formula=["3"], font=GREEN))
    assert not _same(ctx).passed
    _book(ctx.workspace / "out.xlsx", green=None, rule=FormulaRule(formula=["B2>2"], font=GREEN))
    v = _same(ctx)
    assert not v.passed and "conditional formatting this judge does not evaluate" in v.feedback, v.feedback
    _book(ctx.workspace / "out.xlsx", green=None, rule=CellIsRule(operator="greaterThan", formula=["$A$1"], font=GREEN))
    assert "needs a formula engine" in _same(ctx).feedback


def test_cell_checks(ctx: StepContext) -> None:
    _book(ctx.workspace / "out.xlsx")
    checks = [{"coordinate": "B3", "prop": "font_color", "method": "eq", "ref": "FF00FF00"},
              {"coordinate": "B3", "prop": "font_bold", "method": "eq", "ref": True}]
    v = run_judge("xlsx.styles", {"path": "out.xlsx", "checks": checks}, ctx)
    assert not v.passed and "B3 font_bold is False (should be eq True)" in v.feedback, v.feedback
    assert "font_color" not in v.feedback
    v = run_judge("xlsx.styles", {"path": "out.xlsx", "sheet": "Other", "checks": checks[:1]}, ctx)
    assert not v.passed and "the sheet does not exist" in v.feedback


def _small_dimension(path: Path) -> None:
    """The sheet's declared dimension rewritten to A1:B3, whatever cells it holds."""
    data = {i.filename: zipfile.ZipFile(path).read(i) for i in zipfile.ZipFile(path).infolist()}
    sheet = data["xl/worksheets/sheet1.xml"].decode()
    data["xl/worksheets/sheet1.xml"] = re.sub(r'<dimension ref="[^"]*"', '<dimension ref="A1:B3"', sheet).encode()
    with zipfile.ZipFile(path, "w") as out:
        for name, body in data.items():
            out.writestr(name, body)


def test_a_used_area_over_the_cell_limit_is_not_compared(ctx: StepContext) -> None:
    """The declared dimension is checked before parsing; cells past it still count here."""
    assert ctx.gold is not None
    _book(ctx.gold / "gold.xlsx")
    _book(ctx.workspace / "out.xlsx", far="Z400")  # 26 x 400 cells
    _small_dimension(ctx.workspace / "out.xlsx")
    config = Config()
    config.limits.sheet_cells = 5000
    v = _same(replace(ctx, config=config))
    assert not v.passed and "more than limits.sheet_cells = 5000" in v.feedback, v.feedback
