"""Raw input events (``input_log.py``) grouped into the actions a person would name.

``group_actions(events)`` turns presses, releases and motion into :class:`InputAction` s:

- a left press and release that moved less than ``DRAG_PX``: ``click``; two or three of them
  within ``MULTI_CLICK_S`` at the same spot: ``double_click`` / ``triple_click``; the right
  and middle buttons: ``right_click`` / ``middle_click``; a press that moved further: ``drag``
  (from the press to the release);
- wheel buttons 4-7: ``scroll`` up/down/left/right, consecutive notches in one direction at
  most ``SCROLL_GAP_S`` apart merged, ``amount`` counting them;
- key presses that type a printable character with no ctrl/alt/win held: ``type``, consecutive
  ones (nothing else in between, at most ``TYPE_GAP_S`` apart) merged into one text; Enter or
  Tab within ``TEXT_KEY_GAP_S`` of a typed character joins the text as ``\n`` / ``\t``, as
  ``keyboard.type("ls\n")`` types it (a terminal command is one action, not two with no screen
  between them);
- a key with ctrl/alt/win held (or shift with a key that types nothing): ``hotkey``, modifiers
  first; any other key (enter, tab, esc, arrows, f-keys): ``key``, repeats merged into ``presses``;
  a modifier pressed and released alone: ``key``.

Positions are screen pixels; times are the events' (``CLOCK_MONOTONIC`` seconds).
``InputAction.code()`` writes the action as a gui toolkit call, ``sample_actions()`` as the
step-level datasets' normalized actions (``runtime/evaluation/samples.py``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, Field

from ..evaluation.samples import Action
from .input_log import MODIFIER_KEYS, InputEvent

DRAG_PX = 5
"""A press that moved further than this (pixels, either axis) before its release is a drag."""
MULTI_CLICK_S = 0.5
"""Clicks whose presses are closer than this, at the same spot, make a double or triple click."""
SCROLL_GAP_S = 0.6
TYPE_GAP_S = 3.0
"""Longer pauses between printable keys start a new ``type`` action."""
TEXT_KEY_GAP_S = 0.3
"""Enter or Tab at most this long after a typed character is part of the text."""
KEY_REPEAT_GAP_S = 1.0
_HOT = ("ctrl", "alt", "win")
_MOD_ORDER = ("ctrl", "alt", "shift", "win", "altgr")
_WHEEL = {4: "up", 5: "down", 6: "left", 7: "right"}
_BUTTON_NAMES = {1: "left", 2: "middle", 3: "right"}

InputActionKind = Literal["click", "double_click", "triple_click", "right_click", "middle_click", "drag",
                          "type", "key", "hotkey", "scroll"]


class InputAction(BaseModel):
    """One action made of raw events, with when and where it happened."""

    kind: InputActionKind
    t_start: float
    """The action's first event (``CLOCK_MONOTONIC`` seconds)."""
    t_end: float
    """Its last event (a release, the last key of a text)."""
    x: int
    """Where the pointer was (a click's or drag's press, a scroll; for keys, just informative)."""
    y: int
    x2: int | None = None
    """A drag's end."""
    y2: int | None = None
    button: int | None = None
    clicks: int = 1
    text: str | None = None
    keys: list[str] | None = None
    presses: int = 1
    """How many times a ``key`` was pressed in a row."""
    direction: Literal["up", "down", "left", "right"] | None = None
    amount: int | None = None
    """Wheel notches of a scroll."""
    modifiers: list[str] = Field(default_factory=list)
    """Modifiers held during a click, drag or scroll (ctrl+click)."""

    def code(self, scale: float = 1.0) -> str:
        """The action as gui toolkit code, coordinates multiplied by ``scale`` (screen -> screenshot)."""
        x, y = round(self.x * scale), round(self.y * scale)
        if self.kind == "type":
            return f"keyboard.type({json.dumps(self.text, ensure_ascii=False)})"
        if self.kind == "key":
            assert self.keys
            extra = f", presses={self.presses}" if self.presses > 1 else ""
            return f"keyboard.press({json.dumps(self.keys[0], ensure_ascii=False)}{extra})"
        if self.kind == "hotkey":
            return f"keyboard.hotkey({', '.join(json.dumps(k, ensure_ascii=False) for k in self.keys or [])})"
        if self.kind == "scroll":
            axis = "dy" if self.direction in ("up", "down") else "dx"
            sign = -1 if self.direction in ("up", "left") else 1
            call = f"mouse.scroll({axis}={sign * (self.amount or 1)}, x={x}, y={y})"
        elif self.kind == "drag":
            x2, y2 = round((self.x2 or 0) * scale), round((self.y2 or 0) * scale)
            button = "" if self.button == 1 else f", button={json.dumps(_BUTTON_NAMES.get(self.button or 1))}"
            call = f"mouse.drag(({x}, {y}), ({x2}, {y2}){button})"
        elif self.kind == "double_click":
            call = f"mouse.double_click({x}, {y})"
        elif self.kind == "right_click":
            call = f"mouse.right_click({x}, {y})"
        else:
            button = _BUTTON_NAMES.get(self.button or 1, "left")
            args = [f"{x}, {y}"] + ([f'button="{button}"'] if button != "left" else []) \
                + ([f"clicks={self.clicks}"] if self.clicks > 1 else [])
            call = f"mouse.click({', '.join(args)})"
        if not self.modifiers:
            return call
        downs = "".join(f'keyboard.down("{m}")\n' for m in self.modifiers)
        ups = "".join(f'\nkeyboard.up("{m}")' for m in reversed(self.modifiers))
        return downs + call + ups

    def sample_actions(self, scale: float = 1.0) -> list[Action]:
        """The action in the datasets' vocabulary (``samples.Action``), coordinates times ``scale``.

        Several for a key pressed more than once (the vocabulary has no repeat count); none for
        what the vocabulary cannot say: triple and middle clicks, a click, drag or scroll with a
        modifier held, a drag with another button than the left one."""
        if self.modifiers and self.kind not in ("type", "key", "hotkey"):
            return []
        x, y = self.x * scale, self.y * scale
        if self.kind in ("click", "double_click", "right_click"):
            return [Action(kind=self.kind, x=x, y=y)]
        if self.kind == "drag" and self.button == 1:
            return [Action(kind="drag", x=x, y=y, x2=(self.x2 or 0) * scale, y2=(self.y2 or 0) * scale)]
        if self.kind == "type":
            return [Action(kind="type", text=self.text)]
        if self.kind == "key":
            return [Action(kind="key", keys=self.keys) for _ in range(self.presses)]
        if self.kind == "hotkey":
            return [Action(kind="hotkey", keys=self.keys)]
        if self.kind == "scroll":
            return [Action(kind="scroll", direction=self.direction, amount=self.amount, x=x, y=y)]
        return []


