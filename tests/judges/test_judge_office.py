import shutil
from datetime import date, datetime
from pathlib import Path

import docx
import openpyxl
import pytest
from deskact.runtime.tasks.steps import StepContext, Verdict, lookup, run_judge, run_reset
from docx.enum.text import WD_ALIGN_PARAGRAPH
from pptx import Presentation
from pptx.enum.text import PP_ALIGN


def j(judge_name: str, ctx: StepContext, **params: object) -> Verdict:
    v = run_judge(judge_name, params, ctx)
    assert not v.error, v.feedback
    return v


# ---- xlsx ---------------------------------------------------------------

@pytest.fixture
def book(ctx: StepContext) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Q1"
    ws.append(["Region", "Sales", "When"])
    ws.append(["North", 3.0, datetime(2024, 3, 1)])
    ws.append(["South", 7, None])
    wb.create_sheet("Totals")["B2"] = "ok"
    p = ctx.workspace / "s.xlsx"
    wb.save(p)
    return p


def test_xlsx_cells_pass_with_numeric_and_date_equivalence(ctx: StepContext, book: Path) -> None:
    v = j("xlsx.cells", ctx, path="s.xlsx", sheet="Q1",
          cells={"A2": "North", "B2": 3, "B3": "7", "C2": "2024-03-01", "C3": None, "Totals!B2": "ok"})
    assert v.passed, v.feedback
    assert j("xlsx.cells", ctx, path="s.xlsx", cells={"C2": date(2024, 3, 1)}).passed  # active sheet


def test_xlsx_cells_fail_lists_each_wrong_cell(ctx: StepContext, book: Path) -> None:
    v = j("xlsx.cells", ctx, path="s.xlsx", sheet="Q1", cells={"B2": 4, "A3": "south", "C3": 1, "A1": "Region"})
    assert v.feedback == "s.xlsx sheet 'Q1': B2 should be 4 but is 3; A3 should be 'south' but is 'South'; C3 should be 1 but is empty"
    v = j("xlsx.cells", ctx, path="s.xlsx", sheet="Q2", cells={"A1": 1})
    assert v.feedback == "s.xlsx has no sheet 'Q2' (sheets: ['Q1', 'Totals'])"
    v = j("xlsx.cells", ctx, path="none.xlsx", cells={"A1": 1})
    assert v.feedback == "none.xlsx should be a spreadsheet but does not exist"


def test_xlsx_cells_validation() -> None:
    spec = lookup("judge", "xlsx.cells")
    with pytest.raises(ValueError, match=r"not cell references: \['B', '1A'\]"):
        spec.validate({"path": "a.xlsx", "cells": {"B": 1, "1A": 2, "Sheet 2!C3": 3}})
    with pytest.raises(ValueError, match="missing param `cells` for `xlsx.cells`"):
        spec.validate({"path": "a.xlsx"})
    with pytest.raises(ValueError, match="unknown param `sheets` for `xlsx.cells`; did you mean `sheet`?"):
        spec.validate({"path": "a.xlsx", "cells": {"A1": 1}, "sheets": "x"})


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")
def test_xlsx_formulas_without_cached_values_are_computed(ctx: StepContext) -> None:
    # openpyxl writes formulas without results: the judge must compute them, not see None.
    run_reset("office.xlsx", {"path": "f.xlsx", "sheets": {"S": [[2, 3, "=A1*B1", "=SUM(A1:C1)"]]}}, ctx)
    assert openpyxl.load_workbook(ctx.workspace / "f.xlsx", data_only=True)["S"]["C1"].value is None
    v = j("xlsx.cells", ctx, path="f.xlsx", cells={"C1": 6, "D1": 11.0})
    assert v.passed, v.feedback
    v = j("xlsx.cells", ctx, path="f.xlsx", cells={"C1": 7})
    assert v.feedback == "f.xlsx: C1 should be 7 but is 6"


def test_xlsx_sheets(ctx: StepContext, book: Path) -> None:
    assert j("xlsx.sheets", ctx, path="s.xlsx", names=["Q1", "Totals"]).passed
    assert j("xlsx.sheets", ctx, path="s.xlsx", names=["Totals", "Q1"], ordered=False).passed
    v = j("xlsx.sheets", ctx, path="s.xlsx", names=["Totals", "Q1"])
    assert v.feedback == "s.xlsx should have sheets ['Totals', 'Q1'] but has ['Q1', 'Totals']"


# ---- docx ---------------------------------------------------------------

@pytest.fixture
def memo(ctx: StepContext) -> Path:
    d = docx.Document()
    d.add_paragraph("Quarterly Report", style="Heading 1")  # bold through its style
    d.add_paragraph("")
    p = d.add_paragraph()
    p.add_run("Sales ").bold = True
    p.add_run("grew")
    p.alignment = WD_ALIGN_PARAGRAPH.CENTER
    d.add_paragraph("Thanks.").alignment = WD_ALIGN_PARAGRAPH.JUSTIFY
    t = d.add_table(rows=1, cols=2)
    t.rows[0].cells[0].text, t.rows[0].cells[1].text = "k", "v"
    path = ctx.workspace / "memo.docx"
    d.save(str(path))
    return path


