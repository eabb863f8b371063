"""xlsx.cells, xlsx.sheets and xlsx.formula: spreadsheet values and sheets, read with openpyxl.

The cell comparison here (``cell_equal``, ``show_cell``) is shared by the other xlsx judges
and by csv.rows.
"""

from __future__ import annotations

import math
import re
import tempfile
from datetime import date, datetime, time
from pathlib import Path
from typing import Annotated, Any

from pydantic import AfterValidator

from ...runtime.tasks.helpers import clip
from ...runtime.tasks.step_paths import StepPath
from ...runtime.tasks.steps import StepContext, Verdict, judge
from .._libreoffice import recalculated_copy

_CELL = re.compile(r"^(?:(?P<sheet>[^!]+)!)?\$?(?P<col>[A-Za-z]{1,3})\$?(?P<row>[0-9]+)$")


def _cell_refs(cells: dict[str, Any]) -> dict[str, Any]:
    bad = [ref for ref in cells if not _CELL.match(str(ref))]
    if bad:
        raise ValueError(f"not cell references: {bad} (write A1, or Sheet2!B3)")
    if not cells:
        raise ValueError("`cells` is empty")
    return cells


CellMap = Annotated[dict[str, Any], AfterValidator(_cell_refs)]


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _as_number(v: Any) -> float | None:
    if _is_number(v):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v.strip().replace(",", ""))
        except ValueError:
            return None
    return None


def cell_equal(actual: Any, expected: Any, tolerance: float = 1e-9) -> bool:
    """Spreadsheet equality: numbers numerically (3 == 3.0 == "3"), strings trimmed,
    dates by calendar value, empty == None == ""."""
    if expected is None or expected == "":
        return actual is None or (isinstance(actual, str) and actual.strip() == "")
    if actual is None:
        return False
    if isinstance(expected, bool) or isinstance(actual, bool):
        return isinstance(actual, bool) and isinstance(expected, bool) and actual == expected
    if isinstance(expected, (date, datetime)) or isinstance(actual, (date, datetime)):
        return _date_equal(actual, expected)
    if _is_number(expected) or _is_number(actual):
        a, e = _as_number(actual), _as_number(expected)
        return a is not None and e is not None and math.isclose(a, e, rel_tol=1e-9, abs_tol=tolerance)
    return str(actual).strip() == str(expected).strip()


def _date_equal(actual: Any, expected: Any) -> bool:
    def norm(v: Any) -> datetime | None:
        if isinstance(v, datetime):
            return v
        if isinstance(v, date):
            return datetime.combine(v, time())
        if isinstance(v, str):
            try:
                return datetime.fromisoformat(v.strip())
            except ValueError:
                return None
        return None

    a, e = norm(actual), norm(expected)
    return a is not None and a == e


def show_cell(v: Any) -> str:
    if v is None or v == "":
        return "empty"
    if isinstance(v, datetime) and v.time() == time():
        return v.date().isoformat()
    if isinstance(v, (date, datetime)):
        return v.isoformat()
    return clip(v, 80)


def _load(path: Path | StepPath, data_only: bool) -> Any:
    import openpyxl

    return openpyxl.load_workbook(path.bytes_io() if isinstance(path, StepPath) else path, data_only=data_only)


def _open(ctx: StepContext, path: str) -> tuple[StepPath, Verdict | None]:
    p = ctx.path(path)
    if not p.is_file():
        return p, Verdict.fail(f"{p} should be a spreadsheet but does not exist")
    return p, None