class _Press(BaseModel):
    event: InputEvent
    moved: int = 0


def _held(event: InputEvent) -> list[str]:
    return [m for m in _MOD_ORDER if m in event.modifiers]


class _Grouper:
    def __init__(self) -> None:
        self.actions: list[InputAction] = []
        self.buttons: dict[int, _Press] = {}
        self.lone: dict[str, InputEvent] = {}
        """Modifier keys pressed with nothing else pressed since: released alone, they are a key."""
        self.click_press_t = -1e9  # the last click's press time (multi-clicks compare presses)

    def last(self, kind: str) -> InputAction | None:
        return self.actions[-1] if self.actions and self.actions[-1].kind == kind else None

    def feed(self, event: InputEvent) -> None:
        if event.kind == "motion":
            for press in self.buttons.values():
                press.moved = max(press.moved, abs(event.x - press.event.x), abs(event.y - press.event.y))
        elif event.kind == "button_press":
            self.lone.clear()
            if event.button in _WHEEL:
                self.scroll(event)
            elif event.button is not None:
                self.buttons[event.button] = _Press(event=event)
        elif event.kind == "button_release":
            if event.button in self.buttons:
                self.release(self.buttons.pop(event.button), event)
        elif event.kind == "key_press":
            self.key(event)
        elif event.kind == "key_release" and event.key in self.lone:
            pressed = self.lone.pop(event.key)
            self.actions.append(InputAction(kind="key", t_start=pressed.t, t_end=event.t, x=event.x, y=event.y,
                                            keys=[event.key]))

    def scroll(self, event: InputEvent) -> None:
        direction = _WHEEL[event.button or 0]
        last = self.last("scroll")
        if last is not None and last.direction == direction and event.t - last.t_end <= SCROLL_GAP_S \
                and (last.x, last.y) == (event.x, event.y) and last.modifiers == _held(event):
            last.amount = (last.amount or 0) + 1
            last.t_end = event.t
            return
        self.actions.append(InputAction(kind="scroll", t_start=event.t, t_end=event.t, x=event.x, y=event.y,
                                        direction=direction, amount=1, modifiers=_held(event)))

    def release(self, press: _Press, event: InputEvent) -> None:
        start = press.event
        moved = max(press.moved, abs(event.x - start.x), abs(event.y - start.y))
        mods = _held(start)
        if moved > DRAG_PX:
            self.actions.append(InputAction(kind="drag", t_start=start.t, t_end=event.t, x=start.x, y=start.y,
                                            x2=event.x, y2=event.y, button=start.button, modifiers=mods))
            return
        last = self.actions[-1] if self.actions else None
        if last is not None and last.kind in ("click", "double_click", "triple_click", "right_click", "middle_click") \
                and last.button == start.button and last.clicks < 3 and last.modifiers == mods \
                and start.t - self.click_press_t <= MULTI_CLICK_S \
                and abs(start.x - last.x) <= DRAG_PX and abs(start.y - last.y) <= DRAG_PX:
            last.clicks += 1
            last.t_end = event.t
            if start.button == 1:
                last.kind = "double_click" if last.clicks == 2 else "triple_click"
        else:
            kind = {1: "click", 3: "right_click"}.get(start.button or 0, "middle_click")
            self.actions.append(InputAction(kind=kind, t_start=start.t, t_end=event.t, x=start.x, y=start.y,
                                            button=start.button, modifiers=mods))
        self.click_press_t = start.t

    def key(self, event: InputEvent) -> None:
        name = event.key or ""
        if name in MODIFIER_KEYS:
            self.lone[name] = event
            return
        self.lone.clear()
        mods = _held(event)
        at = {"t_start": event.t, "t_end": event.t, "x": event.x, "y": event.y}
        text = event.text if name not in ("enter", "tab") else None
        last = self.last("type")
        if name in ("enter", "tab") and not mods and last is not None and event.t - last.t_end <= TEXT_KEY_GAP_S:
            text = "\n" if name == "enter" else "\t"
        if set(mods) & set(_HOT) or ("shift" in mods and not text):
            self.actions.append(InputAction(kind="hotkey", keys=[*mods, name], **at))
        elif text is not None and (text.isprintable() or text in "\n\t"):
            if last is not None and event.t - last.t_end <= TYPE_GAP_S:
                last.text = (last.text or "") + text
                last.t_end = event.t
            else:
                self.actions.append(InputAction(kind="type", text=text, **at))
        else:
            last = self.last("key")
            if last is not None and last.keys == [name] and event.t - last.t_end <= KEY_REPEAT_GAP_S:
                last.presses += 1
                last.t_end = event.t
            else:
                self.actions.append(InputAction(kind="key", keys=[name], **at))


def group_actions(events: Iterable[InputEvent]) -> list[InputAction]:
    """The actions the events make, in time order (see the module's docstring for the rules).

    A button still held when the events end makes no action."""
    grouper = _Grouper()
    for event in events:
        grouper.feed(event)
    return grouper.actions
