"""xlsx.pivots: a sheet's pivot tables against a gold sheet's, as OSWorld's ``compare_table``
``pivot_table`` rule compares them (``load_pivot_tables``, through openpyxl): each pivot table is
known by its source (type, the source range narrowed by the fields without items on its edges,
the source sheet), and for each the chosen properties must match: ``name``, ``show_total``,
``show_empty_row``, ``show_empty_col``, ``show_headers``, ``location``, ``selection``/``filter``
(the items each field shows or hides, as sets unless ``ordered``; ``filter`` also the page
fields), ``col_fields``, ``row_fields``, ``data_fields`` (field, subtotal, show-as; the name with
``data_fields_name``)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any, Literal

from ...runtime.tasks.helpers import clip, gold_file
from ...runtime.tasks.steps import StepContext, Verdict, judge

PivotProp = Literal["name", "show_total", "show_empty_row", "show_empty_col", "show_headers", "location",
                    "selection", "ordered", "filter", "col_fields", "row_fields", "data_fields", "data_fields_name"]


def _pivot(pvt: Any, props: set[str]) -> tuple[str, dict[str, Any]]:
    from openpyxl.utils import coordinate_to_tuple

    raw = [[(item.h, item.x) for item in field.items if item.x is not None] for field in pvt.pivotFields]
    trimmed = list(itertools.dropwhile(lambda r: len(r) == 0, raw))
    left = len(raw) - len(trimmed)
    selection = list(itertools.dropwhile(lambda r: len(r) == 0, reversed(trimmed)))[::-1]
    right = len(trimmed) - len(selection)
    source = pvt.cache.cacheSource
    first, last = source.worksheetSource.ref.split(":")
    row1, col1 = coordinate_to_tuple(first)
    row2, col2 = coordinate_to_tuple(last)
    key = f"{source.type};{(row1, col1 + left)}:{(row2, col2 - right)};{source.worksheetSource.sheet}"
    info: dict[str, Any] = {}
    for prop, attr in (("name", "name"), ("show_total", "visualTotals"), ("show_empty_row", "showEmptyRow"),
                       ("show_empty_col", "showEmptyCol"), ("show_headers", "showHeaders"), ("location", "location")):
        if prop in props:
            info[prop] = getattr(pvt, attr)
    if "filter" in props or "selection" in props:
        info["selection"] = selection if "ordered" in props else [set(r) for r in selection]
    if "filter" in props:
        info["filter_fields"] = {f.fld for f in pvt.pageFields}
    if "col_fields" in props:
        info["col_fields"] = [f.x - left for f in pvt.colFields]
    if "row_fields" in props:
        info["row_fields"] = [f.x - left for f in pvt.rowFields]
    if "data_fields" in props:
        named = "data_fields_name" in props
        info["data_fields"] = [f"{f.fld - left:d};{f.name if named else ''};{f.subtotal};{f.showDataAs}"
                               for f in pvt.dataFields]
    return key, info


def sheet_pivots(path: Path, sheet: str | int, props: set[str]) -> dict[str, dict[str, Any]]:
    """Source -> pivot table properties of one sheet; a sheet that is not there has none."""
    import openpyxl

    book = openpyxl.load_workbook(str(path))
    names = book.sheetnames
    name = (names[sheet] if 0 <= sheet < len(names) else None) if isinstance(sheet, int) else sheet
    if name not in names:
        return {}
    return dict(_pivot(pvt, props) for pvt in book[name]._pivots)


@judge("xlsx.pivots")
def xlsx_pivots(ctx: StepContext, path: str, gold: str, props: list[PivotProp], sheet: str | int = 0,
                gold_sheet: str | int | None = None, none_fails: bool = False) -> Verdict:
    """The pivot tables of ``sheet`` (a name, or a position: 0 is the first sheet) in ``path`` are
    those of ``gold_sheet`` (default ``sheet``) in the gold workbook ``gold``: the same sources and,
    for each, the same ``props`` (row, column, filter and data fields, selected items, name,
    location, totals and headers shown). ``none_fails``: a sheet with no pivot table on either side
    fails (AgentStudio's copy of the rule; OSWorld's passes two sheets without any). Feedback names
    the pivot table that differs."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be a spreadsheet but does not exist")
    wanted = set(props)
    actual = sheet_pivots(p, sheet, wanted)
    expected = sheet_pivots(gold_file(ctx, gold), sheet if gold_sheet is None else gold_sheet, wanted)
    if none_fails and not (actual and expected):
        return Verdict.fail(f"{p.name}: {'its sheet' if not actual else 'the gold sheet'} has no pivot table")
    if actual == expected:
        return Verdict.ok(f"{p.name} has the gold workbook's {len(actual)} pivot table(s)")
    if set(actual) != set(expected):
        return Verdict.fail(f"{p.name} has pivot tables of {clip(sorted(actual), 160)}; the gold workbook has"
                            f" {clip(sorted(expected), 160)}")
    source = next(s for s in actual if actual[s] != expected[s])
    diffs = [f"{k} {actual[source].get(k)!r} (gold: {expected[source].get(k)!r})"
             for k in sorted(set(actual[source]) | set(expected[source])) if actual[source].get(k) != expected[source].get(k)]
    return Verdict.fail(f"{p.name}: the pivot table of {clip(source, 80)} has " + ", ".join(diffs))
