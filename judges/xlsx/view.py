"""xlsx.view: how a sheet is shown, as OSWorld's ``compare_table`` rules ``freeze`` (the frozen
panes equal the gold sheet's) and ``zoom`` (the zoom, 100 when unset, against a value) read it
with openpyxl."""

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


@judge("xlsx.view")
def xlsx_view(ctx: StepContext, path: str, sheet: str | int = 0, gold: str | None = None,
              gold_sheet: str | int | None = None, same_freeze: bool = False, zoom: CellCheck | None = None) -> Verdict:
    """How ``sheet`` (a name, or a position: 0 is the first) of ``path`` is shown: ``same_freeze``,
    its frozen panes are those of ``gold_sheet`` (default ``sheet``) in the gold workbook ``gold``;
    ``zoom``, its zoom (100 when unset) against ``ref`` by ``method`` (``eq``, ``ge``,
    ``approx:5``...; ``coordinate`` is ignored)."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be a spreadsheet but does not exist")
    ws = _sheet(p, sheet)
    if ws is None:
        return Verdict.fail(f"{p.name} has no sheet {sheet!r}")
    problems = []
    if same_freeze:
        if gold is None:
            raise ValueError("xlsx.view: same_freeze needs a gold workbook")
        gold_ws = _sheet(gold_file(ctx, gold), sheet if gold_sheet is None else gold_sheet)
        want = gold_ws.freeze_panes if gold_ws is not None else None
        if ws.freeze_panes != want:
            problems.append(f"its frozen panes start at {ws.freeze_panes} (gold: {want})")
    if zoom is not None:
        scale = ws.sheet_view.zoomScale or 100.0
        if not check_value(scale, zoom):
            problems.append(f"its zoom is {scale:g} % (should be {zoom.method} {zoom.ref})")
    if problems:
        return Verdict.fail(f"{p.name} sheet {ws.title}: " + "; ".join(problems))
    return Verdict.ok(f"{p.name} sheet {ws.title} is shown as expected")
