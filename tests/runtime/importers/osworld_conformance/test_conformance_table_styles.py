"""OSWorld's compare_table (desktop-env) and deskact's xlsx.styles agree on right and near-miss
workbooks for the ``style`` rule and check_cell's style props (bgcolor, font_bold, font_color)."""

from __future__ import annotations

from collections.abc import Callable
from copy import copy
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.formatting.rule import CellIsRule, FormulaRule, Rule
from openpyxl.styles import Color, Font, PatternFill
from openpyxl.styles.differential import DifferentialStyle

pytestmark = pytest.mark.conformance

RESULT = "/home/user/PeriodRate.xlsx"
GOLD_URL = "https://example.org/gold/PeriodRate_gt.xlsx"
ROWS = [["Period", "Rate (%)"], ["Q1", 1.5], ["Q2", 2.25], ["Q3", 1.75]]
GREEN = Font(color="FF00FF00")
RED = PatternFill("solid", fgColor="FFFF0000")
Edit = Callable[[Any], None]


def _book(path: Path, edit: Edit | None = None, first: str = "Sheet1") -> Path:
    """Sheet1 (ROWS, the highest rate B3 in green font, the header filled red) and a Notes sheet."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = first
    for row in ROWS:
        ws.append(row)
    ws["B3"].font = GREEN
    ws["A1"].fill = RED
    wb.create_sheet("Notes").append(["kept"])
    if edit is not None:
        edit(wb)
    wb.save(path)
    return path


def _set(coordinate: str, **attrs: Any) -> Edit:
    def edit(wb: Any) -> None:
        for name, value in attrs.items():
            setattr(wb["Sheet1"][coordinate], name, value)
    return edit


def _swap(wb: Any) -> None:  # the styled sheet moved second: position 0 is now the plain one
    wb.move_sheet("Notes", offset=-1)


def _cond(*rules: Any, cells: str = "B2:B4") -> Edit:
    """The green font by conditional formatting (``rules`` on ``cells``) instead of a direct font."""
    def edit(wb: Any) -> None:
        wb["Sheet1"]["B3"].font = copy(wb["Sheet1"]["B2"].font)  # the workbook's default font (a theme colour)
        for rule in rules:
            wb["Sheet1"].conditional_formatting.add(cells, rule)
    return edit


def _over(limit: str, font: Font = GREEN) -> Any:
    return CellIsRule(operator="greaterThan", formula=[limit], font=font)


def _top(font: Font = GREEN) -> Any:  # Calc's "top 1 element": a rule type desktop-env has no branch for
    return Rule(type="top10", rank=1, dxf=DifferentialStyle(font=font))


def _red_header(wb: Any, fill: PatternFill) -> None:  # A1's red by a rule on the text "Period"
    wb["Sheet1"]["A1"].fill = PatternFill()
    wb["Sheet1"].conditional_formatting.add("A1:A4", CellIsRule(operator="equal", formula=['"Period"'], fill=fill))


STYLE = [{"type": "style", "sheet_idx0": 0, "sheet_idx1": "EI0", "props": ["font_color"]}]
FILL = [{"type": "style", "sheet_idx0": 0, "sheet_idx1": "EI0", "props": ["bgcolor"]}]
BOTH = [{"type": "sheet_data", "sheet_idx0": 0, "sheet_idx1": "EI0"},
        {"type": "style", "sheet_idx0": 0, "sheet_idx1": "EI0", "props": ["font_color", "bgcolor", "font_bold"]}]

STYLE_CASES = [
    (STYLE, None, True),
    (STYLE, _set("B3", font=Font(color="FF00FE00")), False),  # a wrong colour
    (STYLE, _set("B3", font=Font(color="FF000000")), False),  # the colour missing (black)
    (STYLE, _set("B4", font=GREEN), False),  # the wrong cell highlighted
    (STYLE, _set("D9", font=GREEN), False),  # a styled empty cell is written, so the used area grows
    (STYLE, _set("D9", fill=RED), False),  # a fill reaches D9: the used area grows
    (STYLE, _set("A1", fill=PatternFill("solid", fgColor="FF00FF00")), True),  # fills are not font_color
    (STYLE, _set("A2", font=Font(color="FF00FF00", bold=True)), False),
    (STYLE, _set("B2", font=Font(color=Color(theme=4))), True),  # any theme colour reads as openpyxl's message
    (STYLE, _set("B2", font=Font(bold=True)), False),  # a value in a font without colour: desktop-env raises
    (STYLE, _swap, False),  # the other sheet
    (FILL, None, True),
    (FILL, _set("A1", fill=PatternFill("solid", fgColor="FFFE0000")), False),
    (FILL, _set("A1", fill=PatternFill()), False),  # the fill missing
    (FILL, _set("A1", fill=PatternFill("solid", bgColor="FFFF0000")), False),  # bgcolor reads the fg colour
    (FILL, _set("A2", fill=RED), False),
    (FILL, _set("B3", font=Font(color="FF0000FF")), True),  # fonts are not bgcolor
    (FILL, lambda wb: wb["Sheet1"]["A1"].__setattr__("value", None), True),  # fills are read on empty cells too
    (BOTH, None, True),
    (BOTH, _set("B3", font=Font(color="FF00FF00", bold=True)), False),
    (BOTH, _set("B3", value=2.5), False),
    # Conditional formatting that does not give B3 the green font fails both.
    # Conditional formatting desktop-env evaluates without a formula engine's help: literal cellIs.
    (STYLE, _cond(_over("2")), True),
    (STYLE, _cond(_over("5")), False),
    (STYLE, _cond(_over("2.2")), True),
    (STYLE, _cond(CellIsRule(operator="between", formula=["2.1", "2.3"], font=GREEN)), True),
    (STYLE, _cond(CellIsRule(operator="notBetween", formula=["2.1", "2.3"], font=GREEN)), False),
    (STYLE, _cond(CellIsRule(operator="equal", formula=["2.25"], font=GREEN)), True),
    (STYLE, _cond(_over("2"), cells="A2:B4"), True),  # text against a number never matches
    (STYLE, _cond(_over("2", Font(color="FF00FE00"))), False),  # the rule's colour is wrong
    (STYLE, _cond(CellIsRule(operator="greaterThan", formula=["2"], fill=RED)), False),  # no font: desktop-env raises
    (STYLE, _cond(_top()), False),  # no branch, no earlier test: nothing matches
    (STYLE, _cond(_over("100"), _top()), False),  # the top rule reuses "> 100": nothing matches
    (STYLE, _cond(_over("2"), _top(Font(color="FF000000"))), False),  # it reuses "> 2": B3 turns black
    (STYLE, _cond(_over("2"), _over("100", Font(color="FF000000"))), True),
    (FILL, lambda wb: _red_header(wb, PatternFill(bgColor="FFFF0000")), True),  # a dxf fill reads its bgColor
    (FILL, lambda wb: _red_header(wb, PatternFill("solid", fgColor="FFFF0000")), False),
]


def _run(desktop_env: Any, deskact: Any, rules: list[dict[str, Any]], edit: Edit | None,
         gold_edit: Edit | None = None) -> tuple[bool, bool]:
    gold = _book(deskact.ctx.gold.parent / "expected.xlsx", gold_edit)
    result = _book(deskact.home_file(RESULT), edit)
    evaluator = {"func": "compare_table", "result": {"type": "vm_file", "path": RESULT, "dest": "PeriodRate.xlsx"},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "gold.xlsx"}, "options": {"rules": rules}}
    theirs = desktop_env.passes("table", "compare_table", str(result), str(gold), rules=rules)
    return deskact.passes(evaluator, {GOLD_URL: gold}), theirs


@pytest.mark.parametrize(("rules", "edit", "verdict"), STYLE_CASES)
def test_compare_table_style(desktop_env: Any, deskact: Any, rules: list[dict[str, Any]], edit: Edit | None,
                             verdict: bool) -> None:
    ours, theirs = _run(desktop_env, deskact, rules, edit)
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


def _far(wb: Any) -> None:  # a value far below the data, in its plain font
    wb["Sheet1"]["C56"] = 3


@pytest.mark.parametrize(("cells", "verdict"), [("C1:C100", True), ("C50:C100", False)])
def test_conditional_formatting_stops_after_fifty_empty_cells(desktop_env: Any, deskact: Any, cells: str,
                                                               verdict: bool) -> None:
    """desktop-env stops a rule's range at its first empty cell once 50 have been seen: C56 is past
    55 empty cells of C1:C100 (not formatted) but only 6 of C50:C100 (turned green)."""
    def edit(wb: Any) -> None:
        _far(wb)
        wb["Sheet1"].conditional_formatting.add(cells, _over("2"))
    ours, theirs = _run(desktop_env, deskact, STYLE, edit, _far)
    assert ours == theirs and ours is verdict, deskact.feedback


def test_formula_conditional_formatting_is_the_stricter_divergence(desktop_env: Any, deskact: Any) -> None:
    """desktop-env evaluates an expression rule with the formulas library (here ``B2>2`` gives B3
    the green font) and passes; xlsx.styles does not evaluate it and fails, saying why: stricter,
    never looser."""
    ours, theirs = _run(desktop_env, deskact, STYLE, _cond(FormulaRule(formula=["B2>2"], font=GREEN)))
    assert theirs and not ours
    assert "conditional formatting" in deskact.feedback


BLUE = PatternFill("solid", fgColor="FF0000FF")
TITLE = {"bgcolor": {"method": "eq", "ref": "FF0000FF"}, "font_color": {"method": "eq", "ref": "FFFFFFFF"},
         "font_bold": {"method": "eq", "ref": True}, "value": {"method": "eq", "ref": "Demographic Profile"}}


def _title(wb: Any, font: Font | None = None, fill: PatternFill | None = None, value: str = "Demographic Profile",
           sheet: str = "Sheet2") -> None:
    ws = wb.create_sheet(sheet)
    ws["A1"] = value
    ws.merge_cells("A1:C1")
    ws["A1"].font = font if font is not None else Font(bold=True, color="FFFFFFFF")
    ws["A1"].fill = fill if fill is not None else BLUE


CELL_CASES = [
    ({}, True),
    ({"fill": PatternFill("solid", fgColor="FF0000FE")}, False),  # a wrong colour
    ({"fill": PatternFill("solid", fgColor="000000FF")}, False),  # the same blue, another alpha
    ({"fill": PatternFill()}, False),  # no fill
    ({"font": Font(color="FFFFFFFF")}, False),  # bold missing
    ({"font": Font(bold=True, color="FF000000")}, False),  # black text
    ({"font": Font(bold=True)}, False),  # no font colour: desktop-env reads None
    ({"value": "Demographic profile"}, False),
    ({"sheet": "Sheet3"}, False),  # the other sheet
]


@pytest.mark.parametrize(("title", "verdict"), CELL_CASES)
def test_compare_table_check_cell_styles(desktop_env: Any, deskact: Any, title: dict[str, Any], verdict: bool) -> None:
    rules = [{"type": "check_cell", "sheet_idx": "RNSheet2", "coordinate": "A1", "props": TITLE}]
    result = _book(deskact.home_file(RESULT), lambda wb: _title(wb, **title))
    evaluator = {"func": "compare_table", "result": {"type": "vm_file", "path": RESULT}, "options": {"rules": rules}}
    theirs = desktop_env.passes("table", "compare_table", str(result), None, rules=rules)
    ours = deskact.passes(evaluator)
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


@pytest.mark.parametrize(("props", "verdict"), [
    ({"font_bold": {"method": "eq", "ref": True}}, True),
    ({"font_bold": {"method": "eq", "ref": False}}, False),
    ({"bgcolor": {"method": "ne", "ref": "FF0000FF"}}, False),
])
def test_check_cell_styles_without_a_value_check(desktop_env: Any, deskact: Any, props: dict[str, Any],
                                                 verdict: bool) -> None:
    rules = [{"type": "check_cell", "sheet_idx": "RNSheet2", "coordinate": "A1", "props": props}]
    result = _book(deskact.home_file(RESULT), _title)
    evaluator = {"func": "compare_table", "result": {"type": "vm_file", "path": RESULT}, "options": {"rules": rules}}
    theirs = desktop_env.passes("table", "compare_table", str(result), None, rules=rules)
    ours = deskact.passes(evaluator)
    assert ours == theirs and ours is verdict, deskact.feedback
