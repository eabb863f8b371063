"""Reading model replies: points, action calls (ours and pyautogui's), clips and verdicts, scaled back."""

from __future__ import annotations

import pytest
from deskact.runtime.evaluation.prompts import action_call, parse_action, parse_clip, parse_point, parse_verdict
from deskact.runtime.evaluation.samples import Action


def test_points_last_one_and_scaled_back() -> None:
    assert parse_point("First (1, 2), no: the button is at (120.5, 45).", 1.0) == (120.5, 45.0)
    assert parse_point("click([300, 200])", 0.5) == (600.0, 400.0)
    assert parse_point("I cannot see it.", 1.0) is None
    assert parse_point('x=412, y=88', 1.0) == (412.0, 88.0)
    assert parse_point('{"x": 412, "y": 88.5}', 2.0) == (206.0, 44.25)


@pytest.mark.parametrize(("reply", "expected"), [
    ("click(120, 45)", Action(kind="click", x=240, y=90)),
    ("pyautogui.doubleClick(10, 20)", Action(kind="double_click", x=20, y=40)),
    ("pyautogui.rightClick(x=5, y=6)", Action(kind="right_click", x=10, y=12)),
    ("drag(1, 2, 3, 4)", Action(kind="drag", x=2, y=4, x2=6, y2=8)),
    ('type("a, (b)")', Action(kind="type", text="a, (b)")),
    ("pyautogui.write('hi')", Action(kind="type", text="hi")),
    ("key('Enter')", Action(kind="key", keys=["enter"])),
    ("pyautogui.press('tab')", Action(kind="key", keys=["tab"])),
    ('hotkey("ctrl", "c")', Action(kind="hotkey", keys=["ctrl", "c"])),
    ("key('ctrl+s')", Action(kind="hotkey", keys=["ctrl", "s"])),
    ("scroll('down')", Action(kind="scroll", direction="down")),
    ("pyautogui.scroll(-3)", Action(kind="scroll", direction="down", amount=3)),
    ("Thinking... then done()", Action(kind="done")),
    ("fail()", Action(kind="fail")),
    ('{"action": "click", "x": 10, "y": 20}', Action(kind="click", x=20, y=40)),
    ('```json\n{"action_type": "type", "text": "hi"}\n```', Action(kind="type", text="hi")),
    ('{"kind": "hotkey", "keys": ["ctrl", "v"]}', Action(kind="hotkey", keys=["ctrl", "v"])),
    ('{"action": "scroll", "direction": "up"}', Action(kind="scroll", direction="up")),
])
def test_action_calls(reply: str, expected: Action) -> None:
    assert parse_action(reply, 0.5) == expected


def test_last_call_wins_and_unknown_names_are_skipped() -> None:
    assert parse_action("print(1)\nclick(1, 1)\nfoo(2)\ntype('x')", 1.0) == Action(kind="type", text="x")
    assert parse_action("no action here", 1.0) is None
    assert parse_action("click()", 1.0) is None  # a click needs its point ...
    lenient = parse_action("click()", 1.0, lenient=True)  # ... except where only the kind is scored (IDM)
    assert lenient is not None and lenient.kind == "click" and lenient.x is None


def test_clip_after_the_actions_line() -> None:
    reply = "I saw a click(9, 9) early.\nActions:\nclick(1, 2)\ntype('a')\nkey('enter')"
    assert [a.kind for a in parse_clip(reply, 1.0) or []] == ["click", "type", "key"]
    assert parse_clip("Actions:\n(none)", 1.0) == []
    assert parse_clip("nothing", 1.0) is None


@pytest.mark.parametrize(("reply", "verdict"), [
    ("The file was saved.\nAnswer: success", True),
    ("It did not save. Answer: **failure**", False),
    ("Answer: Failure", False),
    ("The task was completed successfully.", True),
    ("The agent failed.", False),
    ("I am not sure.", None),
])
def test_verdicts(reply: str, verdict: bool | None) -> None:
    assert parse_verdict(reply) is verdict


def test_action_call_round_trips_through_the_parser() -> None:
    actions = [Action(kind="click", x=101, y=53), Action(kind="drag", x=1, y=2, x2=30, y2=40),
               Action(kind="type", text="it's \"quoted\""), Action(kind="hotkey", keys=["ctrl", "shift", "t"]),
               Action(kind="hotkey", keys=["ctrl", "+"]), Action(kind="key", keys=["+"]), Action(kind="type", text="a\nb"),
               Action(kind="click", x=100.25, y=0.002),
               Action(kind="key", keys=["back"]), Action(kind="scroll", direction="left"), Action(kind="wait")]
    for action in actions:
        assert parse_action(action_call(action, 0.5), 0.5) == action
