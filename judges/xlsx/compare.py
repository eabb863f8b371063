"""xlsx.compare: a workbook against a gold workbook, sheet by sheet, cell by cell.

Cell-by-cell judges (``xlsx.cells``) pass junk typed into a cell nobody listed;
comparing with a gold workbook does not. Formulas saved without cached values
(by openpyxl, say) are computed with headless LibreOffice first, on both sides.
"""

from __future__ import annotations

import io
import tempfile
from pathlib import Path
from typing import Any

from ...runtime.tasks.helpers import gold_file
from ...runtime.tasks.step_paths import StepPath
from ...runtime.tasks.steps import StepContext, Verdict, judge
from .._libreoffice import recalculated_copy
from .cells import _formula_key, cell_equal, show_cell


def _books(path: Path | StepPath, tmp: Path) -> tuple[Any, Any]:
    """(values, formulas) workbooks; values recomputed when some formula has no cached value.
    An agent's file (``StepPath``) is read once through its descriptor."""
    import openpyxl

    data = path.read_bytes()
    formulas = openpyxl.load_workbook(io.BytesIO(data))
    values = openpyxl.load_workbook(io.BytesIO(data), data_only=True)
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


def _rounded(value: Any, decimals: int | None) -> Any:
    # Floats only, half to even on the scaled value: what pandas' DataFrame.round does to a float column.
    if decimals is None or not isinstance(value, float):
        return value
    return round(value * 10**decimals) / 10**decimals


def same_cell(actual: Any, gold: Any, tolerance: float, exact_text: bool = False,
              decimals: int | None = None) -> bool:
    """Both sides are typed workbook values, so text stays text: "0000123" is neither the number
    123 nor the text "000123" (``cell_equal``, made for values written in YAML, would say equal).
    ``exact_text`` keeps the spaces around text; ``decimals`` rounds floats on both sides first."""
    actual, gold = _rounded(actual, decimals), _rounded(gold, decimals)
    if isinstance(actual, str) and isinstance(gold, str):
        return actual == gold if exact_text else actual.strip() == gold.strip()
    if isinstance(actual, str) != isinstance(gold, str):  # text against a number, date or bool
        return (actual is None and gold.strip() == "") or (gold is None and actual.strip() == "")
    return cell_equal(actual, gold, tolerance)


