"""docx.runs and pptx.runs: fonts, sizes and emphasis, direct or inherited through styles."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.shared import Pt, RGBColor
from pptx import Presentation
from pptx.util import Pt as PPt


def j(name: str, ctx: StepContext, **params: object) -> Verdict:
    v = run_judge(name, params, ctx)
    assert not v.error, v.feedback
    return v


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


@pytest.fixture
def deck(ctx: StepContext) -> Path:
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[1])  # title and content
    slide.shapes.title.text = "Quarterly results"
    body = slide.placeholders[1].text_frame
    body.text = "Revenue grew "
    run = body.paragraphs[0].add_run()
    run.text = "12%"
    run.font.bold, run.font.size, run.font.name = True, PPt(32), "Arial"
    p = ctx.workspace / "deck.pptx"
    prs.save(p)
    return p


def test_pptx_direct_and_master_inherited(ctx: StepContext, deck: Path) -> None:
    assert j("pptx.runs", ctx, path="deck.pptx", slide=0, text="12%", bold=True, size=32, font="Arial").passed
    v = j("pptx.runs", ctx, path="deck.pptx", text="12%", size=28)
    assert not v.passed and "size 32.0 (want 28" in v.feedback
    v = j("pptx.runs", ctx, path="deck.pptx", text="Revenue grew", bold=True)
    assert not v.passed and "bold False" in v.feedback
    # the default template's master: titles 44 pt, first-level body text 32 pt
    assert j("pptx.runs", ctx, path="deck.pptx", text="Quarterly results", size=44, bold=False).passed
    assert j("pptx.runs", ctx, path="deck.pptx", text="Revenue grew", size=32).passed
    assert not j("pptx.runs", ctx, path="deck.pptx", slide=1, text="12%", bold=True).passed  # no slide 1
