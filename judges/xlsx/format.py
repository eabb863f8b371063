"""xlsx.format and xlsx.validation: how cells look (fill, font, number format) and what they accept.

Both read the workbook with openpyxl (formatting is not a value, so no
recalculation is needed). Colours are compared as RGB hex, ignoring the alpha
byte openpyxl puts in front ("FFFFFF00" is "FFFF00").
"""

from __future__ import annotations

from typing import Any, Literal

# openpyxl is imported where used (by then ``_sheet`` has loaded it): it costs 80-230 ms at
# import, and every run imports every judge module (each Ray actor process too).
from ...runtime.tasks.steps import StepContext, Verdict, judge
from .cells import show_cell


def _sheet(ctx: StepContext, path: str, sheet: str | None) -> tuple[Any, str] | Verdict:
    import openpyxl

    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be a spreadsheet but does not exist")
    wb = openpyxl.load_workbook(p.bytes_io())
    name = sheet or wb.active.title
    if name not in wb.sheetnames:
        return Verdict.fail(f"{p.name} has no sheet {name!r} (sheets: {wb.sheetnames})")
    return wb[name], f"{p.name} sheet {name!r}"


def _cells(ws: Any, cells: str) -> list[Any]:
    from openpyxl.utils.cell import range_boundaries

    c1, r1, c2, r2 = range_boundaries(cells)
    return [ws.cell(r, c) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]


def rgb(color: Any) -> str | None:
    """An openpyxl Color as 6 upper-case hex digits, or None when unset or a theme/indexed colour."""
    value = getattr(color, "rgb", None)
    return value[-6:].upper() if isinstance(value, str) and color.type == "rgb" else None


def cell_format(cell: Any) -> dict[str, Any]:
    solid = cell.fill is not None and cell.fill.fill_type == "solid"
    return {"fill": rgb(cell.fill.fgColor) if solid else None, "bold": bool(cell.font.b),
            "italic": bool(cell.font.i), "font_color": rgb(cell.font.color) if cell.font.color else None,
            "font_size": float(cell.font.sz) if cell.font.sz else None, "font_name": cell.font.name,
            "number_format": cell.number_format, "horizontal": cell.alignment.horizontal or "general"}


@judge("xlsx.format")
def xlsx_format(ctx: StepContext, path: str, cells: str, sheet: str | None = None, fill: str | None = None,
                bold: bool | None = None, italic: bool | None = None, font_color: str | None = None,
                font_size: float | None = None, font_name: str | None = None,
                number_format: str | None = None, horizontal: str | None = None) -> Verdict:
    """Every cell of ``cells`` ("B2" or "B2:D9") has the formatting given: ``fill``/``font_color`` as
    RGB hex ("FFFF00"), ``bold``, ``italic``, ``font_size`` (pt), ``font_name``, ``number_format``
    ("0.00%"), ``horizontal`` alignment (left/center/right/general)."""
    found = _sheet(ctx, path, sheet)
    if isinstance(found, Verdict):
        return found
    ws, where = found
    want = {k: v for k, v in {"fill": fill, "bold": bold, "italic": italic, "font_color": font_color,
                              "font_size": font_size, "font_name": font_name, "number_format": number_format,
                              "horizontal": horizontal}.items() if v is not None}
    for key in ("fill", "font_color"):
        if key in want:
            want[key] = str(want[key]).lstrip("#")[-6:].upper()
    wrong = []
    for cell in _cells(ws, cells):
        have = cell_format(cell)
        bad = [f"{k} {have[k]!r} (want {v!r})" for k, v in want.items() if have[k] != v]
        if bad:
            wrong.append(f"{cell.coordinate} ({show_cell(cell.value)}): " + ", ".join(bad))
    if wrong:
        more = f" and {len(wrong) - 5} more cells" if len(wrong) > 5 else ""
        return Verdict.fail(f"{where}: " + "; ".join(wrong[:5]) + more)
    return Verdict.ok(f"{where}: {cells} formatted as expected")


def _list_values(ws: Any, formula: str) -> list[str]:
    """A list validation's choices: an inline "a,b,c" list or a range of the workbook."""
    formula = formula.strip()
    if formula.startswith('"'):
        return [v.strip() for v in formula.strip('"').split(",")]
    ref = formula.lstrip("=").replace("$", "")
    sheet = ws
    if "!" in ref:
        name, ref = ref.rsplit("!", 1)
        sheet = ws.parent[name.strip("'")]
    return [str(c.value) for c in _cells(sheet, ref) if c.value is not None]


def _same_bound(have: Any, want: str | float) -> bool:
    """Bounds are formulas ("10", "DATE(2024,1,1)"): numbers compare as numbers, the rest as text."""
    try:
        return float(str(have)) == float(want)
    except ValueError:
        return str(have).strip('"').lstrip("=").upper() == str(want).lstrip("=").upper()


@judge("xlsx.validation")
def xlsx_validation(ctx: StepContext, path: str, cells: str, sheet: str | None = None,
                    type: Literal["list", "whole", "decimal", "date", "time", "textLength", "custom"] = "list",
                    values: list[str] | None = None, min: str | float | None = None,
                    max: str | float | None = None) -> Verdict:
    """Every cell of ``cells`` is covered by a data validation rule of ``type``: for a list, with the
    choices ``values`` (in order; inline or from a range); for numbers/dates, between ``min`` and ``max``."""
    found = _sheet(ctx, path, sheet)
    if isinstance(found, Verdict):
        return found
    ws, where = found
    from openpyxl.worksheet.cell_range import CellRange

    target = CellRange(cells)
    rules = [dv for dv in ws.data_validations.dataValidation
             if any(CellRange(str(r)).issuperset(target) for r in dv.sqref.ranges)]
    if not rules:
        shown = [f"{dv.type} on {dv.sqref}" for dv in ws.data_validations.dataValidation]
        return Verdict.fail(f"{where}: no data validation covers {cells} (rules: {shown or 'none'})")
    problems = []
    for dv in rules:
        bad = []
        if dv.type != type:
            bad.append(f"type {dv.type!r} (want {type!r})")
        if values is not None and type == "list" and (got := _list_values(ws, dv.formula1 or "")) != values:
            bad.append(f"choices {got} (want {values})")
        for name, want, have in (("min", min, dv.formula1), ("max", max, dv.formula2)):
            if want is not None and not _same_bound(have, want):
                bad.append(f"{name} {have} (want {want})")
        if not bad:
            return Verdict.ok(f"{where}: {cells} accepts only {type} values as expected")
        problems.append(f"rule on {dv.sqref}: " + ", ".join(bad))
    return Verdict.fail(f"{where}: " + "; ".join(problems))
