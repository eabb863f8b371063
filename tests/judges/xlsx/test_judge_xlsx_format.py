"""xlsx.format and xlsx.validation on workbooks written with openpyxl: right ones pass, near misses fail."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.worksheet.datavalidation import DataValidation


def j(name: str, ctx: StepContext, **params: object) -> Verdict:
    v = run_judge(name, {"path": "b.xlsx", "sheet": "Data", **params}, ctx)
    assert not v.error, v.feedback
    return v


@pytest.fixture
def book(ctx: StepContext) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Data"
    ws.append(["Item", "Share", "Status"])
    ws.append(["Tea", 0.25, "open"])
    ws.append(["Cake", 0.75, "done"])
    for c in ws[1]:
        c.font = Font(bold=True, color="FFFFFFFF", size=12, name="Arial")
        c.fill = PatternFill("solid", fgColor="FF1F4E79")
        c.alignment = Alignment(horizontal="center")
    for r in (2, 3):
        ws.cell(r, 2).number_format = "0.0%"
    ws["E1"], ws["E2"], ws["E3"] = "open", "done", "late"
    status = DataValidation(type="list", formula1="=$E$1:$E$3")
    status.add("C2:C20")
    share = DataValidation(type="decimal", operator="between", formula1="0", formula2="1")
    share.add("B2:B20")
    ws.add_data_validation(status)
    ws.add_data_validation(share)
    yes_no = DataValidation(type="list", formula1='"Yes,No"')
    yes_no.add("D2:D5")
    ws.add_data_validation(yes_no)
    p = ctx.workspace / "b.xlsx"
    wb.save(p)
    return p


def test_format_passes_for_the_formatted_cells(ctx: StepContext, book: Path) -> None:
    v = j("xlsx.format", ctx, cells="A1:C1", bold=True, fill="1F4E79", font_color="#FFFFFF", font_size=12,
          font_name="Arial", horizontal="center")
    assert v.passed, v.feedback
    assert j("xlsx.format", ctx, cells="B2:B3", number_format="0.0%").passed


def test_format_near_misses_name_the_cell(ctx: StepContext, book: Path) -> None:
    v = j("xlsx.format", ctx, cells="A1:A2", bold=True)  # the header is bold, the row below not
    assert not v.passed and "A2 ('Tea'): bold False (want True)" in v.feedback
    v = j("xlsx.format", ctx, cells="B1", fill="FFFF00")
    assert not v.passed and "fill '1F4E79' (want 'FFFF00')" in v.feedback
    assert not j("xlsx.format", ctx, cells="B2", number_format="0.00%").passed
    assert not j("xlsx.format", ctx, cells="A2", fill="1F4E79").passed  # no fill at all


def test_validation_lists_from_ranges_and_inline(ctx: StepContext, book: Path) -> None:
    assert j("xlsx.validation", ctx, cells="C2:C10", values=["open", "done", "late"]).passed
    assert j("xlsx.validation", ctx, cells="D2:D5", values=["Yes", "No"]).passed
    v = j("xlsx.validation", ctx, cells="C2:C10", values=["open", "done"])
    assert not v.passed and "choices ['open', 'done', 'late']" in v.feedback
    v = j("xlsx.validation", ctx, cells="C2:C30", values=["open", "done", "late"])  # beyond the rule's range
    assert not v.passed and "no data validation covers C2:C30" in v.feedback


def test_validation_number_bounds(ctx: StepContext, book: Path) -> None:
    assert j("xlsx.validation", ctx, cells="B2:B20", type="decimal", min=0, max=1).passed
    v = j("xlsx.validation", ctx, cells="B2:B20", type="whole", min=0, max=1)
    assert not v.passed and "type 'decimal' (want 'whole')" in v.feedback
    assert not j("xlsx.validation", ctx, cells="B2:B20", type="decimal", min=0, max=100).passed
    assert not j("xlsx.validation", ctx, cells="A2:A3", type="decimal").passed
