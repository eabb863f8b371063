"""docx.compare (judges/_docx_compare.py): the gold document's text, tables and line spacing;
feedback names the first difference. Its verdicts against OSWorld's own metrics are checked in
tests/runtime/importers/osworld_conformance/test_conformance_docs.py."""

from __future__ import annotations

from pathlib import Path

import docx
from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge


def _save(path: Path, paragraphs: list[str], cell: str = "3", spacing: float | None = None) -> None:
    doc = docx.Document()
    for text in paragraphs:
        doc.add_paragraph(text).paragraph_format.line_spacing = spacing
    doc.add_table(rows=1, cols=2).cell(0, 1).text = cell
    doc.save(str(path))


def j(ctx: StepContext, **params: object) -> Verdict:
    v = run_judge("docx.compare", {"path": "out.docx", "reference": "gold.docx", **params}, ctx)
    assert not v.error, v.feedback
    return v


def test_words_in_order_pass_whatever_the_blanks(ctx: StepContext) -> None:
    assert ctx.gold is not None
    _save(ctx.gold / "gold.docx", ["Title", "", "Some  text here."])
    _save(ctx.workspace / "out.docx", ["Title", "Some text", "here."])
    assert j(ctx).passed
    v = j(ctx, ignore_blanks=False)
    assert not v.passed and "paragraph 2 is 'Some text' (gold: '')" in v.feedback, v.feedback


def test_a_changed_word_is_named(ctx: StepContext) -> None:
    assert ctx.gold is not None
    _save(ctx.gold / "gold.docx", ["The report is final."])
    _save(ctx.workspace / "out.docx", ["The report is draft."])
    v = j(ctx)
    assert not v.passed and "'The report is draft.'" in v.feedback and "'The report is final.'" in v.feedback
    assert j(ctx, compare=["tables"]).passed


def test_tables_and_line_spacing(ctx: StepContext) -> None:
    assert ctx.gold is not None
    _save(ctx.gold / "gold.docx", ["a", "b"], cell="3", spacing=1.5)
    _save(ctx.workspace / "out.docx", ["a", "b"], cell="4", spacing=2.0)
    v = j(ctx, compare=["tables"])
    assert not v.passed and "table 1 row 1 column 2 is '4' (gold: '3')" in v.feedback
    v = j(ctx, compare=["line_spacing"])
    assert not v.passed and "paragraph 1 ('a') has line spacing 2 lines (gold: 1.5 lines)" in v.feedback
    assert j(ctx, compare=["text"]).passed


def test_missing_document_fails(ctx: StepContext) -> None:
    assert ctx.gold is not None
    _save(ctx.gold / "gold.docx", ["a"])
    v = j(ctx)
    assert not v.passed and "does not exist" in v.feedback


def test_tab_stops_are_named(ctx: StepContext) -> None:
    from docx.enum.text import WD_TAB_ALIGNMENT
    from docx.shared import Inches

    assert ctx.gold is not None
    for name, inches in (("gold.docx", 3.0), ("out.docx", 2.0)):
        doc = docx.Document()
        doc.add_paragraph("Ann Lee\t7").paragraph_format.tab_stops.add_tab_stop(Inches(inches), WD_TAB_ALIGNMENT.RIGHT)
        doc.save(str((ctx.gold if name == "gold.docx" else ctx.workspace) / name))
    v = j(ctx, compare=["tab_stops"])
    assert not v.passed and "the paragraph 'Ann Lee\\t7' has tab stops [('RIGHT', 1828800)] (gold: [('RIGHT', 2743200)])" in v.feedback, v.feedback
    v = j(ctx, compare=["images"], words_before_tab=3)
    assert v.passed  # no pictures either side; words_before_tab belongs to tab_stops
    v = j(ctx, compare=["tab_stops"], words_before_tab=3)
    assert not v.passed and "does not have 3 words before its tab" in v.feedback


def test_empty_paragraphs_dropped_and_pictures_compared(ctx: StepContext) -> None:
    assert ctx.gold is not None
    _save(ctx.gold / "gold.docx", ["a", "b"])
    _save(ctx.workspace / "out.docx", ["a", "", "b"])
    assert not j(ctx, ignore_blanks=False).passed
    assert j(ctx, ignore_blanks=False, drop_empty_paragraphs=True).passed
    assert j(ctx, compare=["pictures"]).passed  # neither holds an image


def test_references_after_the_indicator(ctx: StepContext) -> None:
    assert ctx.gold is not None
    _save(ctx.gold / "gold.docx", ["Intro", "References", "[1] A.", "[2] B."])
    _save(ctx.workspace / "out.docx", ["Intro changed", "References", "[1] A.", "[2] C."])
    v = j(ctx, compare=["references"])
    assert not v.passed and "reference 2 is '[2] C.' (gold: '[2] B.')" in v.feedback, v.feedback
