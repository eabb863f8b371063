"""xlsx.ranges (judges/xlsx/ranges.py, values read by judges/xlsx/_raw.py): ranges matched against
a gold sheet, single cells against fixed values; feedback names the cells. Verdicts against
OSWorld's compare_table: tests/runtime/importers/osworld_conformance/test_conformance_table.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest
from deskact.judges.xlsx.ranges import similarity
from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge


def _book(path: Path, rows: list[list[Any]]) -> None:
    wb = openpyxl.Workbook()
    wb.active.title = "S"
    for row in rows:
        wb.active.append(row)
    wb.save(path)


def j(ctx: StepContext, **params: object) -> Verdict:
    v = run_judge("xlsx.ranges", {"path": "out.xlsx", "sheet": "S", **params}, ctx)
    assert not v.error, v.feedback
    return v


def test_ranges_against_the_gold_sheet(ctx: StepContext) -> None:
    assert ctx.gold is not None
    _book(ctx.gold / "gold.xlsx", [["Main Road", 3]])
    _book(ctx.workspace / "out.xlsx", [["Main Rd", 3.0]])
    exact = {"range": ["A1:B1"], "type": "exact_match"}
    v = j(ctx, gold="gold.xlsx", ranges=[exact])
    assert not v.passed and "A1 is 'Main Rd' (gold: 'Main Road', exact match)" in v.feedback, v.feedback
    assert "B1" not in v.feedback  # 3 and 3.0 both read 3.0
    assert j(ctx, gold="gold.xlsx", ranges=[{**exact, "normalization": [["Rd", "Road"]]}]).passed
    assert j(ctx, gold="gold.xlsx", ranges=[{"range": ["A1"], "type": "fuzzy_match", "threshold": 85}]).passed


def test_cell_checks_and_sheet_positions(ctx: StepContext) -> None:
    _book(ctx.workspace / "out.xlsx", [["Total", 191.66666]])
    assert j(ctx, sheet=0, checks=[{"coordinate": "B1", "method": "approx:0.001", "ref": 191.6667}]).passed
    v = j(ctx, checks=[{"coordinate": "A1", "method": "eq", "ref": "Sum"}])
    assert not v.passed and "A1 is 'Total' (should be eq 'Sum')" in v.feedback, v.feedback
    v = j(ctx, sheet=3, checks=[])
    assert not v.passed and "no readable sheet 3" in v.feedback


def test_unknown_rule_keys_are_refused_when_the_task_loads(ctx: StepContext) -> None:
    from deskact.runtime.tasks.steps import lookup

    with pytest.raises(ValueError, match=r"unknown param `ranges\.0\.fuzzy`"):
        lookup("judge", "xlsx.ranges").validate(
            {"path": "a", "sheet": "S", "ranges": [{"range": ["A1"], "type": "exact_match", "fuzzy": 1}]})


@pytest.mark.parametrize(("a", "b", "ratio"), [("", "", 100.0), ("a", "", 0.0), ("12 Main Rd", "12 Main Road", 2000 / 22)])
def test_similarity_is_rapidfuzz_ratio(a: str, b: str, ratio: float) -> None:
    assert similarity(a, b) == pytest.approx(ratio)


def test_contains_in_order(ctx: StepContext) -> None:
    _book(ctx.workspace / "out.xlsx", [["Paris, France"], ["Rome"], [None]])
    params = {"path": "out.xlsx", "cells": "A1:A2", "expected": ["Paris", ["Roma", "Rome"]]}
    assert run_judge("xlsx.contains_in_order", params, ctx).passed
    v = run_judge("xlsx.contains_in_order", {**params, "cells": "A1:A3", "expected": ["Paris", "Rome", "Oslo"]}, ctx)
    assert not v.passed and "cell 3 of A1:A3 is None, which holds none of ['Oslo']" in v.feedback, v.feedback
