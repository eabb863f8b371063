"""xlsx.styles: how cells look, as OSWorld's ``compare_table`` rules ``style`` (every cell's listed
properties equal the gold sheet's) and ``check_cell`` (one cell's property against a value) read
them with openpyxl (desktop-env's ``_read_cell_style``).

The properties are openpyxl's own values, quirks kept: a font property of an empty cell is None;
``bgcolor`` and ``fgcolor`` are both the fill's foreground colour (a cell without a fill reads
``00000000``); a theme or indexed colour's ``rgb`` is openpyxl's message "Values must be of type
<class 'str'>", so any two theme colours compare equal. ``style`` compares every cell from A1 to
the sheet's last used row and column, so a sheet of other dimensions differs. A cell with a value
whose font has no colour makes desktop-env's ``style`` rule raise (the task fails), and the judge
fails there too.

One divergence, never looser: desktop-env evaluates conditional formatting with the ``formulas``
library and reads the matching cells' styles from the rule's differential style; this judge does
not evaluate conditional formatting and fails a ``style`` comparison where either sheet has any.
"""

from __future__ import annotations

import io
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_validator

from ...runtime.tasks.helpers import clip, gold_file
from ...runtime.tasks.limits import current as current_limits
from ...runtime.tasks.steps import StepContext, Verdict, judge
from .._value_rules import known, matches

StyleProp = Literal["number_format", "font_name", "font_family", "font_color", "font_bold", "font_italic",
                    "font_underline", "font_size", "fill_type", "bgcolor", "fgcolor", "hyperlink", "merge"]


class StyleError(Exception):
    """Reading a property raised where desktop-env's reading raises too (a font without a colour)."""


class StyleCheck(BaseModel):
    """One ``check_cell`` style check: ``prop`` of the cell at ``coordinate`` against ``ref`` by
    ``method`` (eq, ne, lt, le, gt, ge, ``approx:<tolerance>``, ``re``...)."""

    model_config = ConfigDict(extra="forbid")
    coordinate: str
    prop: StyleProp
    method: str
    ref: Any

    @field_validator("method")
    @classmethod
    def _known_method(cls, method: str) -> str:
        if not known(method):
            raise ValueError(f"method {method!r} is not one of OSWorld's check_cell methods")
        return method


def cell_style(prop: str, cell: Any) -> Any:
    """``prop`` of an openpyxl cell as desktop-env reads it without conditional formatting."""
    from openpyxl.cell.cell import MergedCell

    empty = cell.value is None
    if prop == "number_format":
        return cell.number_format if not empty and cell.data_type == "n" else None
    if prop == "merge":
        return isinstance(cell, MergedCell)
    if prop == "hyperlink":
        return None if empty else (cell.hyperlink or "")
    if prop in ("fill_type", "bgcolor", "fgcolor"):
        try:  # desktop-env reads the fill under a catch-all: any failure is None
            return cell.fill.tagname if prop == "fill_type" else cell.fill.fgColor.rgb
        except Exception:  # noqa: BLE001 - mirrors desktop-env's bare except
            return None
    if empty:
        return None
    font = cell.font
    if prop == "font_color":
        if font.color is None:
            raise StyleError(f"{cell.coordinate} holds a value but its font has no colour")
        return font.color.rgb
    return getattr(font, {"font_name": "name", "font_family": "family", "font_bold": "bold",
                          "font_italic": "italic", "font_underline": "underline", "font_size": "size"}[prop])


def _book(path: Any) -> Any:
    import openpyxl

    return openpyxl.load_workbook(io.BytesIO(path.read_bytes()))


def _sheet(book: Any, sheet: str | int) -> Any:
    names = book.sheetnames
    name = (names[sheet] if 0 <= sheet < len(names) else None) if isinstance(sheet, int) else sheet
    return book[name] if name in names else None


def sheet_styles(ws: Any, props: list[str]) -> dict[str, list[Any]]:
    """Every cell's ``props``, A1 to the last used row and column, by coordinate; {} for no sheet."""
    if ws is None:
        return {}
    return {c.coordinate: [cell_style(prop, c) for prop in props] for col in ws.iter_cols() for c in col}


