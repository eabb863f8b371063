"""pptx.format (judges/_pptx_checks.py): portrait slides, a slide's transition, the slide master's
number colour; feedback says what was found. Verdicts against OSWorld's Impress metrics:
tests/runtime/importers/osworld_conformance/test_conformance_slides.py."""

from __future__ import annotations

from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge
from lxml import etree
from pptx import Presentation

P = "http://schemas.openxmlformats.org/presentationml/2006/main"


def j(ctx: StepContext, **params: object) -> Verdict:
    v = run_judge("pptx.format", {"path": "out.pptx", **params}, ctx)
    assert not v.error, v.feedback
    return v


def test_portrait_and_transition(ctx: StepContext) -> None:
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    etree.SubElement(etree.SubElement(slide._element, f"{{{P}}}transition"), f"{{{P}}}fade")
    prs.save(str(ctx.workspace / "out.pptx"))
    v = j(ctx, portrait=True, transition="dissolve")
    assert not v.passed and "not portrait" in v.feedback, v.feedback
    assert "slide 0's transition is not dissolve (it holds ['fade'])" in v.feedback, v.feedback
    assert j(ctx, transition="fade").passed
    v = j(ctx, transition="fade", transition_slide=3)
    assert not v.passed and "it has no slide 3" in v.feedback


def test_number_color_needs_two_master_colours(ctx: StepContext) -> None:
    Presentation().save(str(ctx.workspace / "out.pptx"))
    v = j(ctx, number_color="red")
    assert not v.passed and "fewer than two solid RGB colours" in v.feedback


def test_background_colour_of_every_slide(ctx: StepContext) -> None:
    from pptx.dml.color import RGBColor

    prs = Presentation()
    for color in ("0000FF", "00FF00"):
        slide = prs.slides.add_slide(prs.slide_layouts[6])
        slide.background.fill.solid()
        slide.background.fill.fore_color.rgb = RGBColor.from_string(color)
    prs.save(str(ctx.workspace / "out.pptx"))
    v = j(ctx, background_rgb=[0, 0, 255])
    assert not v.passed and "slide 1's background is 00FF00, not 0000FF" in v.feedback, v.feedback
