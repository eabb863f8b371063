"""ScreenAgent's annotated steps read from a fixture folder in its dataset's layout."""

from __future__ import annotations

from pathlib import Path

from deskact.runtime.evaluation.loaders import detect, load_any
from deskact.runtime.evaluation.loaders.screenagent import to_action
from deskact.runtime.evaluation.samples import ActionStep

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "evaluation" / "screenagent"
SESSION = "5f0c2a9e1b7d4c3a9e8f6d5c4b3a2910"


def _steps(path: Path) -> list[ActionStep]:
    return [s for s in load_any(path).samples if isinstance(s, ActionStep)]


def test_acting_steps_become_one_sample_per_action() -> None:
    assert detect(FIXTURE / "test") == "screenagent"
    ds = load_any(FIXTURE / "test")
    steps = [s for s in ds.samples if isinstance(s, ActionStep)]
    assert [s.action.short() for s in steps] == [
        "click(295, 68)", "key(end)", "type(')')", "hotkey(ctrl+s)", "wait", "scroll(down, 3)", "double_click(160, 30)"]
    first = steps[0]
    # Positions are in the 640x480 screen; the stored screenshot is 320x240: halved.
    assert (first.image, first.width, first.height) == (f"{SESSION}/images/2024-01-13_21-37-47-367890.jpg", 320, 240)
    assert first.elements == [[120.0, 60.0, 300.0, 76.0]]  # the clickable area
    assert (first.instruction, first.subtask) == ("Find the wrong line of code and fix it",
                                                  "Locate the line with the syntax error.")
    assert (first.episode, first.step, first.platform, first.source) == (SESSION, 0, "desktop", "screenagent")
    # A step's later actions carry its earlier ones as history, on the same screenshot.
    typed = steps[2]
    assert [a.short() for a in typed.history] == ["key(end)"] and typed.step == 1
    assert typed.image == steps[1].image
    # The planning and evaluating steps and the drag (from wherever the pointer was) are counted, not kept.
    assert ("Left out 3 records: planning step (no GUI action): 1; evaluating step (no GUI action): 1; "
            "MouseAction drag: no deskact action: 1.") in ds.info.description


def test_a_session_folder_or_one_step_file() -> None:
    assert len(_steps(FIXTURE / "test" / SESSION)) == 7
    one = _steps(FIXTURE / "test" / SESSION / "2024-01-13_21-42-06-145362.json")
    assert [s.action.short() for s in one] == ["hotkey(ctrl+s)", "wait"]


def test_keyboard_forms() -> None:
    scale = (1.0, 1.0)
    assert to_action({"action_type": "KeyboardAction", "keyboard_key": "Return"}, scale).short() == "key(enter)"  # type: ignore[union-attr]
    assert to_action({"action_type": "KeyboardAction", "keyboard_text": "notepad"}, scale).short() == "type('notepad')"  # type: ignore[union-attr]
    assert to_action({"action_type": "KeyboardAction", "keyboard_action_type": "press", "keyboard_key": "Super_L"},
                     scale).short() == "key(win)"  # type: ignore[union-attr]
    combo = to_action({"action_type": "KeyboardAction", "keyboard_action_type": "press",
                       "keyboard_key": ["Control_L", "Shift_L", "`"]}, scale)  # the train split's form
    assert combo.short() == "hotkey(ctrl+shift+`)"  # type: ignore[union-attr]
    right = to_action({"action_type": "MouseAction", "mouse_action_type": "click", "mouse_button": "right",
                       "mouse_position": {"width": 10, "height": 20}}, scale)
    assert right.short() == "right_click(10, 20)"  # type: ignore[union-attr]
    assert isinstance(to_action({"action_type": "KeyboardAction", "keyboard_action_type": "down",
                                 "keyboard_key": "a"}, scale), str)
