"""google.sheet_tabs and sheet_range on the emulator: a passing and a failing case each, with the
feedback asserted (sheet_format: see test_judge_google_drive.py)."""

from __future__ import annotations

from typing import Any

from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge, run_reset


def ok(name: str, params: dict[str, Any], g: StepContext) -> Verdict:
    v = run_judge(name, params, g)
    assert v.passed and not v.error, v.feedback
    return v


def bad(name: str, params: dict[str, Any], g: StepContext, *expected: str) -> Verdict:
    v = run_judge(name, params, g)
    assert not v.passed and not v.error, v.feedback
    for text in expected:
        assert text in v.feedback, v.feedback
    return v


def test_sheet_tabs(g: StepContext) -> None:
    run_reset("google.spreadsheet", {"title": "Inv", "sheets": {"2025": [["a"]], "Copy": [["a"]]}}, g)
    ok("google.sheet_tabs", {"spreadsheet": "Inv", "names": ["2025", "Copy"]}, g)
    bad("google.sheet_tabs", {"spreadsheet": "Inv", "names": ["2025"]}, g,
        "'Inv' should have the tabs ['2025'] but has ['2025', 'Copy']")


def test_sheet_range(g: StepContext) -> None:
    run_reset("google.spreadsheet", {"title": "Sales", "sheets": {"Q1": [["Region", "Amount"], ["North", 1200],
                                                                        ["South", "=B2/2"], ["", ""]]}}, g)
    ok("google.sheet_range", {"spreadsheet": "Sales", "range": "Q1!A1:B5",
                              "equals": [["Region", "Amount"], ["North", 1200.0], ["South", 600]]}, g)
    ok("google.sheet_range", {"spreadsheet": "Sales", "range": "Q1!A2:B3", "any_order": True,
                              "equals": [["South", "600"], ["North", 1200]]}, g)
    ok("google.sheet_range", {"spreadsheet": "Sales", "range": "Q1!B2", "formatted": True, "equals": [["1200"]]}, g)
    bad("google.sheet_range", {"spreadsheet": "Sales", "range": "Q1!A2:B2", "equals": [["North", 1300]]}, g,
        "'Sales'!Q1!A2:B2 should be [['North', 1300]] but it holds [['North', 1200]]")
    bad("google.sheet_range", {"spreadsheet": "Sales", "range": "Q2!A1", "equals": [["x"]]}, g,
        "range 'Q2!A1' cannot be read", "tabs: ['Q1']")
    bad("google.sheet_range", {"spreadsheet": "Sale", "range": "A1", "equals": [["x"]]}, g,
        "no spreadsheet titled 'Sale'", "'Sales'")