def test_docx_text(ctx: StepContext, memo: Path) -> None:
    assert j("docx.text", ctx, path="memo.docx", contains="Sales grew").passed
    assert j("docx.text", ctx, path="memo.docx", equals="Quarterly Report\nSales grew\nThanks.\nk\tv").passed
    assert j("docx.text", ctx, path="memo.docx", regex=r"^Thanks\.$").passed
    v = j("docx.text", ctx, path="memo.docx", contains="Profit")
    assert v.feedback == "the text of memo.docx should contain 'Profit' but is 'Quarterly Report\\n\\nSales grew\\nThanks.\\nk\\tv'"
    with pytest.raises(ValueError, match="exactly one of equals, contains, regex"):
        lookup("judge", "docx.text").validate({"path": "m.docx", "equals": "a", "regex": "b"})


def test_docx_paragraph_pass(ctx: StepContext, memo: Path) -> None:
    assert j("docx.paragraph", ctx, path="memo.docx", index=0, text="Quarterly Report", bold=True, style="Heading 1").passed
    assert j("docx.paragraph", ctx, path="memo.docx", index=1, text="Sales grew", alignment="center").passed
    assert j("docx.paragraph", ctx, path="memo.docx", index=-1, alignment="justify", bold=False).passed


def test_docx_paragraph_fail(ctx: StepContext, memo: Path) -> None:
    v = j("docx.paragraph", ctx, path="memo.docx", index=1, text="Sales fell", alignment="right", bold=True)
    assert v.feedback == ("memo.docx paragraph 1 ('Sales grew'): text should be 'Sales fell' but is 'Sales grew'; "
                          "alignment should be right but is center; should be bold but 'grew' is not")
    v = j("docx.paragraph", ctx, path="memo.docx", index=0, bold=False)
    assert v.feedback == "memo.docx paragraph 0 ('Quarterly Report'): should not be bold but 'Quarterly Report' is"
    v = j("docx.paragraph", ctx, path="memo.docx", index=5)
    assert v.feedback.startswith("memo.docx has only 3 non-empty paragraphs, so there is no paragraph 5")
    with pytest.raises(ValueError, match=r"param `alignment` of `docx.paragraph` = 'middle'"):
        lookup("judge", "docx.paragraph").validate({"path": "m.docx", "index": 0, "alignment": "middle"})


# ---- pptx ---------------------------------------------------------------

@pytest.fixture
def deck(ctx: StepContext) -> Path:
    prs = Presentation()
    s0 = prs.slides.add_slide(prs.slide_layouts[0])  # title slide: title centred by the layout
    s0.shapes.title.text = "Welcome"
    s1 = prs.slides.add_slide(prs.slide_layouts[1])
    s1.shapes.title.text = "Agenda"
    s1.shapes.title.text_frame.paragraphs[0].alignment = PP_ALIGN.RIGHT
    s1.placeholders[1].text_frame.text = "Budget\nHiring"
    path = ctx.workspace / "d.pptx"
    prs.save(str(path))
    return path


def test_pptx_slide_pass(ctx: StepContext, deck: Path) -> None:
    assert j("pptx.slide", ctx, path="d.pptx", index=0, title="Welcome", alignment="center").passed
    assert j("pptx.slide", ctx, path="d.pptx", index=-1, title="Agenda", alignment="right", contains="Hiring").passed
    assert j("pptx.count", ctx, path="d.pptx", count=2).passed


def test_pptx_slide_fail(ctx: StepContext, deck: Path) -> None:
    v = j("pptx.slide", ctx, path="d.pptx", index=1, title="Plan", alignment="left", contains="Sales")
    assert v.feedback == ("d.pptx slide 1: title should be 'Plan' but is 'Agenda'; title alignment should be left "
                          "but is right; should contain 'Sales' but its text is 'Agenda\\nBudget\\nHiring'")
    v = j("pptx.slide", ctx, path="d.pptx", index=2, title="x")
    assert v.feedback == "d.pptx has 2 slides, so there is no slide 2"
    v = j("pptx.count", ctx, path="d.pptx", count=3)
    assert v.feedback == "d.pptx should have 3 slides but has 2 (titles: ['Welcome', 'Agenda'])"
    v = j("pptx.slide", ctx, path="nope.pptx", index=0, title="x")
    assert v.feedback == "nope.pptx should be a presentation but does not exist"


def test_xlsx_formula(ctx: StepContext) -> None:
    run_reset("office.xlsx", {"path": "f.xlsx", "sheets": {"S": [[2, 3, "=sum( $A$1:B1 )", 5]]}}, ctx)
    assert j("xlsx.formula", ctx, path="f.xlsx", cells={"C1": "=SUM(A1:B1)"}).passed
    assert j("xlsx.formula", ctx, path="f.xlsx", cells={"C1": "="}).passed
    v = j("xlsx.formula", ctx, path="f.xlsx", cells={"C1": "=A1+B1", "D1": "="})
    assert v.feedback == "f.xlsx: C1 should hold =A1+B1 but holds =sum( $A$1:B1 ); D1 should hold a formula but holds the value 5"
