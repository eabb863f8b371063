"""pptx.* judges: slides, their count, and the look of runs (direct or inherited from the master)."""

from pathlib import Path

import pytest
from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge
from pptx import Presentation
from pptx.enum.text import PP_ALIGN
from pptx.util import Pt as PPt


def j(judge_name: str, ctx: StepContext, **params: object) -> Verdict:
    v = run_judge(judge_name, params, ctx)
    assert not v.error, v.feedback
    return v


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


# --- pptx.runs -------------------------------------------------------------------------


@pytest.fixture
def styled_deck(ctx: StepContext) -> Path:
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


def test_pptx_direct_and_master_inherited(ctx: StepContext, styled_deck: Path) -> None:
    assert j("pptx.runs", ctx, path="deck.pptx", slide=0, text="12%", bold=True, size=32, font="Arial").passed
    v = j("pptx.runs", ctx, path="deck.pptx", text="12%", size=28)
    assert not v.passed and "size 32.0 (want 28" in v.feedback
    v = j("pptx.runs", ctx, path="deck.pptx", text="Revenue grew", bold=True)
    assert not v.passed and "bold False" in v.feedback
    # the default template's master: titles 44 pt, first-level body text 32 pt
    assert j("pptx.runs", ctx, path="deck.pptx", text="Quarterly results", size=44, bold=False).passed
    assert j("pptx.runs", ctx, path="deck.pptx", text="Revenue grew", size=32).passed
    assert not j("pptx.runs", ctx, path="deck.pptx", slide=1, text="12%", bold=True).passed  # no slide 1
