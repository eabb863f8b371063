"""xlsx.compare against a gold workbook: right files pass, near misses fail naming the cell."""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest
from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge


def j(ctx: StepContext, **params: object) -> Verdict:
    v = run_judge("xlsx.compare", {"path": "out.xlsx", "gold": "gold.xlsx", **params}, ctx)
    assert not v.error, v.feedback
    return v


def _book(path: Path, rows: list[list[object]], title: str = "Sales", fmt: str | None = None,
          extra_sheet: bool = False) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = title
    for row in rows:
        ws.append(row)
    if fmt:
        ws["B2"].number_format = fmt
    if extra_sheet:
        wb.create_sheet("Notes")
    wb.save(path)


ROWS = [["Item", "Price"], ["Tea", 3.5], ["Cake", 2], ["Total", 5.5]]


@pytest.fixture
def gold(ctx: StepContext) -> Path:
    assert ctx.gold is not None
    _book(ctx.gold / "gold.xlsx", ROWS, fmt="0.00")
    return ctx.gold / "gold.xlsx"


def test_same_values_pass(ctx: StepContext, gold: Path) -> None:
    _book(ctx.workspace / "out.xlsx", ROWS, fmt="0.00")
    v = j(ctx)
    assert v.passed, v.feedback
    assert j(ctx, number_formats=True).passed


def test_wrong_cell_and_junk_outside_the_gold_area_fail(ctx: StepContext, gold: Path) -> None:
    _book(ctx.workspace / "out.xlsx", [["Item", "Price"], ["Tea", 3.5], ["Cake", 2.5], ["Total", 5.5]])
    v = j(ctx)
    assert not v.passed and "Sales!B3 is 2.5 (gold: 2)" in v.feedback
    assert j(ctx, tolerance=0.6).passed  # within the tolerance
    _book(ctx.workspace / "out.xlsx", [*ROWS, [None, None, "junk"]])
    v = j(ctx)
    assert not v.passed and "Sales!C5 is 'junk' (gold: empty)" in v.feedback
    assert j(ctx, cells="A1:B4").passed  # only the range is compared


def test_sheet_names_formats_and_formulas(ctx: StepContext, gold: Path) -> None:
    _book(ctx.workspace / "out.xlsx", ROWS, title="Sheet1")
    v = j(ctx)
    assert not v.passed and "has sheets ['Sheet1']" in v.feedback
    _book(ctx.workspace / "out.xlsx", ROWS, extra_sheet=True)
    assert not j(ctx).passed
    assert j(ctx, sheets=["Sales"]).passed
    _book(ctx.workspace / "out.xlsx", ROWS, fmt="0%")
    v = j(ctx, number_formats=True)
    assert not v.passed and "B2 has number format '0%' (gold: '0.00')" in v.feedback


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_formulas_without_cached_values_are_computed(ctx: StepContext, gold: Path) -> None:
    rows = [["Item", "Price"], ["Tea", 3.5], ["Cake", 2], ["Total", "=SUM(B2:B3)"]]
    _book(ctx.workspace / "out.xlsx", rows, fmt="0.00")  # openpyxl: a formula, no cached value
    v = j(ctx)
    assert v.passed, v.feedback
    v = j(ctx, formulas=True)  # the gold holds a typed 5.5, not a formula: values decide
    assert v.passed, v.feedback
    _book(ctx.gold / "gold.xlsx", rows)
    _book(ctx.workspace / "out.xlsx", ROWS)  # right value typed in instead of the formula
    v = j(ctx, formulas=True)
    assert not v.passed and "B4 holds 5.5 (gold formula: =SUM(B2:B3))" in v.feedback
    _book(ctx.workspace / "out.xlsx", [*rows[:3], ["Total", "=SUM(B2:B2)"]])
    v = j(ctx)
    assert not v.passed and "B4 is 3.5 (gold: 5.5)" in v.feedback


def test_text_stays_text(ctx: StepContext) -> None:
    """A zero-padded code typed as a number, or padded differently, is a near miss, not a match."""
    assert ctx.gold is not None
    _book(ctx.gold / "gold.xlsx", [["Code"], ["0000123"], [7]])
    _book(ctx.workspace / "out.xlsx", [["Code"], ["0000123"], [7.0]])
    assert j(ctx).passed
    _book(ctx.workspace / "out.xlsx", [["Code"], [123], [7]])
    v = j(ctx)
    assert not v.passed and "A2 is 123 (gold: '0000123')" in v.feedback, v.feedback
    _book(ctx.workspace / "out.xlsx", [["Code"], ["000123"], [7]])
    assert not j(ctx).passed
    _book(ctx.workspace / "out.xlsx", [["Code"], ["0000123"], ["7"]])
    assert not j(ctx).passed
