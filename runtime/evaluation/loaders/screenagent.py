"""ScreenAgent's annotated steps (its dataset's per-step JSON files) -> ``action_step`` samples.

The published layout (niuzaisheng/ScreenAgent, ``data/ScreenAgent/{train,test}``)::

    test/
      <session id>/
        2024-01-13_21-37-47-367890.json        # one step of the session
        2024-01-13_21-40-01-827822_neg_eval.json
        images/2024-01-13_21-37-47-367890.jpg  # the step's screenshot (saved_image_name)

A step file holds ``task_prompt`` (the session's goal; the train split also has
``task_prompt_en``, asked when there), ``current_task`` (the sub-task), ``status`` (``planning``,
``acting`` or ``evaluating``; absent in the train split, where the actions tell), ``video_width``/
``video_height`` (the screen), ``saved_image_name`` and the gold ``actions``. Negative samples
(``*_neg_eval.json``, ``*_translate_neg_plan.json``) are not read. Acting steps' actions are

- ``{"action_type": "MouseAction", "mouse_action_type": "click"|"double_click"|"scroll_up"|
  "scroll_down"|"move"|"drag", "mouse_button": "left"|"right", "mouse_position": {"width": x,
  "height": y}, "scroll_repeat": n, "clickable_area": {"upper_left_position": {...},
  "lower_right_position": {...}}}`` (positions in screen pixels; a prediction's position counts
  when it is inside ``clickable_area``),
- ``{"action_type": "KeyboardAction", "keyboard_action_type": "press"|"text", "keyboard_key":
  "Return"|"Ctrl+S"|["Control_L", "s"], "keyboard_text": "..."}`` (X keysym names),
- ``{"action_type": "WaitAction", "wait_time": s}``.

Each acting step becomes one sample per action: the step's screenshot, with the step's earlier
actions as history (ScreenAgent's CC-Score aligns a step's action list with the prediction's).
``clickable_area`` is the sample's one element box. Planning and evaluating steps (plans and
sub-task verdicts, no GUI action) and actions deskact has no equivalent of (a drag from the
current pointer, bare mouse/key down and up) are left out and counted.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..samples import Action, ActionStep, DatasetError
from .common import Loaded, image_size, key_combo, key_name, need, px, rel_file

KEYS = frozenset({"task_prompt", "saved_image_name", "actions"})
GUI_ACTIONS = frozenset({"MouseAction", "KeyboardAction", "WaitAction"})


def looks_like(record: dict[str, Any]) -> bool:
    return record.keys() >= KEYS


def _xy(pos: Any, scale: tuple[float, float]) -> tuple[float, float] | None:
    if isinstance(pos, dict) and isinstance(pos.get("width"), int | float) and isinstance(pos.get("height"), int | float):
        return px(pos["width"] * scale[0]), px(pos["height"] * scale[1])
    return None


def to_action(act: dict[str, Any], scale: tuple[float, float]) -> Action | str:
    """One ScreenAgent action in image pixels (``scale``: image pixels per screen pixel), or why none."""
    kind = act.get("action_type")
    if kind == "MouseAction":
        op = str(act.get("mouse_action_type", "")).lower()
        at = _xy(act.get("mouse_position"), scale)
        if op in ("scroll_up", "scroll_down"):
            repeat = act.get("scroll_repeat")
            return Action(kind="scroll", direction=op.removeprefix("scroll_"),
                          amount=float(repeat) if isinstance(repeat, int | float) else None)
        if op in ("click", "double_click", "move"):
            if at is None:
                return f"MouseAction {op} without mouse_position"
            button = str(act.get("mouse_button") or "left").lower()
            name = "right_click" if op == "click" and button == "right" else op
            return Action(kind=name, x=at[0], y=at[1])
        return f"MouseAction {op or '(none)'}: no deskact action"
    if kind == "KeyboardAction":
        op = str(act.get("keyboard_action_type") or ("press" if act.get("keyboard_key") else "text")).lower()
        key = act.get("keyboard_key")
        # A combination is "Ctrl+S" in the test split and ["Control_L", "s"] in the train split.
        keys = key_combo(key) if isinstance(key, str) and key else [key_name(k) for k in key if isinstance(k, str)] \
            if isinstance(key, list) else []
        if op == "press" and keys:
            return Action(kind="hotkey" if len(keys) > 1 else "key", keys=keys)
        text = act.get("keyboard_text", act.get("keyboard_input"))
        if op in ("text", "input") and isinstance(text, str):
            return Action(kind="type", text=text)
        return f"KeyboardAction {op}: no deskact action"
    if kind == "WaitAction":
        return Action(kind="wait")
    return f"{kind}: not a GUI action"


def _step_files(path: Path) -> tuple[Path, list[Path]]:
    """(the folder sample paths are relative to, the step files in time order)."""
    if path.is_file():
        return path.parent.parent, [path]
    # Negative samples (``_neg_eval``, ``_translate_neg_plan``: wrong verdicts and plans) are not steps.
    if (path / "images").is_dir():  # one session
        return path.parent, sorted(p for p in path.glob("*.json") if "_neg" not in p.stem)
    return path, sorted(p for p in path.rglob("*.json") if "_neg" not in p.stem)


def load(path: Path) -> Loaded:
    """A split folder (``test/``, ``train/``), one session folder, or one step file."""
    root, files = _step_files(path)
    out = Loaded(root=root, kind="action_step", name=path.stem if path.is_file() else path.name,
                 source=f"ScreenAgent ({path.name})")
    steps: dict[str, int] = {}
    for file in files:
        where = str(file)
        try:
            rec = json.loads(file.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise DatasetError(f"{file}: not JSON: {exc.msg} at line {exc.lineno}") from None
        if not isinstance(rec, dict) or not looks_like(rec):
            continue  # not a step file
        acts = [a for a in need(rec, "actions", where, list) if isinstance(a, dict)]
        gui = [a for a in acts if a.get("action_type") in GUI_ACTIONS]
        if rec.get("status", "acting") != "acting" or not gui:  # the train split has no status: its actions tell
            kinds = sorted({str(a.get("action_type")) for a in acts}) or ["no action"]
            out.skipped[f"{rec.get('status') or '/'.join(kinds)} step (no GUI action)"] += 1
            continue
        folder = file.parent.relative_to(root).as_posix()
        session = folder if folder != "." else file.stem
        name = need(rec, "saved_image_name", where, str)
        image = rel_file(root, f"{folder}/images/{name}".removeprefix("./"), where, "saved_image_name")
        width, height = image_size(root / image)
        screen = (rec.get("video_width") or width, rec.get("video_height") or height)
        scale = (width / screen[0], height / screen[1])
        step = steps[session] = steps.get(session, -1) + 1
        # The train split keeps the goal in Chinese and English: the English one is asked.
        goal = rec.get("task_prompt_en") or need(rec, "task_prompt", where, str)
        history: list[Action] = []
        for index, act in enumerate(acts):
            action, area = to_action(act, scale), _area(act, scale)
            if isinstance(action, str):
                out.skipped[action] += 1
                continue
            out.samples.append(ActionStep(
                id=f"{session.replace('/', '-')}-{file.stem}-{index}", source="screenagent", platform="desktop",
                image=image, width=width, height=height, instruction=str(goal),
                subtask=rec.get("current_task") or None, history=list(history), action=action,
                elements=[area] if area else [], episode=session, step=step))
            history.append(action)
    return out


def _area(act: dict[str, Any], scale: tuple[float, float]) -> list[float] | None:
    area = act.get("clickable_area")
    if not isinstance(area, dict):
        return None
    a, b = _xy(area.get("upper_left_position"), scale), _xy(area.get("lower_right_position"), scale)
    if a is None or b is None:
        return None
    return [min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1])]
