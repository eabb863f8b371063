"""xlsx.compare: a workbook against a gold workbook, sheet by sheet, cell by cell.

Cell-by-cell judges (``xlsx.cells``) pass junk typed into a cell nobody listed;
comparing with a gold workbook does not. Formulas saved without cached values
(by openpyxl, say) are computed with headless LibreOffice first, on both sides.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from ...runtime.tasks.helpers import gold_file
from ...runtime.tasks.steps import StepContext, Verdict, judge
from .._libreoffice import recalculated_copy
from .cells import _formula_key, cell_equal, show_cell


def _books(path: Path, tmp: Path) -> tuple[Any, Any]:
    """(values, formulas) workbooks; values recomputed when some formula has no cached value."""
    import openpyxl

    formulas = openpyxl.load_workbook(path)
    values = openpyxl.load_workbook(path, data_only=True)
    for ws in formulas.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if isinstance(c.value, str) and c.value.startswith("=") and values[ws.title][c.coordinate].value is None:
                    out = tmp / path.stem
                    out.mkdir(parents=True, exist_ok=True)
                    return openpyxl.load_workbook(recalculated_copy(path, out), data_only=True), formulas
    return values, formulas


def _coords(ws_a: Any, ws_b: Any, cells: str | None) -> list[tuple[int, int]]:
    if cells:
        # Imported here: openpyxl costs 80-150 ms at import, paid by every run (and every Ray actor).
        from openpyxl.utils.cell import range_boundaries

        c1, r1, c2, r2 = range_boundaries(cells)
    else:  # the union of both used areas: an extra value outside the gold's area counts too
        c1, r1 = 1, 1
        c2, r2 = max(ws_a.max_column, ws_b.max_column), max(ws_a.max_row, ws_b.max_row)
    return [(r, c) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]


def same_cell(actual: Any, gold: Any, tolerance: float) -> bool:
    """Both sides are typed workbook values, so text stays text: "0000123" is neither the number
    123 nor the text "000123" (``cell_equal``, made for values written in YAML, would say equal)."""
    if isinstance(actual, str) and isinstance(gold, str):
        return actual.strip() == gold.strip()
    if isinstance(actual, str) != isinstance(gold, str):  # text against a number, date or bool
        return (actual is None and gold.strip() == "") or (gold is None and actual.strip() == "")
    return cell_equal(actual, gold, tolerance)


def sheet_differences(actual: tuple[Any, Any], gold: tuple[Any, Any], cells: str | None, tolerance: float,
                      formulas: bool, number_formats: bool) -> list[str]:
    """The differing cells of one sheet pair, as ``B3 is 5 (gold: 6)``, in reading order."""
    (va, fa), (vg, fg) = actual, gold
    out = []
    for r, c in _coords(va, vg, cells):
        a, g = va.cell(r, c), vg.cell(r, c)
        if not same_cell(a.value, g.value, tolerance):
            out.append(f"{g.coordinate} is {show_cell(a.value)} (gold: {show_cell(g.value)})")
            continue
        fa_v, fg_v = fa.cell(r, c).value, fg.cell(r, c).value
        if formulas and isinstance(fg_v, str) and fg_v.startswith("="):
            if not (isinstance(fa_v, str) and _formula_key(fa_v) == _formula_key(fg_v)):
                out.append(f"{g.coordinate} holds {show_cell(fa_v)} (gold formula: {fg_v})")
                continue
        if number_formats and a.value is not None and fa.cell(r, c).number_format != fg.cell(r, c).number_format:
            out.append(f"{g.coordinate} has number format {fa.cell(r, c).number_format!r}"
                       f" (gold: {fg.cell(r, c).number_format!r})")
    return out


@judge("xlsx.compare")
def xlsx_compare(ctx: StepContext, path: str, gold: str, sheets: list[str] | None = None,
                 cells: str | None = None, tolerance: float = 1e-9, formulas: bool = False,
                 number_formats: bool = False, sheet_names: bool = True) -> Verdict:
    """``path`` matches the gold workbook ``gold`` (in the suite's gold/ folder): the values of every
    cell of ``sheets`` (default all), or only the range ``cells`` (``A1:D20``); numbers within
    ``tolerance``. ``formulas``/``number_formats`` also compare those; ``sheet_names`` compares the
    sheet names and their order. Feedback names the first cells that differ."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be a spreadsheet but does not exist")
    with tempfile.TemporaryDirectory(prefix="deskact-compare-") as tmp:
        act, ref = _books(p, Path(tmp)), _books(gold_file(ctx, gold), Path(tmp) / "gold")
    names_a, names_g = act[0].sheetnames, ref[0].sheetnames
    if sheet_names and sheets is None and names_a != names_g:
        return Verdict.fail(f"{p.name} has sheets {names_a}; the gold workbook has {names_g}")
    problems: list[str] = []
    for name in sheets or names_g:
        if name not in names_a:
            return Verdict.fail(f"{p.name} has no sheet {name!r} (sheets: {names_a})")
        diffs = sheet_differences((act[0][name], act[1][name]), (ref[0][name], ref[1][name]),
                                  cells, tolerance, formulas, number_formats)
        problems += [f"{name}!{d}" for d in diffs]
    if problems:
        more = f" and {len(problems) - 6} more" if len(problems) > 6 else ""
        return Verdict.fail(f"{p.name} differs from the gold workbook: " + "; ".join(problems[:6]) + more,
                            differences=problems[:50])
    return Verdict.ok(f"{p.name} matches the gold workbook ({', '.join(sheets or names_g)})")
