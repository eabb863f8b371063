"""Android in the Wild steps (its TFRecord fields as JSON lines) read from the fixture in that format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from deskact.runtime.evaluation.loaders import detect, load_any
from deskact.runtime.evaluation.samples import ActionStep, DatasetError

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "evaluation" / "aitw"


def _steps() -> list[ActionStep]:
    ds = load_any(FIXTURE / "episodes.jsonl")
    assert ds.info.kind == "action_step"
    assert all(isinstance(s, ActionStep) for s in ds)
    return [s for s in ds.samples if isinstance(s, ActionStep)]


def test_episodes_are_grouped_and_ordered_by_step() -> None:
    assert detect(FIXTURE / "episodes.jsonl") == "aitw"
    steps = _steps()
    # The file has step 3 first; the samples follow each episode's step_id.
    assert [s.id for s in steps] == [f"8104393217738405451-{i}" for i in range(6)] + [
        f"5512076349010113360-{i}" for i in range(3)]
    assert all(s.platform == "mobile" and s.source == "aitw" for s in steps)
    assert steps[0].instruction == "What's the weather in Paris?"
    # Each step's history is the episode's actions before it.
    assert [a.kind for a in steps[5].history] == ["click", "click", "type", "key", "drag"]
    assert steps[6].history == []


def test_actions_and_boxes_in_image_pixels() -> None:
    steps = _steps()
    # A tap: touch (0.26562, 0.27778) and lift 0.0056 away (under 0.04) on a 180x320 screenshot.
    assert steps[0].action.model_dump(exclude_none=True) == {"kind": "click", "x": 50.0, "y": 85.0}
    # Chrome's box (y 0.1875, x 0.11111, h 0.15625, w 0.33333) -> x 20..80, y 60..110 px.
    assert steps[0].elements == [[20.0, 60.0, 80.0, 110.0], [100.0, 60.0, 160.0, 110.0]]
    assert steps[2].action.model_dump(exclude_none=True) == {"kind": "type", "text": "weather paris"}
    assert steps[3].action.model_dump(exclude_none=True) == {"kind": "key", "keys": ["enter"]}
    # A swipe (touch and lift 0.5 apart): a drag from (0.5, 0.8) to (0.52, 0.3) of the screen.
    assert steps[4].action.model_dump(exclude_none=True) == {"kind": "drag", "x": 90.0, "y": 256.0, "x2": 93.6,
                                                             "y2": 96.0}
    assert [s.action.kind for s in steps[5:]] == ["done", "key", "key", "fail"]
    assert [s.action.keys for s in steps[6:8]] == [["back"], ["home"]]


def test_action_type_names_and_unknown_types(tmp_path: Path) -> None:
    rec = json.loads((FIXTURE / "episodes.jsonl").read_text().splitlines()[1])
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "e1_0.png").write_bytes((FIXTURE / "images" / "e1_0.png").read_bytes())
    rec.update({"image/encoded": "images/e1_0.png", "step_id": 0})
    path = tmp_path / "steps.jsonl"
    for name, kind in (("dual-point gesture", "click"), ("type", "type"), ("go_back", "key"), ("PRESS_HOME", "key"),
                       ("task_complete", "done"), ("STATUS_TASK_IMPOSSIBLE", "fail")):
        rec["results/action_type"] = name
        path.write_text(json.dumps(rec) + "\n")
        assert load_any(path).samples[0].action.kind == kind, name  # type: ignore[union-attr]
    rec["results/action_type"] = 0  # LONG_POINT: no long press in deskact's actions
    path.write_text(json.dumps(rec) + "\n")
    with pytest.raises(DatasetError, match=r"steps.jsonl:1: field 'results/action_type': LONG_POINT"):
        load_any(path)
    rec["results/action_type"] = 42
    path.write_text(json.dumps(rec) + "\n")
    with pytest.raises(DatasetError, match="unknown AITW action type 42"):
        load_any(path)
