"""google.slide_title on the emulator: a passing and a failing case each."""

from __future__ import annotations

from typing import Any

from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge, run_reset


def ok(name: str, params: dict[str, Any], g: StepContext) -> Verdict:
    v = run_judge(name, params, g)
    assert v.passed and not v.error, v.feedback
    return v


def bad(name: str, params: dict[str, Any], g: StepContext, *expected: str) -> Verdict:
    v = run_judge(name, params, g)
    assert not v.passed and not v.error, v.feedback
    for text in expected:
        assert text in v.feedback, v.feedback
    return v


def test_slide_title(g: StepContext) -> None:
    run_reset("google.presentation", {"title": "Deck", "slides": [{"title": "Intro", "body": "hi"}, {"title": "End"}]}, g)
    ok("google.slide_title", {"presentation": "Deck", "index": 1, "title": "End", "slide_count": 2}, g)
    ok("google.slide_title", {"presentation": "Deck", "title": "Intro"}, g)
    bad("google.slide_title", {"presentation": "Deck", "index": 0, "title": "End"}, g,
        "slide 0 is not titled 'End': slide titles are ['Intro', 'End']")
    bad("google.slide_title", {"presentation": "Deck", "index": 0, "title": "Intro", "slide_count": 3}, g,
        "has 2 slides, expected 3")
    bad("google.slide_title", {"presentation": "Deck", "index": 5, "title": "Intro"}, g, "slide 5 is not titled")
    bad("google.slide_title", {"presentation": "Dek", "title": "x"}, g, "no presentation titled 'Dek'")
