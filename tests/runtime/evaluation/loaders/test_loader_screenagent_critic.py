"""ScreenAgent's evaluator steps as a critic set, from the fixture folder in ScreenAgent's layout."""

from __future__ import annotations

from pathlib import Path

from deskact.runtime.evaluation.loaders import load_any
from deskact.runtime.evaluation.samples import CriticSample

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "evaluation" / "screenagent" / "test"
SESSION = "5f0c2a9e1b7d4c3a9e8f6d5c4b3a2910"


def test_a_verdict_and_its_negative() -> None:
    ds = load_any(FIXTURE, "screenagent-critic")
    samples = [s for s in ds.samples if isinstance(s, CriticSample)]
    assert ds.info.kind == "critic" and len(samples) == 2
    done, negative = samples
    # The evaluator saw the line fixed: the sub-task is done.
    assert (done.success, done.final_screenshot) == (True, f"{SESSION}/images/2024-01-13_21-40-18-219712.jpg")
    assert done.instruction == "Add the missing parenthesis. (a step of the task: Find the wrong line of code and fix it)"
    assert done.steps == [] and done.task == SESSION
    # The dataset's negative: the same sub-task on the screen from before it was done.
    assert (negative.success, negative.final_screenshot) == (False, f"{SESSION}/images/2024-01-13_21-37-47-367890.jpg")
    assert negative.id.endswith("_neg_eval") and negative.feedback == "You have not finished the subtask."
