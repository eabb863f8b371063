"""xlsx.view: how a sheet is shown, as OSWorld's ``compare_table`` rules ``freeze`` (the frozen
panes equal the gold sheet's), ``zoom`` (the zoom, 100 when unset, against a value) and
``row_props``/``col_props`` (properties of the rows and columns that have dimensions, equal to
the gold sheet's) read it with openpyxl."""

from __future__ import annotations

from typing import Any

from ...runtime.tasks.helpers import gold_file
from ...runtime.tasks.steps import StepContext, Verdict, judge
from .ranges import CellCheck, check_value


def _sheet(path: Any, sheet: str | int) -> Any:
    import openpyxl

    book = openpyxl.load_workbook(str(path))
    names = book.sheetnames
    name = (names[sheet] if 0 <= sheet < len(names) else None) if isinstance(sheet, int) else sheet
    return book[name] if name in names else None


def _dimensions(ws: Any, kind: str, props: list[str]) -> dict[Any, dict[str, Any]]:
    return {key: {prop: getattr(dims, prop) for prop in props} for key, dims in getattr(ws, f"{kind}_dimensions").items()}


@judge("xlsx.view")
def xlsx_view(ctx: StepContext, path: str, sheet: str | int = 0, gold: str | None = None,
              gold_sheet: str | int | None = None, same_freeze: bool = False, zoom: CellCheck | None = None,
              same_rows: list[str] | None = None, same_columns: list[str] | None = None) -> Verdict:
    """How ``sheet`` (a name, or a position: 0 is the first) of ``path`` is shown: ``same_freeze``,
    its frozen panes are those of ``gold_sheet`` (default ``sheet``) in the gold workbook ``gold``;
    ``zoom``, its zoom (100 when unset) against ``ref`` by ``method`` (``eq``, ``ge``,
    ``approx:5``...; ``coordinate`` is ignored); ``same_rows``/``same_columns``, these properties
    (``hidden``, ``height``, ``width``, ``outlineLevel``...) of every row/column with dimensions
    are the gold sheet's."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be a spreadsheet but does not exist")
    ws = _sheet(p, sheet)
    if ws is None:
        return Verdict.fail(f"{p.name} has no sheet {sheet!r}")
    problems = []
    gold_ws = None
    if same_freeze or same_rows or same_columns:
        if gold is None:
            raise ValueError("xlsx.view: comparing with the gold sheet needs a gold workbook")
        gold_ws = _sheet(gold_file(ctx, gold), sheet if gold_sheet is None else gold_sheet)
    if same_freeze:
        want = gold_ws.freeze_panes if gold_ws is not None else None
        if ws.freeze_panes != want:
            problems.append(f"its frozen panes start at {ws.freeze_panes} (gold: {want})")
    for kind, props in (("row", same_rows), ("column", same_columns)):
        if props:
            mine = _dimensions(ws, kind, props)
            theirs = _dimensions(gold_ws, kind, props) if gold_ws is not None else {}
            if mine != theirs:
                keys = sorted(set(mine) | set(theirs), key=str)
                key = next(k for k in keys if mine.get(k) != theirs.get(k))
                problems.append(f"{kind} {key} has {mine.get(key)} (gold: {theirs.get(key)})")
    if zoom is not None:
        scale = ws.sheet_view.zoomScale or 100.0
        if not check_value(scale, zoom):
            problems.append(f"its zoom is {scale:g} % (should be {zoom.method} {zoom.ref})")
    if problems:
        return Verdict.fail(f"{p.name} sheet {ws.title}: " + "; ".join(problems))
    return Verdict.ok(f"{p.name} sheet {ws.title} is shown as expected")
