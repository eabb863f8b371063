"""The reference code made from recorded actions: clicks by name where the tree names them, typed text merged."""

from __future__ import annotations

from typing import Any

from deskact.runtime.agent.a11y import Element
from deskact.runtime.record.codegen import Step, Target, action_code, merge_typing, reference_code, target_at
from deskact.runtime.run.input_actions import InputAction


def _el(index: int, depth: int, role: str, name: str, box: tuple[int, int, int, int]) -> Element:
    return Element(index=index, depth=depth, role=role, name=name, states=[], box=box, app=":1.2", path=f"/o/{index}")


TREE = [
    _el(0, 0, "frame", "Editor", (0, 0, 1920, 1080)),
    _el(1, 1, "menu bar", "", (0, 20, 1920, 30)),
    _el(2, 2, "menu", "File", (0, 20, 40, 30)),
    _el(3, 2, "menu", "Edit", (40, 20, 40, 30)),
    _el(4, 1, "panel", "", (0, 60, 1920, 1000)),
    _el(5, 2, "push button", "OK", (100, 100, 80, 30)),
    _el(6, 2, "push button", "OK", (300, 100, 80, 30)),  # a second OK: a11y.click would take the first
    _el(7, 2, "text", "", (0, 200, 1920, 800)),
]


def _act(kind: str, **fields: Any) -> InputAction:
    base: dict[str, Any] = {"t_start": 1.0, "t_end": 1.1, "x": 0, "y": 0}
    base.update(fields)
    return InputAction(kind=kind, **base)


def test_target_is_the_innermost_element_and_named_only_when_its_name_finds_it() -> None:
    assert target_at(TREE, 10, 30) == Target(role="menu", name="File", by_name=True)
    assert target_at(TREE, 110, 110) == Target(role="push button", name="OK", by_name=True)
    assert target_at(TREE, 310, 110) == Target(role="push button", name="OK", by_name=False)
    assert target_at(TREE, 500, 500) == Target(role="text", name="", by_name=False)
    assert target_at([], 5, 5) is None


def test_click_code_by_name_or_at_the_point() -> None:
    file_menu = target_at(TREE, 10, 30)
    assert action_code(_act("click", x=10, y=30, button=1), file_menu, 0.5) == 'click(\'File\', \'menu\', at=(5, 15))'
    second_ok = target_at(TREE, 310, 110)
    assert action_code(_act("click", x=310, y=110, button=1), second_ok, 0.5) == \
        "mouse.click(155, 55)  # push button 'OK'"
    assert action_code(_act("double_click", x=10, y=30, button=1, clicks=2), file_menu, 1.0) == \
        "mouse.double_click(10, 30)  # menu 'File'"
    assert action_code(_act("right_click", x=10, y=30, button=3), file_menu, 1.0) == \
        "click('File', 'menu', at=(10, 30), button=\"right\")"
    assert action_code(_act("hotkey", keys=["ctrl", "s"]), None, 1.0) == 'keyboard.hotkey("ctrl", "s")'


def test_typing_merges_enter_tab_and_backspace() -> None:
    actions = [
        _act("click", x=5, y=5, button=1),
        _act("type", text="helo", t_start=2.0, t_end=2.3),
        _act("key", keys=["backspace"], t_start=2.4, t_end=2.4),
        _act("type", text="lo", t_start=2.5, t_end=2.6),
        _act("key", keys=["enter"], t_start=2.7, t_end=2.7),
        _act("key", keys=["tab"], presses=2, t_start=2.8, t_end=2.9),
        _act("type", text="x", t_start=3.0, t_end=3.0),
        _act("key", keys=["esc"], t_start=3.1, t_end=3.1),
        _act("type", text="ab", t_start=10.0, t_end=10.1),  # after a pause longer than TYPE_GAP_S: its own call
        _act("key", keys=["backspace"], presses=2, t_start=10.2, t_end=10.2),  # erased: nothing to replay
    ]
    merged = merge_typing(actions)
    assert [(a.kind, a.text) for a in merged] == [("click", None), ("type", "hello\n\t\tx"), ("key", None)]


def test_reference_defines_click_only_when_used_and_waits() -> None:
    steps = [Step(action=_act("click", x=10, y=30, button=1), target=target_at(TREE, 10, 30), wait=True),
             Step(action=_act("type", text="hi"))]
    code = reference_code(steps, 1.0, header="Recorded.\nScale 1.")
    lines = code.splitlines()
    assert lines[:2] == ["# Recorded.", "# Scale 1."]
    assert "def click(name, role, at, button=\"left\"):" in code
    assert code.endswith("click('File', 'menu', at=(10, 30))\nscreen.wait_stable()\nkeyboard.type(\"hi\")\n"
                         "screen.wait_stable()\n")
    compile(code, "reference", "exec")  # the reference is Python
    plain = reference_code([Step(action=_act("type", text="hi"))], 1.0)
    assert "def click" not in plain and plain == 'keyboard.type("hi")\nscreen.wait_stable()\n'


def test_menu_item_names_lose_their_padding_when_the_name_still_finds_them() -> None:
    menu = [
        _el(0, 0, "frame", "Editor", (0, 0, 800, 600)),
        _el(1, 1, "menu item", "Save      ", (0, 100, 200, 17)),
        _el(2, 1, "menu item", "Save As...      ", (0, 117, 200, 17)),
        _el(3, 1, "menu item", "Saved      ", (0, 134, 200, 17)),
    ]
    assert target_at(menu, 10, 105) == Target(role="menu item", name="Save", by_name=True)
    assert target_at(menu, 10, 120) == Target(role="menu item", name="Save As...", by_name=True)
    # An exact name wins over one that only contains it (a11y.click's rule).
    assert target_at(menu, 10, 140) == Target(role="menu item", name="Saved", by_name=True)
