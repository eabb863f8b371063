"""google.sheet_* judges: a spreadsheet's tabs, a range's values and the cells' format."""

from __future__ import annotations

import math
from typing import Any

from ...reset_scripts.google.account import MIME_SHORT, clients
from ...runtime.tasks.helpers import clip, short
from ...runtime.tasks.steps import StepContext, Verdict, judge
from ._lookup import _find_by_title, _missing_doc


def _cell_equal(actual: Any, expected: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return str(actual).upper() == str(expected).upper()
    if isinstance(expected, (int, float)):
        try:
            return math.isclose(float(actual), float(expected), rel_tol=1e-9, abs_tol=1e-9)
        except (TypeError, ValueError):
            return False
    return str(actual).strip() == str(expected).strip()


def _trim(rows: list[list[Any]]) -> list[list[Any]]:
    out = [list(r) for r in rows]
    for r in out:
        while r and r[-1] in ("", None):
            r.pop()
    while out and not out[-1]:
        out.pop()
    return out


def _rows_equal(actual: list[list[Any]], expected: list[list[Any]]) -> bool:
    return len(actual) == len(expected) and all(
        len(a) == len(e) and all(_cell_equal(x, y) for x, y in zip(a, e)) for a, e in zip(actual, expected))


def _row_key(row: list[Any]) -> list[str]:
    # 5 and 5.0 and "5" must sort alike: compare numbers by value, the rest as trimmed text.
    out = []
    for x in row:
        try:
            out.append(repr(float(x)) if not isinstance(x, bool) else str(x).upper())
        except (TypeError, ValueError):
            out.append(str(x).strip())
    return out


@judge("google.sheet_tabs")
def sheet_tabs(ctx: StepContext, spreadsheet: str, names: list[str]) -> Verdict:
    """The spreadsheet titled (or with id) ``spreadsheet`` has exactly the tabs ``names``, in order."""
    files = _find_by_title(ctx, spreadsheet, MIME_SHORT["spreadsheet"])
    if not files:
        return _missing_doc(ctx, spreadsheet, MIME_SHORT["spreadsheet"], "spreadsheet")
    api = clients(ctx).sheets
    seen = []
    for f in files:
        tabs = [s["properties"]["title"] for s in api.spreadsheets().get(spreadsheetId=f["id"]).execute()["sheets"]]
        if tabs == names:
            return Verdict.ok(f"{spreadsheet!r} has the tabs {names}")
        seen.append(tabs)
    return Verdict.fail(f"{spreadsheet!r} should have the tabs {names} but has {seen[0] if len(seen) == 1 else seen}")


@judge("google.sheet_range")
def sheet_range(ctx: StepContext, spreadsheet: str, range: str, equals: list[list[Any]],
                any_order: bool = False, formatted: bool = False) -> Verdict:
    """The cells of an A1 ``range`` of the spreadsheet titled (or with id) ``spreadsheet`` equal
    ``equals`` (numbers compared as numbers, text trimmed, trailing empty cells ignored).
    ``any_order``: rows may come in any order. ``formatted``: compare displayed strings."""
    files = _find_by_title(ctx, spreadsheet, MIME_SHORT["spreadsheet"])
    if not files:
        return _missing_doc(ctx, spreadsheet, MIME_SHORT["spreadsheet"], "spreadsheet")
    api = clients(ctx).sheets
    expected = _trim(equals)
    seen = []
    for f in files:
        try:
            values = api.spreadsheets().values().get(
                spreadsheetId=f["id"], range=range,
                valueRenderOption="FORMATTED_VALUE" if formatted else "UNFORMATTED_VALUE").execute().get("values", [])
        except Exception as exc:  # noqa: BLE001 - e.g. the tab does not exist: say so
            tabs = [s["properties"]["title"] for s in api.spreadsheets().get(spreadsheetId=f["id"]).execute()["sheets"]]
            seen.append(f"range {range!r} cannot be read ({short(str(exc), 120)}; tabs: {tabs})")
            continue
        actual = _trim(values)
        if any_order:
            if _rows_equal(sorted(actual, key=_row_key), sorted(expected, key=_row_key)):
                return Verdict.ok(f"{spreadsheet!r}!{range} holds the expected rows (any order)")
        elif _rows_equal(actual, expected):
            return Verdict.ok(f"{spreadsheet!r}!{range} holds the expected values")
        seen.append(f"it holds {clip(actual, 300)}")
    return Verdict.fail(f"{spreadsheet!r}!{range} should be {clip(expected, 300)} but " + " / ".join(seen[:2]))


def _hex(color: dict | None) -> str | None:
    if not color:
        return None
    rgb = color.get("rgbColor", color)
    return "".join(f"{round(float(rgb.get(c, 0)) * 255):02X}" for c in ("red", "green", "blue"))


@judge("google.sheet_format")
def sheet_format(ctx: StepContext, spreadsheet: str, range: str, bold: bool | None = None,
                 italic: bool | None = None, background: str | None = None, number_format: str | None = None,
                 horizontal: str | None = None) -> Verdict:
    """Every cell of the A1 ``range`` ("Sheet1!A1:C1") of the spreadsheet ``spreadsheet`` has the format
    given: ``bold``, ``italic``, ``background`` (RGB hex "FFFF00"), ``number_format`` pattern, ``horizontal``."""
    mime = MIME_SHORT["spreadsheet"]
    found = _find_by_title(ctx, spreadsheet, mime)
    if not found:
        return _missing_doc(ctx, spreadsheet, mime, "spreadsheet")
    data = clients(ctx).sheets.spreadsheets().get(spreadsheetId=found[0]["id"], ranges=[range],
                                                  includeGridData=True).execute()
    grid = data["sheets"][0]["data"][0]
    want = {k: v for k, v in {"bold": bold, "italic": italic, "background": background and background.lstrip("#").upper(),
                              "number_format": number_format, "horizontal": horizontal and horizontal.upper()}.items()
            if v is not None}
    wrong = []
    for r, row in enumerate(grid.get("rowData", []) or [{}]):
        for c, cell in enumerate(row.get("values", []) or [{}]):
            fmt = cell.get("userEnteredFormat", {})
            have = {"bold": bool(fmt.get("textFormat", {}).get("bold")), "italic": bool(fmt.get("textFormat", {}).get("italic")),
                    "background": _hex(fmt.get("backgroundColorStyle") or fmt.get("backgroundColor")),
                    "number_format": fmt.get("numberFormat", {}).get("pattern"),
                    "horizontal": fmt.get("horizontalAlignment")}
            bad = [f"{k} {have[k]!r}" for k, v in want.items() if have[k] != v]
            if bad:
                wrong.append(f"cell {r + 1},{c + 1} of {range}: " + ", ".join(bad))
    if wrong:
        return Verdict.fail(f"{spreadsheet!r}: want {want}; " + "; ".join(wrong[:5]))
    return Verdict.ok(f"{spreadsheet!r} {range} is formatted as expected")