@judge("xlsx.cells")
def xlsx_cells(
    ctx: StepContext, path: str, cells: CellMap, sheet: str | None = None, tolerance: float = 1e-9
) -> Verdict:
    """Cells hold the expected values (``{A1: 3, "Totals!B2": "ok"}``; default sheet: ``sheet`` or the active one).

    Formulas are judged by their computed value; if the file has no cached
    results (written by a script), LibreOffice computes them.
    """
    p, missing = _open(ctx, path)
    if missing:
        return missing
    values = _load(p, data_only=True)
    default_sheet = sheet or values.active.title
    refs = []
    for ref in cells:
        m = _CELL.match(ref)
        assert m is not None  # validated at load
        refs.append((ref, m.group("sheet") or default_sheet, f"{m.group('col').upper()}{m.group('row')}"))
    absent = sorted({s for _, s, _ in refs if s not in values.sheetnames})
    if absent:
        return Verdict.fail(f"{p.name} has no sheet {', '.join(map(repr, absent))} (sheets: {values.sheetnames})")

    actual = {ref: values[s][addr].value for ref, s, addr in refs}
    uncomputed = [ref for ref, v in actual.items() if v is None]
    if uncomputed:
        formulas = _load(p, data_only=False)
        pending = {ref for ref, s, addr in refs if ref in uncomputed
                   and isinstance(formulas[s][addr].value, str) and formulas[s][addr].value.startswith("=")}
        if pending:
            with tempfile.TemporaryDirectory(prefix="deskact-recalc-") as tmp:
                computed = _load(recalculated_copy(p, Path(tmp)), data_only=True)
                for ref, s, addr in refs:
                    if ref in pending:
                        actual[ref] = computed[s][addr].value

    wrong = {ref: v for ref, v in actual.items() if not cell_equal(v, cells[ref], tolerance)}
    where = f"{p.name}" + (f" sheet {default_sheet!r}" if sheet else "")
    if not wrong:
        return Verdict.ok(f"{where}: all {len(cells)} cells hold the expected values")
    parts = [f"{ref} should be {show_cell(cells[ref])} but is {show_cell(v)}" for ref, v in wrong.items()]
    more = f" (and {len(parts) - 8} more)" if len(parts) > 8 else ""
    return Verdict.fail(
        f"{where}: " + "; ".join(parts[:8]) + more,
        wrong={ref: show_cell(v) for ref, v in wrong.items()},
    )


@judge("xlsx.sheets")
def xlsx_sheets(ctx: StepContext, path: str, names: list[str], ordered: bool = True) -> Verdict:
    """The workbook's sheet names are exactly ``names`` (in that order unless ``ordered: false``)."""
    p, missing = _open(ctx, path)
    if missing:
        return missing
    import openpyxl

    wb = openpyxl.load_workbook(p.bytes_io(), read_only=True)
    actual = list(wb.sheetnames)
    wb.close()
    same = actual == names if ordered else sorted(actual) == sorted(names)
    if same:
        return Verdict.ok(f"{p.name} has sheets {names}")
    return Verdict.fail(f"{p.name} should have sheets {names}{'' if ordered else ' (any order)'} but has {actual}")


def _formula_key(text: Any) -> str:
    """Formulas compare without spaces, ``$`` anchors or case: =sum(b2:b3) == =SUM($B$2:$B$3)."""
    return re.sub(r"[\s$]", "", str(text)).upper().lstrip("=")


@judge("xlsx.formula")
def xlsx_formula(ctx: StepContext, path: str, cells: CellMap, sheet: str | None = None) -> Verdict:
    """Cells hold formulas (not typed-in values) equal to the expected ones, e.g.
    ``{B5: "=SUM(B2:B4)"}``; spaces, ``$`` and case are ignored. ``"="`` accepts any formula."""
    p, missing = _open(ctx, path)
    if missing:
        return missing
    wb = _load(p, data_only=False)
    default_sheet = sheet or wb.active.title
    problems = []
    for ref, expected in cells.items():
        m = _CELL.match(ref)
        assert m is not None
        s = m.group("sheet") or default_sheet
        if s not in wb.sheetnames:
            return Verdict.fail(f"{p.name} has no sheet {s!r} (sheets: {wb.sheetnames})")
        actual = wb[s][f"{m.group('col').upper()}{m.group('row')}"].value
        if not (isinstance(actual, str) and actual.startswith("=")):
            problems.append(f"{ref} should hold a formula {'' if expected == '=' else str(expected) + ' '}but holds the value {show_cell(actual)}")
        elif expected != "=" and _formula_key(actual) != _formula_key(expected):
            problems.append(f"{ref} should hold {expected} but holds {actual}")
    where = f"{p.name}" + (f" sheet {default_sheet!r}" if sheet else "")
    if problems:
        return Verdict.fail(f"{where}: " + "; ".join(problems[:8]))
    return Verdict.ok(f"{where}: all {len(cells)} formulas are as expected")
