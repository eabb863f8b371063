"""xlsx.pivots: a sheet's pivot tables against the gold sheet's, by source and chosen properties;
feedback names what differs. Verdicts against OSWorld's compare_table pivot_table rule:
tests/runtime/importers/osworld_conformance/test_conformance_table.py."""

from __future__ import annotations

from pathlib import Path

import openpyxl
from deskact.runtime.tasks.steps import StepContext, run_judge


def _book(path: Path, subtotal: str) -> None:
    from openpyxl.pivot.cache import CacheDefinition, CacheField, CacheSource, SharedItems, WorksheetSource
    from openpyxl.pivot.table import DataField, Location, PivotField, RowColField, TableDefinition

    wb = openpyxl.Workbook()
    wb.active.title = "Data"
    for row in (["Item", "Sales"], ["Tea", 3], ["Cake", 2]):
        wb.active.append(row)
    table = TableDefinition(name="P", cacheId=1, dataCaption="Values", location=Location(
        ref="A1:B3", firstHeaderRow=1, firstDataRow=1, firstDataCol=1), pivotFields=[PivotField(), PivotField()],
        rowFields=[RowColField(x=0)], dataFields=[DataField(name="S", fld=1, subtotal=subtotal)])
    table.cache = CacheDefinition(cacheSource=CacheSource(type="worksheet", worksheetSource=WorksheetSource(
        ref="A1:B3", sheet="Data")), cacheFields=[CacheField(name="Item", sharedItems=SharedItems()),
                                                  CacheField(name="Sales", sharedItems=SharedItems())])
    sheet = wb.create_sheet("Pivot")
    sheet._pivots.append(table)
    wb.save(path)


def test_pivot_data_fields_compared(ctx: StepContext) -> None:
    assert ctx.gold is not None
    _book(ctx.gold / "gold.xlsx", "sum")
    _book(ctx.workspace / "out.xlsx", "count")
    params = {"path": "out.xlsx", "gold": "gold.xlsx", "sheet": "Pivot", "props": ["row_fields", "data_fields"]}
    v = run_judge("xlsx.pivots", params, ctx)
    # No field lists items, so OSWorld's reading shifts every field index by both (1 - 2 = -1).
    assert not v.passed and "data_fields ['-1;;count;normal'] (gold: ['-1;;sum;normal'])" in v.feedback, v.feedback
    assert run_judge("xlsx.pivots", {**params, "props": ["row_fields"]}, ctx).passed


def test_none_fails_is_agentstudio_reading(ctx: StepContext) -> None:
    # AgentStudio's copy of the rule (sheets_evaluator.py): `pivots1 == {} or pivots2 == {} or pivots1 != pivots2` fails
    assert ctx.gold is not None
    _book(ctx.gold / "gold.xlsx", "sum")
    _book(ctx.workspace / "out.xlsx", "sum")
    params = {"path": "out.xlsx", "gold": "gold.xlsx", "sheet": "Pivot", "props": ["row_fields"], "none_fails": True}
    assert run_judge("xlsx.pivots", params, ctx).passed
    assert not run_judge("xlsx.pivots", {**params, "sheet": "Data"}, ctx).passed  # no pivot table on either side
    assert run_judge("xlsx.pivots", {**params, "sheet": "Data", "none_fails": False}, ctx).passed  # OSWorld passes it
    v = run_judge("xlsx.pivots", {**params, "sheet": "Data", "gold_sheet": "Pivot"}, ctx)
    assert not v.passed and not v.error and "its sheet has no pivot table" in v.feedback, v.feedback