def _number(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def _numeric_columns(ws: Any) -> set[int]:
    """Columns whose values below the first row are all numbers or text that reads as one: pandas
    reads such a column as numbers (OSWorld's sheets are read with pandas)."""
    numeric = set()
    for c in range(1, ws.max_column + 1):
        values = [ws.cell(r, c).value for r in range(2, ws.max_row + 1)]
        if all(v is None or _number(v) is not None for v in values):
            numeric.add(c)
    return numeric


def sheet_differences(actual: tuple[Any, Any], gold: tuple[Any, Any], cells: str | None, tolerance: float,
                      formulas: bool, number_formats: bool, exact_text: bool = False,
                      decimals: int | None = None, numeric_text: bool = False) -> list[str]:
    """The differing cells of one sheet pair, as ``B3 is 5 (gold: 6)``, in reading order."""
    (va, fa), (vg, fg) = actual, gold
    columns = (_numeric_columns(va), _numeric_columns(vg)) if numeric_text else (set(), set())
    out = []
    for r, c in _coords(va, vg, cells):
        a, g = va.cell(r, c), vg.cell(r, c)
        value_a = _number(a.value) if r > 1 and c in columns[0] and a.value is not None else a.value
        value_g = _number(g.value) if r > 1 and c in columns[1] and g.value is not None else g.value
        if not same_cell(value_a, value_g, tolerance, exact_text, decimals):
            out.append(f"{g.coordinate} is {show_cell(a.value)} (gold: {show_cell(g.value)})")
            continue
        fa_v, fg_v = fa.cell(r, c).value, fg.cell(r, c).value
        gold_formula = fg_v if formulas and isinstance(fg_v, str) and fg_v.startswith("=") else None
        if gold_formula and not (isinstance(fa_v, str) and _formula_key(fa_v) == _formula_key(gold_formula)):
            out.append(f"{g.coordinate} holds {show_cell(fa_v)} (gold formula: {fg_v})")
            continue
        if number_formats and a.value is not None and fa.cell(r, c).number_format != fg.cell(r, c).number_format:
            out.append(f"{g.coordinate} has number format {fa.cell(r, c).number_format!r}"
                       f" (gold: {fg.cell(r, c).number_format!r})")
    return out


@judge("xlsx.compare")
def xlsx_compare(ctx: StepContext, path: str, gold: str, sheets: list[str] | None = None,
                 cells: str | None = None, tolerance: float = 1e-9, formulas: bool = False,
                 number_formats: bool = False, sheet_names: bool = True, exact_text: bool = False,
                 decimals: int | None = None, positions: list[int] | None = None,
                 numeric_text: bool = False, within: list[tuple[str | int, str | int]] | None = None,
                 names_at: dict[int, str] | None = None, gold_names_at: dict[int, str] | None = None,
                 gold_resaved: bool = False) -> Verdict:
    """``path`` matches the gold workbook ``gold`` (in the suite's gold/ folder): the values of every
    cell of ``sheets`` (default all), or only the range ``cells`` (``A1:D20``); numbers within
    ``tolerance``. ``formulas``/``number_formats`` also compare those; ``sheet_names`` compares the
    sheet names and their order. ``exact_text`` keeps the spaces around text (they are trimmed by
    default), ``decimals`` rounds floats on both sides first (OSWorld's ``precision``);
    ``positions`` compares sheets by position instead (0 is each workbook's first sheet, whatever
    its name). ``numeric_text`` reads a column below its first row as numbers when every value in it
    is a number or text that reads as one (how pandas, and so OSWorld, reads a sheet). ``within``
    also compares pairs of ``path``'s own sheets with each other, by the same rules (a copy of a
    sheet equals its original; each given by name or position). ``names_at``/``gold_names_at``
    name the sheet at a position of ``path``/of the gold workbook (OSWorld's printed sheets are
    CSV files named after the sheet at a position). ``gold_resaved`` compares with the gold as
    LibreOffice opens and saves it now (volatile formulas such as TODAY() computed today, as when
    OSWorld's VM opens and saves the gold after the episode). Feedback names the first cells that
    differ."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be a spreadsheet but does not exist")
    with tempfile.TemporaryDirectory(prefix="deskact-compare-") as tmp:
        gold_path = gold_file(ctx, gold)
        if gold_resaved:
            gold_path = recalculated_copy(gold_path, Path(tmp) / "resaved")
        act, ref = _books(p, Path(tmp)), _books(gold_path, Path(tmp) / "gold")
    names_a, names_g = act[0].sheetnames, ref[0].sheetnames
    for at, names, where in ((names_at, names_a, p.name), (gold_names_at, names_g, "the gold workbook")):
        for i, want in (at or {}).items():
            if not (0 <= i < len(names) and names[i] == want):
                return Verdict.fail(f"{where} should have a sheet named {want!r} at position {i} (sheets: {names})")
    if sheet_names and sheets is None and names_a != names_g:
        return Verdict.fail(f"{p.name} has sheets {names_a}; the gold workbook has {names_g}")
    problems: list[str] = []
    pairs = [(name, name) for name in sheets or names_g]
    if positions is not None:
        for i in positions:
            if not (0 <= i < len(names_a) and i < len(names_g)):
                return Verdict.fail(f"{p.name} has no sheet at position {i} (sheets: {names_a}; gold: {names_g})")
        pairs = [(names_a[i], names_g[i]) for i in positions]
    for name, gold_name in pairs:
        if name not in names_a:
            return Verdict.fail(f"{p.name} has no sheet {name!r} (sheets: {names_a})")
        diffs = sheet_differences((act[0][name], act[1][name]), (ref[0][gold_name], ref[1][gold_name]),
                                  cells, tolerance, formulas, number_formats, exact_text, decimals, numeric_text)
        problems += [f"{name}!{d}" for d in diffs]
    for first, second in within or []:
        own = [names_a[i] if isinstance(i, int) and 0 <= i < len(names_a) else i for i in (first, second)]
        if not all(isinstance(name, str) and name in names_a for name in own):
            return Verdict.fail(f"{p.name} has no sheet {first!r} or {second!r} (sheets: {names_a})")
        diffs = sheet_differences((act[0][own[0]], act[1][own[0]]), (act[0][own[1]], act[1][own[1]]), cells,
                                  tolerance, formulas, number_formats, exact_text, decimals, numeric_text)
        problems += [f"{own[0]}!{d.replace('(gold: ', f'({own[1]}: ')}" for d in diffs]
    if problems:
        more = f" and {len(problems) - 6} more" if len(problems) > 6 else ""
        return Verdict.fail(f"{p.name} differs from the gold workbook: " + "; ".join(problems[:6]) + more,
                            differences=problems[:50])
    return Verdict.ok(f"{p.name} matches the gold workbook ({', '.join(name for name, _ in pairs)})")
