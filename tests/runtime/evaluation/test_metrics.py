"""The step-level metrics against values computed by hand (the numbers in the comments)."""

from __future__ import annotations

import pytest
from deskact.runtime.evaluation.metrics import (
    aitw_parts,
    binary_metrics,
    cc_parts,
    episode_match,
    ground_parts,
    idm_clip_parts,
    idm_parts,
    levenshtein,
    summarize,
    swipe_direction,
    text_similarity,
)
from deskact.runtime.evaluation.samples import Action

W, H = 1000, 2000  # a tall phone screen: 1 % of the width is 10 px, 1 % of the height 20 px


def click(x: float, y: float, kind: str = "click") -> Action:
    return Action(kind=kind, x=x, y=y)  # type: ignore[arg-type]


def test_levenshtein() -> None:
    assert levenshtein("kitten", "sitting") == 3
    assert levenshtein(["click", "type", "key"], ["click", "key"]) == 1
    assert levenshtein([], ["a", "b", "c"]) == 3
    assert levenshtein("same", "same") == 0


def test_text_similarity() -> None:
    assert text_similarity("Hello", "hello ") == 1.0
    assert text_similarity("abcd", "abce") == pytest.approx(0.75)  # 1 substitution in 4
    assert text_similarity("", "") == 1.0


def test_ground_point_in_box_edges_included() -> None:
    box = [10.0, 10.0, 50.0, 30.0]
    on_edge = ground_parts(box, (50, 30))
    assert on_edge["reward"] == 1
    assert on_edge["distance"] == pytest.approx(22.36)  # from the centre (30, 20): sqrt(20² + 10²)
    assert ground_parts(box, (50.5, 30))["reward"] == 0
    assert ground_parts(box, None) == {"reward": 0, "inside": False, "x": None, "y": None, "distance": None}


@pytest.mark.parametrize(("pred", "matched"), [
    ((630, 1000), True),    # 0.13 of the width away
    ((500, 1300), False),   # 0.15 of the height away
    ((600, 1200), False),   # (0.10, 0.10): 0.1414 > 0.14
    ((590, 1200), True),    # (0.09, 0.10): 0.1345
])
def test_aitw_tap_within_14_percent_of_the_screen(pred: tuple[int, int], matched: bool) -> None:
    parts = aitw_parts(click(500, 1000), click(*pred), W, H)
    assert parts["match"] is matched
    assert parts["reward"] == int(matched)
    assert parts["type_match"]


def test_aitw_tap_in_the_same_enlarged_element_box() -> None:
    # Box 100x100 px = 0.1 x 0.05 of the screen; enlarged by 1.4x its size: 0.24 x 0.12, from (0, 0)
    # (the top-left is clamped at the screen's edge): it reaches x 240 px, y 240 px.
    element = [[0.0, 0.0, 100.0, 100.0]]
    far_but_inside = aitw_parts(click(50, 50), click(230, 230), W, H, element)  # 0.20 apart
    assert far_but_inside["distance"] == pytest.approx(0.2012, abs=1e-4)
    assert far_but_inside["same_element"] and far_but_inside["match"]
    outside = aitw_parts(click(50, 50), click(250, 50), W, H, element)  # 0.20 apart, x past 240
    assert not outside["same_element"] and not outside["match"]


def test_aitw_tap_and_swipe_never_match_and_swipes_match_by_direction() -> None:
    swipe_up = Action(kind="drag", x=500, y=1500, x2=500, y2=500)  # the finger moves up: scrolls down
    assert swipe_direction((0.5, 0.75), (0.5, 0.25)) == "down"
    tap_vs_swipe = aitw_parts(click(500, 1000), swipe_up, W, H)
    assert tap_vs_swipe["type_match"] and not tap_vs_swipe["match"]
    assert aitw_parts(Action(kind="scroll", direction="down"), swipe_up, W, H)["match"]
    swipe_down = Action(kind="drag", x=500, y=500, x2=500, y2=1500)
    opposite = aitw_parts(Action(kind="scroll", direction="down"), swipe_down, W, H)
    assert not opposite["match"] and opposite["axis_match"] and not opposite["direction_match"]
    # A gesture shorter than 4 % of the screen is a tap: 30 px of 1000 is 0.03.
    assert aitw_parts(click(500, 1000), Action(kind="drag", x=500, y=1000, x2=530, y2=1000), W, H)["match"]


