import openpyxl
import pytest
from deskact.runtime.tasks.steps import StepContext, Verdict, lookup, run_judge


def j(ctx: StepContext, **params: object) -> Verdict:
    v = run_judge("xlsx.numbers", params, ctx)
    assert not v.error, v.feedback
    return v


def _book(ctx: StepContext) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Data"
    ws.append(["qty", "price"])
    ws.append([3, "9.5"])
    ws.append([1, "=A3*2"])
    wb.create_sheet("Other")["A1"] = True
    wb.save(ctx.workspace / "b.xlsx")


def test_numbers_pass_and_fail_with_feedback(ctx: StepContext) -> None:
    _book(ctx)
    assert j(ctx, path="b.xlsx", cells=["A2", "A3", "B3"]).passed
    v = j(ctx, path="b.xlsx", cells=["A2", "B2", "C9", "Other!A1"])
    assert not v.passed
    assert v.feedback == ("b.xlsx: these cells should hold numbers: B2 holds str '9.5'; C9 holds empty;"
                          " Other!A1 holds bool True")


def test_numbers_missing_file_and_sheet(ctx: StepContext) -> None:
    v = j(ctx, path="none.xlsx", cells=["A1"])
    assert not v.passed and v.feedback == "none.xlsx should be a spreadsheet but does not exist"
    _book(ctx)
    v = j(ctx, path="b.xlsx", cells=["A1"], sheet="Nope")
    assert v.feedback == "b.xlsx has no sheet 'Nope' (sheets: ['Data', 'Other'])"


def test_numbers_rejects_bad_refs_at_load() -> None:
    with pytest.raises(ValueError, match="not cell references"):
        lookup("judge", "xlsx.numbers").validate({"path": "x.xlsx", "cells": ["A1", "2B"]})
