"""xlsx.cells, xlsx.sheets and xlsx.formula: right workbooks pass, wrong cells are named."""

import shutil
from datetime import date, datetime
from pathlib import Path

import openpyxl
import pytest
from deskact.runtime.tasks.steps import StepContext, Verdict, lookup, run_judge, run_reset


def j(judge_name: str, ctx: StepContext, **params: object) -> Verdict:
    v = run_judge(judge_name, params, ctx)
    assert not v.error, v.feedback
    return v


@pytest.fixture
def book(ctx: StepContext) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Q1"
    ws.append(["Region", "Sales", "When"])
    ws.append(["North", 3.0, datetime(2024, 3, 1)])
    ws.append(["South", 7, None])
    wb.create_sheet("Totals")["B2"] = "ok"
    p = ctx.workspace / "s.xlsx"
    wb.save(p)
    return p


def test_xlsx_cells_pass_with_numeric_and_date_equivalence(ctx: StepContext, book: Path) -> None:
    v = j("xlsx.cells", ctx, path="s.xlsx", sheet="Q1",
          cells={"A2": "North", "B2": 3, "B3": "7", "C2": "2024-03-01", "C3": None, "Totals!B2": "ok"})
    assert v.passed, v.feedback
    assert j("xlsx.cells", ctx, path="s.xlsx", cells={"C2": date(2024, 3, 1)}).passed  # active sheet


def test_xlsx_cells_fail_lists_each_wrong_cell(ctx: StepContext, book: Path) -> None:
    v = j("xlsx.cells", ctx, path="s.xlsx", sheet="Q1", cells={"B2": 4, "A3": "south", "C3": 1, "A1": "Region"})
    assert v.feedback == "s.xlsx sheet 'Q1': B2 should be 4 but is 3; A3 should be 'south' but is 'South'; C3 should be 1 but is empty"
    v = j("xlsx.cells", ctx, path="s.xlsx", sheet="Q2", cells={"A1": 1})
    assert v.feedback == "s.xlsx has no sheet 'Q2' (sheets: ['Q1', 'Totals'])"
    v = j("xlsx.cells", ctx, path="none.xlsx", cells={"A1": 1})
    assert v.feedback == "none.xlsx should be a spreadsheet but does not exist"


def test_xlsx_cells_validation() -> None:
    spec = lookup("judge", "xlsx.cells")
    with pytest.raises(ValueError, match=r"not cell references: \['B', '1A'\]"):
        spec.validate({"path": "a.xlsx", "cells": {"B": 1, "1A": 2, "Sheet 2!C3": 3}})
    with pytest.raises(ValueError, match="missing param `cells` for `xlsx.cells`"):
        spec.validate({"path": "a.xlsx"})
    with pytest.raises(ValueError, match="unknown param `sheets` for `xlsx.cells`; did you mean `sheet`?"):
        spec.validate({"path": "a.xlsx", "cells": {"A1": 1}, "sheets": "x"})


@pytest.mark.slow  # LibreOffice recomputes the workbook: about 9 s
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")
def test_xlsx_formulas_without_cached_values_are_computed(ctx: StepContext) -> None:
    # openpyxl writes formulas without results: the judge must compute them, not see None.
    run_reset("office.xlsx", {"path": "f.xlsx", "sheets": {"S": [[2, 3, "=A1*B1", "=SUM(A1:C1)"]]}}, ctx)
    assert openpyxl.load_workbook(ctx.workspace / "f.xlsx", data_only=True)["S"]["C1"].value is None
    v = j("xlsx.cells", ctx, path="f.xlsx", cells={"C1": 6, "D1": 11.0})
    assert v.passed, v.feedback
    v = j("xlsx.cells", ctx, path="f.xlsx", cells={"C1": 7})
    assert v.feedback == "f.xlsx: C1 should be 7 but is 6"


def test_xlsx_sheets(ctx: StepContext, book: Path) -> None:
    assert j("xlsx.sheets", ctx, path="s.xlsx", names=["Q1", "Totals"]).passed
    assert j("xlsx.sheets", ctx, path="s.xlsx", names=["Totals", "Q1"], ordered=False).passed
    v = j("xlsx.sheets", ctx, path="s.xlsx", names=["Totals", "Q1"])
    assert v.feedback == "s.xlsx should have sheets ['Totals', 'Q1'] but has ['Q1', 'Totals']"




def test_xlsx_formula(ctx: StepContext) -> None:
    run_reset("office.xlsx", {"path": "f.xlsx", "sheets": {"S": [[2, 3, "=sum( $A$1:B1 )", 5]]}}, ctx)
    assert j("xlsx.formula", ctx, path="f.xlsx", cells={"C1": "=SUM(A1:B1)"}).passed
    assert j("xlsx.formula", ctx, path="f.xlsx", cells={"C1": "="}).passed
    v = j("xlsx.formula", ctx, path="f.xlsx", cells={"C1": "=A1+B1", "D1": "="})
    assert v.feedback == "f.xlsx: C1 should hold =A1+B1 but holds =sum( $A$1:B1 ); D1 should hold a formula but holds the value 5"
