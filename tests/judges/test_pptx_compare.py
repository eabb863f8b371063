"""pptx.compare (judges/_pptx_compare.py): a presentation against a gold one; feedback names the
first difference. Verdicts against OSWorld's own compare_pptx_files are checked in
tests/runtime/importers/osworld_conformance/test_conformance_slides.py."""

from __future__ import annotations

from pathlib import Path

from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge
from pptx import Presentation
from pptx.util import Pt


def _save(path: Path, title: str = "Plan", size: int = 24, slides: int = 1) -> None:
    prs = Presentation()
    for _ in range(slides):
        slide = prs.slides.add_slide(prs.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text = "First point"
        slide.placeholders[1].text_frame.paragraphs[0].runs[0].font.size = Pt(size)
    prs.save(str(path))


def j(ctx: StepContext, **params: object) -> Verdict:
    v = run_judge("pptx.compare", {"path": "out.pptx", "reference": "gold.pptx", **params}, ctx)
    assert not v.error, v.feedback
    return v


def test_same_deck_passes_and_each_difference_is_named(ctx: StepContext) -> None:
    assert ctx.gold is not None
    _save(ctx.gold / "gold.pptx")
    _save(ctx.workspace / "out.pptx")
    assert j(ctx).passed
    _save(ctx.workspace / "out.pptx", title="Plans")
    v = j(ctx)
    assert not v.passed and "slide 1 shape 1 (Title 1) has the text 'Plans' (gold: 'Plan')" in v.feedback, v.feedback
    _save(ctx.workspace / "out.pptx", size=30)
    v = j(ctx)
    assert not v.passed and "has size 381000 (gold: 304800)" in v.feedback, v.feedback
    assert j(ctx, ignore=["font_size"]).passed
    _save(ctx.workspace / "out.pptx", slides=2)
    v = j(ctx)
    assert not v.passed and "it has 2 slides; the gold presentation has 1" in v.feedback
    assert j(ctx, ignore=["number_of_slides"]).passed


def test_missing_presentation_fails(ctx: StepContext) -> None:
    assert ctx.gold is not None
    _save(ctx.gold / "gold.pptx")
    v = j(ctx)
    assert not v.passed and "does not exist" in v.feedback
