"""xlsx.charts: a sheet's charts against the gold sheet's, by series and chosen properties; the
feedback names the chart and what differs. Verdicts against OSWorld's compare_table chart rule:
tests/runtime/importers/osworld_conformance/test_conformance_table.py."""

from __future__ import annotations

from pathlib import Path

import openpyxl
from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge
from openpyxl.chart import BarChart, PieChart, Reference


def _book(path: Path, title: str = "Sales", pie: bool = False, rows: int = 3) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    for row in (["Item", "Qty"], ["Tea", 3], ["Cake", 1]):
        ws.append(row)
    chart = PieChart() if pie else BarChart()
    chart.title = title
    chart.add_data(Reference(ws, min_col=2, min_row=1, max_row=rows), titles_from_data=True)
    ws.add_chart(chart, "D2")
    wb.save(path)


def j(ctx: StepContext, **params: object) -> Verdict:
    v = run_judge("xlsx.charts", {"path": "out.xlsx", "gold": "gold.xlsx", **params}, ctx)
    assert not v.error, v.feedback
    return v


def test_charts_compared_by_series_and_props(ctx: StepContext) -> None:
    assert ctx.gold is not None
    _book(ctx.gold / "gold.xlsx")
    _book(ctx.workspace / "out.xlsx", title="Revenue")
    assert j(ctx, props=["type"]).passed
    v = j(ctx, props=["type", "title"])
    assert not v.passed and "has title 'Revenue' (gold: 'Sales')" in v.feedback, v.feedback
    _book(ctx.workspace / "out.xlsx", rows=2)
    v = j(ctx, props=["type"])
    assert not v.passed and "series [\"'Sheet'!$B$2,\"]; the gold workbook has [\"'Sheet'!$B$2:$B$3,\"]" in v.feedback


def test_a_bar_direction_asked_of_a_pie_fails(ctx: StepContext) -> None:
    assert ctx.gold is not None
    _book(ctx.gold / "gold.xlsx")
    _book(ctx.workspace / "out.xlsx", pie=True)
    v = j(ctx, props=["type", "direction"])
    assert not v.passed and "a pieChart has no bar direction" in v.feedback, v.feedback
