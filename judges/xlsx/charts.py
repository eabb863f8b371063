"""xlsx.charts: a sheet's charts against a gold sheet's, as OSWorld's ``compare_table`` ``chart``
rule compares them (``load_charts``): each chart is known by its series (the value and category
references of every series), and for each the chosen properties must match: ``type`` (the chart
element, e.g. barChart), ``title``, ``legend`` (its position), ``xtitle``/``ytitle``/``ztitle``
(the axes' titles), ``direction`` (a bar chart's bar or col). Charts are read by openpyxl."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from ...runtime.tasks.helpers import clip, gold_file
from ...runtime.tasks.step_paths import StepPath
from ...runtime.tasks.steps import StepContext, Verdict, judge

ChartProp = Literal["type", "title", "legend", "xtitle", "ytitle", "ztitle", "direction", "width", "height"]


class _Unreadable(Exception):
    """A property the chart does not have (a direction on a pie chart): OSWorld's metric fails."""


def _ref(data: Any) -> str:
    for kind in ("numRef", "strRef"):
        ref = getattr(data, kind, None)
        if ref is not None and getattr(ref, "f", None) is not None:
            return str(ref.f)
    return ""


def _rich_title(title: Any) -> Any:
    try:
        return title.tx.rich.p[0].r[0].t
    except (AttributeError, IndexError, TypeError):
        return None


def _info(chart: Any, props: set[str]) -> dict[str, Any]:
    info: dict[str, Any] = {}
    if "title" in props:
        info["title"] = _rich_title(chart.title)
    if "legend" in props:
        info["legend"] = chart.legend.position if chart.legend is not None else None
    for prop in ("width", "height"):
        if prop in props:
            info[prop] = getattr(chart, prop)
    if "type" in props:
        info["type"] = chart.tagname
    if "direction" in props:
        if not hasattr(chart, "barDir"):
            raise _Unreadable(f"a {chart.tagname} has no bar direction")
        info["direction"] = chart.barDir
    for prop, axis in (("xtitle", "x_axis"), ("ytitle", "y_axis"), ("ztitle", "z_axis")):
        if prop in props:
            info[prop] = _rich_title(getattr(getattr(chart, axis, None), "title", None))
    return info


def sheet_charts(path: Path | StepPath, sheet: str | int, props: set[str]) -> dict[str, dict[str, Any]]:
    """Series -> chart properties of one sheet; charts with the same series count once, the last
    one winning, and a sheet that is not there has no charts, as in OSWorld."""
    import openpyxl

    # An agent's file (StepPath) is read through its descriptor, never opened again by name.
    book = openpyxl.load_workbook(path.bytes_io() if isinstance(path, StepPath) else path)
    names = book.sheetnames
    name = (names[sheet] if 0 <= sheet < len(names) else None) if isinstance(sheet, int) else sheet
    if name not in names:
        return {}
    charts = {}
    for chart in book[name]._charts:
        series = ";".join(f"{_ref(s.val)},{_ref(s.cat)}" for s in chart.series)
        charts[series] = _info(chart, props)
    return charts


@judge("xlsx.charts")
def xlsx_charts(ctx: StepContext, path: str, gold: str, props: list[ChartProp], sheet: str | int = 0,
                gold_sheet: str | int | None = None) -> Verdict:
    """The charts of ``sheet`` (a name, or a position: 0 is the first sheet) in ``path`` are those of
    ``gold_sheet`` (default ``sheet``) in the gold workbook ``gold``: the same series (value and
    category references), and for each chart the same ``props`` (type, title, legend position,
    x/y/z axis titles, bar direction, width, height). Feedback names the chart that differs."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be a spreadsheet but does not exist")
    wanted = set(props)
    try:
        actual = sheet_charts(p, sheet, wanted)
        expected = sheet_charts(gold_file(ctx, gold), sheet if gold_sheet is None else gold_sheet, wanted)
    except _Unreadable as exc:
        return Verdict.fail(f"{p.name}: {exc}")
    if actual == expected:
        return Verdict.ok(f"{p.name} has the gold workbook's {len(actual)} chart(s)")
    if set(actual) != set(expected):
        return Verdict.fail(f"{p.name} has charts of series {clip(sorted(actual), 160)}; the gold workbook has"
                            f" {clip(sorted(expected), 160)}")
    series = next(s for s in actual if actual[s] != expected[s])
    diffs = [f"{k} {actual[series].get(k)!r} (gold: {expected[series].get(k)!r})"
             for k in sorted(wanted) if actual[series].get(k) != expected[series].get(k)]
    return Verdict.fail(f"{p.name}: the chart of {clip(series, 80)} has " + ", ".join(diffs))
