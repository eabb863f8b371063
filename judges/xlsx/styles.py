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

Conditional formatting: a cell a rule applies to reads its properties from the rule's
differential style, as in desktop-env; ``_cond_format`` evaluates the rules that need no formula
engine (``cellIs`` with literal values, and the types desktop-env has no branch for). One
divergence, never looser: a sheet with any other rule (``expression``, a formula with a reference
or a function), which desktop-env evaluates with the ``formulas`` library, fails the comparison.
"""

from __future__ import annotations

import io
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_validator

from ...runtime.tasks.helpers import clip, gold_file
from ...runtime.tasks.limits import current as current_limits
from ...runtime.tasks.steps import StepContext, Verdict, judge
from .._value_rules import known, matches
from ._cond_format import NotEvaluated, active_cells
from ._raw import RawSheet

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


def cell_style(prop: str, cell: Any, dxf: Any = None) -> Any:
    """``prop`` of an openpyxl cell as desktop-env reads it, from the differential style ``dxf`` of
    a conditional format that applies to it when given (a part it lacks raises, as there)."""
    from openpyxl.cell.cell import MergedCell

    empty = cell.value is None
    if prop == "merge":
        return isinstance(cell, MergedCell)
    if prop == "hyperlink":
        return None if empty else (cell.hyperlink or "")
    if prop in ("fill_type", "bgcolor", "fgcolor"):
        try:  # desktop-env reads the fill under a catch-all: any failure is None
            if prop == "fill_type":
                return (dxf or cell).fill.tagname
            return dxf.fill.bgColor.rgb if dxf is not None else cell.fill.fgColor.rgb
        except Exception:  # noqa: BLE001 - mirrors desktop-env's bare except
            return None
    if empty:
        return None
    try:
        if prop == "number_format":
            if cell.data_type != "n":
                return None
            return dxf.numFmt.formatCode if dxf is not None else cell.number_format
        font = (dxf or cell).font
        if prop == "font_color":
            return font.color.rgb
        return getattr(font, {"font_name": "name", "font_family": "family", "font_bold": "bold",
                              "font_italic": "italic", "font_underline": "underline", "font_size": "size"}[prop])
    except AttributeError as exc:  # a font without a colour, a differential style without a font
        raise StyleError(f"{cell.coordinate} holds a value but its {prop} cannot be read ({exc})") from exc


def _book(path: Any) -> Any:
    import openpyxl

    return openpyxl.load_workbook(io.BytesIO(path.read_bytes()))


def _sheet(book: Any, sheet: str | int) -> Any:
    names = book.sheetnames
    name = (names[sheet] if 0 <= sheet < len(names) else None) if isinstance(sheet, int) else sheet
    return book[name] if name in names else None


def sheet_styles(ws: Any, props: list[str], raw: RawSheet | None = None) -> dict[str, list[Any]]:
    """Every cell's ``props``, A1 to the last used row and column, by coordinate, then those of the
    cells conditional formats apply to (values read from ``raw``); {} for no sheet."""
    if ws is None:
        return {}
    styles = {c.coordinate: [cell_style(prop, c) for prop in props] for col in ws.iter_cols() for c in col}
    if raw is not None:
        for cell, dxf in active_cells(ws, raw):
            styles[cell.coordinate] = [cell_style(prop, cell, dxf) for prop in props]
    return styles


def _cells(ws: Any) -> int:
    return 0 if ws is None else ws.max_row * ws.max_column


def _style_differences(ws: Any, gold_ws: Any, props: list[str], raws: tuple[RawSheet, RawSheet]) -> list[str]:
    # The declared dimension is checked before parsing (limits.check_zip), but openpyxl's used area
    # comes from the cells themselves: an agent's far-away styled cell must not make millions.
    cap = limits.sheet_cells if (limits := current_limits()) is not None else 2_000_000
    if max(_cells(ws), _cells(gold_ws)) > cap:
        return [f"the sheet spans more than limits.sheet_cells = {cap} cells: not compared"]
    try:
        mine, theirs = sheet_styles(ws, props, raws[0]), sheet_styles(gold_ws, props, raws[1])
    except NotEvaluated as exc:
        return [f"the sheet or the gold sheet has conditional formatting this judge does not evaluate: {exc}"]
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
    conditional formatting that needs a formula engine fails); ``checks``, one cell's property against
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
            gold_path = gold_file(ctx, gold)
            gold_ws = _sheet(_book(gold_path), sheet if gold_sheet is None else gold_sheet)
            raws = (RawSheet(p, ws.title if ws is not None else ""),
                    RawSheet(gold_path, gold_ws.title if gold_ws is not None else ""))
            problems += _style_differences(ws, gold_ws, list(same), raws)
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