def _has_conditional_formatting(ws: Any) -> bool:
    return ws is not None and any(fmt.rules for fmt in ws.conditional_formatting)


def _cells(ws: Any) -> int:
    return 0 if ws is None else ws.max_row * ws.max_column


def _style_differences(ws: Any, gold_ws: Any, props: list[str]) -> list[str]:
    # The declared dimension is checked before parsing (limits.check_zip), but openpyxl's used area
    # comes from the cells themselves: an agent's far-away styled cell must not make millions.
    cap = limits.sheet_cells if (limits := current_limits()) is not None else 2_000_000
    if max(_cells(ws), _cells(gold_ws)) > cap:
        return [f"the sheet spans more than limits.sheet_cells = {cap} cells: not compared"]
    if _has_conditional_formatting(ws) or _has_conditional_formatting(gold_ws):
        return ["the sheet or the gold sheet has conditional formatting, which this judge does not evaluate"]
    mine, theirs = sheet_styles(ws, props), sheet_styles(gold_ws, props)
    if mine == theirs:
        return []
    if ws is None:
        return ["the sheet does not exist"]
    out = []
    for coordinate in sorted(set(mine) | set(theirs), key=lambda k: (len(k), k)):
        a, g = mine.get(coordinate), theirs.get(coordinate)
        if a != g:
            shown = "outside the sheet's used area" if a is None else ", ".join(map(repr, a))
            wanted = "outside the gold sheet's used area" if g is None else ", ".join(map(repr, g))
            out.append(f"{coordinate} has {shown} (gold: {wanted})")
    return out


@judge("xlsx.styles")
def xlsx_styles(ctx: StepContext, path: str, sheet: str | int = 0, gold: str | None = None,
                gold_sheet: str | int | None = None, same: list[StyleProp] | None = None,
                checks: list[StyleCheck] | None = None) -> Verdict:
    """Cell styles of ``sheet`` (a name, or a position: 0 is the first) of ``path``, read with
    openpyxl as OSWorld reads them: ``same``, these properties (``font_color``, ``font_bold``,
    ``bgcolor``, ``number_format``...) of every cell from A1 to the last used row and column equal
    those of ``gold_sheet`` (default ``sheet``) in the gold workbook ``gold`` (a sheet with
    conditional formatting fails: it is not evaluated); ``checks``, one cell's property against
    ``ref`` by ``method`` (``eq``, ``ne``...; colours are aRGB text such as ``FF0000FF``)."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be a spreadsheet but does not exist")
    try:
        ws = _sheet(_book(p), sheet)
    except Exception as exc:  # noqa: BLE001 - a workbook openpyxl cannot read fails, as in OSWorld
        return Verdict.fail(f"{p.name} is not a workbook openpyxl reads: {clip(exc, 80)}")
    problems: list[str] = []
    try:
        if same:
            if gold is None:
                raise ValueError("xlsx.styles: same needs a gold workbook")
            gold_ws = _sheet(_book(gold_file(ctx, gold)), sheet if gold_sheet is None else gold_sheet)
            problems += _style_differences(ws, gold_ws, list(same))
        if checks and ws is None:
            problems.append("the sheet does not exist")
        for check in (checks or []) if ws is not None else []:
            try:
                value = cell_style(check.prop, ws[check.coordinate])
            except StyleError:  # check_cell reads a property that raises as None
                value = None
            if not matches(value, check.method, check.ref):
                problems.append(f"{check.coordinate} {check.prop} is {clip(value, 40)}"
                                f" (should be {check.method} {clip(check.ref, 40)})")
    except StyleError as exc:
        problems.append(str(exc))
    if problems:
        more = f" and {len(problems) - 6} more" if len(problems) > 6 else ""
        return Verdict.fail(f"{p.name} sheet {sheet}: " + "; ".join(problems[:6]) + more, differences=problems[:50])
    return Verdict.ok(f"{p.name} sheet {sheet}: the cell styles match")
