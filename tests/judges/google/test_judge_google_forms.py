"""google.form_question on the emulator: a passing and a failing case each."""

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


def test_form_question(g: StepContext) -> None:
    run_reset("google.form", {"title": "RSVP", "questions": [
        {"title": "Name", "required": True}, {"title": "Notes", "kind": "paragraph"},
        {"title": "Diet", "kind": "checkbox", "options": ["Vegan", "None"]}]}, g)
    ok("google.form_question", {"form": "RSVP", "title": "name", "kind": "text", "required": True}, g)
    ok("google.form_question", {"form": "RSVP", "title": "Notes", "kind": "paragraph"}, g)
    ok("google.form_question", {"form": "RSVP", "title": "Diet", "kind": "checkbox", "options": ["None", "Vegan"]}, g)
    bad("google.form_question", {"form": "RSVP", "title": "Diet", "kind": "radio"}, g,
        "question 'Diet' is a choiceQuestion CHECKBOX, not a radio question")
    bad("google.form_question", {"form": "RSVP", "title": "Name", "kind": "paragraph"}, g, "not a paragraph question")
    bad("google.form_question", {"form": "RSVP", "title": "Diet", "options": ["Vegan"]}, g,
        "has options ['Vegan', 'None'] instead of ['Vegan']")
    bad("google.form_question", {"form": "RSVP", "title": "Notes", "required": True}, g, "is not required")
    bad("google.form_question", {"form": "RSVP", "title": "Dietary"}, g, "has no question 'Dietary'", "'Diet'")
    bad("google.form_question", {"form": "RSPV", "title": "x"}, g, "no form titled 'RSPV'")
