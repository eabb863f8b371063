"""AgentStudio's recorded actions (TrajectoryLite: IDM-Single, IDM-Multiple, SuccessDetection) as deskact Actions.

Each source of TrajectoryLite keeps its own action vocabulary in ``operation`` with the details in
``bbox`` and ``metadata``:

- AITW (``aitw_*``): ``click`` at ``bbox.x, bbox.y`` in [0, 1] of the screen (``bbox.width/height``
  are 1.0 placeholders), ``scroll up|down|left|right`` from ``metadata.from`` [x, y] in [0, 1]
  (the direction is the way the view moves, deskact's convention too), ``type`` with
  ``metadata.text``, ``press back|home|enter``, ``status task complete``.
- Mind2Web (``mind2web_*``): ``CLICK``/``TYPE``/``SELECT`` on the element box ``bbox`` in pixels
  (``metadata.value`` the typed or chosen text).
- VisualWebArena (``vwa_*``): ``click``/``type``/``hover`` on an element *id* (no coordinates),
  ``scroll [up]``, ``press [Enter]``, ``go_back``, ``goto``, ``new_tab``, ``page_focus``, ``stop``,
  ``none``, with the details only in ``metadata.repr``.
- AgentStudio's own desktop recordings (``agent-studio``): ``MOUSE_CLICK`` (``metadata.button``,
  ``metadata.from``), ``MOUSE_DRAG`` (``from``/``to``), ``KEY_TYPE``/``KEY_PRESS``/``KEY_SHORTCUT``
  with ``metadata.note``, ``MOUSE_SCROLL_UP/DOWN``.

:func:`to_action` answers an Action, or the reason there is none: deskact's vocabulary has no
SELECT, hover-without-a-point, browser navigation (goto, go_back, new_tab, page_focus) or "none",
and a click on an element id has no point to check a prediction against.
"""

from __future__ import annotations

import re
from typing import Any

from ..samples import Action
from .common import key_combo, px

_BRACKETS = re.compile(r"\[(.*?)\]", re.DOTALL)
_NO_ACTION = frozenset({"select", "hover", "go back", "go forward", "goto", "new tab", "page focus", "tab focus",
                        "close tab", "none"})
"""Operations (lower case, ``_`` as a space) with no deskact action."""


def _point(rec: dict[str, Any], size: tuple[int, int], normalized: bool) -> tuple[float, float] | None:
    found = _raw_point(rec, size, normalized)
    return None if found is None else (px(found[0]), px(found[1]))


def _raw_point(rec: dict[str, Any], size: tuple[int, int], normalized: bool) -> tuple[float, float] | None:
    meta = rec.get("metadata") or {}
    start = meta.get("from")
    if isinstance(start, dict) and isinstance(start.get("x"), int | float) and isinstance(start.get("y"), int | float):
        return float(start["x"]), float(start["y"])
    box = rec.get("bbox")
    if not isinstance(box, dict) or not isinstance(box.get("x"), int | float) or not isinstance(box.get("y"), int | float):
        if isinstance(start, list) and len(start) == 2 and normalized:
            return start[0] * size[0], start[1] * size[1]
        return None
    if normalized:  # AITW: a point in [0, 1]; width/height are placeholders
        return box["x"] * size[0], box["y"] * size[1]
    return box["x"] + float(box.get("width") or 0) / 2, box["y"] + float(box.get("height") or 0) / 2


def _text(rec: dict[str, Any]) -> str | None:
    meta = rec.get("metadata") or {}
    for key in ("text", "value", "note"):
        if isinstance(meta.get(key), str):  # AITW keeps a few empty typings: they stay empty
            return str(meta[key])
    found = _BRACKETS.findall(str(meta.get("repr", "")))  # VWA: type [id] [text] where [id]
    return found[1] if len(found) >= 2 else None


def to_action(rec: dict[str, Any], size: tuple[int, int], source: str) -> Action | str:
    """The record's action in pixels of a ``size`` frame, or why it has no deskact equivalent."""
    op = str(rec.get("operation", "")).strip().lower().replace("_", " ")
    meta = rec.get("metadata") or {}
    point = _point(rec, size, normalized=source.startswith("aitw"))
    words = op.split()
    if op in ("click", "mouse click", "double click", "mouse double click"):
        if point is None:
            return f"{rec.get('operation')} on an element with no coordinates"
        kind = "double_click" if "double" in op else "right_click" if meta.get("button") == "right" else "click"
        return Action(kind=kind, x=point[0], y=point[1])
    if op in ("type", "key type"):
        text = _text(rec)
        return Action(kind="type", text=text) if text is not None else f"{rec.get('operation')} without its text"
    if words[:1] == ["press"] and len(words) == 2:  # AITW: press back / home / enter
        return Action(kind="key", keys=[words[1]])
    if op in ("press", "key press", "key shortcut"):
        keys = meta.get("note") if isinstance(meta.get("note"), str) else (_BRACKETS.findall(str(meta.get("repr"))) or [""])[0]
        combo = key_combo(keys) if keys else []
        if not combo:
            return f"{rec.get('operation')} without its keys"
        return Action(kind="hotkey" if len(combo) > 1 else "key", keys=combo)
    if words[:1] == ["scroll"] or op.startswith("mouse scroll"):
        direction = words[-1] if words[-1] in ("up", "down", "left", "right") else None
        if direction is None:  # VWA: scroll [up]
            found = _BRACKETS.findall(str(meta.get("repr", "")))
            direction = found[0].strip().lower() if found and found[0].strip().lower() in ("up", "down", "left", "right") else None
        if direction is None:
            return f"{rec.get('operation')} without a direction"
        return Action(kind="scroll", direction=direction, x=point[0] if point else None, y=point[1] if point else None)
    if op == "mouse drag":
        to = meta.get("to")
        end: dict[str, Any] = to if isinstance(to, dict) else {}
        if point is None or not isinstance(end.get("x"), int | float) or not isinstance(end.get("y"), int | float):
            return "MOUSE_DRAG without both ends"
        return Action(kind="drag", x=point[0], y=point[1], x2=px(end["x"]), y2=px(end["y"]))
    if op in ("status task complete", "stop"):
        return Action(kind="done")
    if op == "status task impossible":
        return Action(kind="fail")
    if op in _NO_ACTION:
        return f"{rec.get('operation')}: no deskact action"
    return f"{rec.get('operation')!r}: an operation this loader does not know"

