"""docx.* judges: text, paragraphs, and the look of runs (direct or inherited through styles)."""

from pathlib import Path

import docx
import pytest
from deskact.runtime.tasks.steps import StepContext, Verdict, lookup, run_judge
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.shared import Pt, RGBColor


def j(judge_name: str, ctx: StepContext, **params: object) -> Verdict:
    v = run_judge(judge_name, params, ctx)
    assert not v.error, v.feedback
    return v


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


# --- docx.runs -------------------------------------------------------------------------


@pytest.fixture
def letter(ctx: StepContext) -> Path:
    d = docx.Document()
    heading = d.styles["Heading 1"]
    heading.font.name = "Arial"
    heading.font.size = Pt(20)
    d.add_paragraph("Notice of change", style="Heading 1").alignment = WD_ALIGN_PARAGRAPH.CENTER
    body = d.add_paragraph("Rent is due on the ")
    due = body.add_run("first day")
    due.bold, due.font.name, due.font.color.rgb = True, "Times New Roman", RGBColor(0xC0, 0, 0)
    body.add_run(" of each month.")
    d.add_paragraph("Signed, the landlord")
    p = ctx.workspace / "letter.docx"
    d.save(p)
    return p


def test_docx_inherited_heading_font_and_size(ctx: StepContext, letter: Path) -> None:
    v = j("docx.runs", ctx, path="letter.docx", text="Notice of change", font="Arial", size=20, bold=True,
          alignment="center")  # font and size from the style, bold from Heading 1's base in the template
    assert v.passed, v.feedback
    v = j("docx.runs", ctx, path="letter.docx", text="Notice of change", font="Times New Roman")
    assert not v.passed and "font 'Arial' (want 'Times New Roman')" in v.feedback
    v = j("docx.runs", ctx, path="letter.docx", text="Notice of change", alignment="left")
    assert not v.passed and "alignment 'center'" in v.feedback


def test_docx_direct_run_formatting_and_near_misses(ctx: StepContext, letter: Path) -> None:
    assert j("docx.runs", ctx, path="letter.docx", text="first day", bold=True, font="Times New Roman",
             color="C00000").passed
    v = j("docx.runs", ctx, path="letter.docx", text="due on the first day", bold=True)  # a wider phrase
    assert not v.passed and "'Rent is due on the ': bold False" in v.feedback
    assert not j("docx.runs", ctx, path="letter.docx", text="first day", italic=True).passed
    assert not j("docx.runs", ctx, path="letter.docx", text="first day", color="0000FF").passed
    # the body text's font comes from the document defaults: python-docx's template theme's minor font
    assert j("docx.runs", ctx, path="letter.docx", text="Signed", font="Cambria", bold=False).passed
    assert "no text 'absent' found" in j("docx.runs", ctx, path="letter.docx", text="absent", bold=True).feedback


def test_docx_text_keep_blank_counts_emptied_paragraphs(ctx: StepContext) -> None:
    d = docx.Document()
    for text in ("", "Project proposal", "It will cost 12000 EUR."):
        d.add_paragraph(text)
    d.save(ctx.workspace / "p.docx")
    want = "Project proposal\nIt will cost 12000 EUR."
    assert j("docx.text", ctx, path="p.docx", equals=want).passed
    assert not j("docx.text", ctx, path="p.docx", equals=want, keep_blank=True).passed
