"""docx.format (judges/_docx_checks.py): the document's own formatting, as OSWorld's Writer
metrics read it; feedback names what is off. Verdicts against desktop-env:
tests/runtime/importers/osworld_conformance/test_conformance_docs.py."""

from __future__ import annotations

import docx
from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge
from docx.enum.text import WD_BREAK, WD_PARAGRAPH_ALIGNMENT
from docx.shared import Pt


def j(ctx: StepContext, **params: object) -> Verdict:
    v = run_judge("docx.format", {"path": "out.docx", **params}, ctx)
    assert not v.error, v.feedback
    return v


def test_each_check_names_what_is_off(ctx: StepContext) -> None:
    doc = docx.Document()
    doc.add_paragraph("Title").paragraph_format.alignment = WD_PARAGRAPH_ALIGNMENT.CENTER
    para = doc.add_paragraph()
    run = para.add_run("slanted")
    run.italic, run.font.size, run.font.name = True, Pt(12), "Arial"
    para.add_run().add_break(WD_BREAK.PAGE)
    doc.add_paragraph().add_run("gone").font.strike = True
    doc.save(str(ctx.workspace / "out.docx"))
    assert j(ctx, first_line_centered=True, last_paragraph_struck=True, any_page_break=True, page_breaks=1).passed
    v = j(ctx, italic_size=14)
    assert not v.passed and "the italic run 'slanted' is 12 pt, not 14 pt" in v.feedback, v.feedback
    v = j(ctx, font="Arial")
    assert not v.passed and "the run 'Title' is in the style font, not Arial" in v.feedback, v.feedback
    v = j(ctx, footer_page_numbers=True, page_breaks=2)
    assert not v.passed and "section 1's footer ('') shows no page number" in v.feedback
    assert "it has 1 page breaks, not 2" in v.feedback


def test_missing_document_fails(ctx: StepContext) -> None:
    v = j(ctx, first_line_centered=True)
    assert not v.passed and "does not exist" in v.feedback