def test_aitw_typed_text_and_buttons() -> None:
    gold = Action(kind="type", text="Hello World")
    assert aitw_parts(gold, Action(kind="type", text="hello"), W, H)["match"]  # contained, case ignored
    wrong = aitw_parts(gold, Action(kind="type", text="bye"), W, H)
    assert wrong["type_match"] and not wrong["match"] and wrong["text_match"] is False
    back_home = aitw_parts(Action(kind="key", keys=["back"]), Action(kind="key", keys=["home"]), W, H)
    assert not back_home["type_match"] and not back_home["match"]
    assert aitw_parts(Action(kind="done"), Action(kind="done"), W, H)["match"]
    assert aitw_parts(gold, None, W, H)["reward"] == 0
    # On a desktop a right click is not a click, however close.
    assert not aitw_parts(click(500, 1000), click(500, 1000, "right_click"), W, H)["match"]


def test_episode_partial_and_complete_match() -> None:
    steps = [("a", True), ("a", True), ("a", False), ("b", True), ("b", True)]
    result = episode_match(steps)
    assert result["episodes"] == 2
    assert result["partial_match"] == pytest.approx((2 / 3 + 1) / 2)  # 0.8333
    assert result["complete_match"] == pytest.approx(0.5)


def test_binary_metrics_f1() -> None:
    pairs = [(True, True), (True, False), (False, True), (False, False), (True, None), (False, None)]
    m = binary_metrics(pairs)
    assert (m["tp"], m["fn"], m["fp"], m["tn"], m["unread"]) == (1, 2, 1, 2, 2)
    assert m["accuracy"] == pytest.approx(2 / 6)  # unread answers are wrong
    assert m["precision"] == pytest.approx(0.5)
    assert m["recall"] == pytest.approx(1 / 3)
    assert m["f1"] == pytest.approx(0.4)  # 2 * 0.5 * 1/3 / (0.5 + 1/3)


def test_idm_single_and_multiple() -> None:
    gold = click(100, 100)
    near = idm_parts(gold, click(140, 100), 1000, 1000)  # 0.04 of the screen
    assert near["reward"] == 1 and near["exact"]
    far = idm_parts(gold, click(160, 100), 1000, 1000)  # 0.06: the kind is right, the point not
    assert far["reward"] == 1 and not far["exact"]
    assert idm_parts(gold, Action(kind="type", text="x"), 1000, 1000)["reward"] == 0
    clip = [click(1, 1), Action(kind="type", text="a"), Action(kind="key", keys=["enter"])]
    short = idm_clip_parts(clip, [click(5, 5), Action(kind="key", keys=["tab"])])
    assert short["edit_distance"] == 1 and short["normalized_edit_distance"] == pytest.approx(0.3333)
    assert short["reward"] == 0
    assert idm_clip_parts(clip, list(clip))["reward"] == 1
    assert idm_clip_parts(clip, None)["edit_distance"] == 3


def test_cc_score_parts() -> None:
    typed = cc_parts(Action(kind="type", text="hello world"), Action(kind="type", text="hello world!"), 1000, 1000)
    assert typed["text"] == pytest.approx(0.9167, abs=1e-4)  # 1 - 1/12
    assert typed["position"] is None
    assert typed["score"] == pytest.approx((3 + 0.9167) / 4, abs=1e-4)
    right = cc_parts(click(100, 100), click(100, 100, "right_click"), 1000, 1000)
    assert (right["family"], right["kind"], right["attributes"], right["position"]) == (True, False, False, 1.0)
    assert right["score"] == pytest.approx(0.5)
    # In the gold's (smallest) element box counts even past 5 % of the screen.
    boxed = cc_parts(click(100, 100), click(190, 100), 1000, 1000, [[0, 0, 1000, 1000], [50, 50, 200, 150]])
    assert boxed["position"] == 1.0
    assert cc_parts(click(100, 100), click(400, 100), 1000, 1000, [[0, 0, 1000, 1000], [50, 50, 200, 150]])["position"] == 0.0


def test_summarize_ground_by_app_and_critic() -> None:
    rows = [{"reward": 1, "app": "calc", "platform": "desktop", "prediction": "(1, 2)"},
            {"reward": 0, "app": "calc", "platform": "desktop", "prediction": None},
            {"reward": 1, "app": "writer", "platform": "desktop", "prediction": "(3, 4)"}]
    s = summarize("ground", rows)
    assert s["accuracy"] == pytest.approx(2 / 3)
    assert s["by_app"]["calc"] == {"samples": 2, "accuracy": 0.5}
    assert s["unparsed"] == 1
    critic = [{"reward": 1, "parts": {"gold": True, "predicted": True}, "prediction": "success"},
              {"reward": 0, "parts": {"gold": False, "predicted": True}, "prediction": "success"}]
    c = summarize("critic", critic)
    assert c["precision"] == 0.5 and c["recall"] == 1.0 and c["accuracy"] == 0.5
