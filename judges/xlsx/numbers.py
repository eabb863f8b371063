"""xlsx.numbers: cells hold numbers, not text that looks like numbers.

``xlsx.cells`` compares like a spreadsheet would ("3" equals 3), which is
right for values but cannot tell a CSV imported as text from one imported
as numbers; a sum over text cells is 0 in Calc and Excel, so tasks that ask
for numbers check the type with this judge.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator

from ...runtime.tasks.helpers import clip
from ...runtime.tasks.steps import StepContext, Verdict, judge
from .cells import _CELL


def _refs(refs: list[str]) -> list[str]:
    bad = [r for r in refs if not _CELL.match(str(r))]
    if bad:
        raise ValueError(f"not cell references: {bad} (write A1, or Sheet2!B3)")
    if not refs:
        raise ValueError("`cells` is empty")
    return refs


CellList = Annotated[list[str], AfterValidator(_refs)]


@judge("xlsx.numbers")
def xlsx_numbers(ctx: StepContext, path: str, cells: CellList, sheet: str | None = None) -> Verdict:
    """Each cell in ``cells`` (["C2", "Totals!B3"]) holds a number or a formula, not text or nothing."""
    import openpyxl

    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be a spreadsheet but does not exist")
    wb = openpyxl.load_workbook(p.bytes_io())
    default = sheet or wb.active.title
    wrong: dict[str, str] = {}
    for ref in cells:
        m = _CELL.match(ref)
        assert m is not None  # validated at load
        name = m.group("sheet") or default
        if name not in wb.sheetnames:
            return Verdict.fail(f"{p.name} has no sheet {name!r} (sheets: {wb.sheetnames})")
        value = wb[name][f"{m.group('col').upper()}{m.group('row')}"].value
        is_formula = isinstance(value, str) and value.startswith("=")
        if not (isinstance(value, (int, float)) and not isinstance(value, bool)) and not is_formula:
            wrong[ref] = "empty" if value is None else f"{type(value).__name__} {clip(value, 40)}"
    if not wrong:
        return Verdict.ok(f"{p.name}: all {len(cells)} cells hold numbers")
    shown = "; ".join(f"{ref} holds {what}" for ref, what in list(wrong.items())[:8])
    return Verdict.fail(f"{p.name}: these cells should hold numbers: {shown}", wrong=wrong)
