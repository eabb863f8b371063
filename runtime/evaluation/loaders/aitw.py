"""Android in the Wild episodes (the fields of its TFRecord examples, as JSON) -> ``action_step`` samples.

AITW (google-research/android_in_the_wild) stores one step per ``tf.train.Example``; its README
lists the fields. This loader reads those fields rendered as JSON, one object per step, in a
``.jsonl`` file (or a ``.json`` list)::

    {"episode_id": "1234", "step_id": 0, "episode_length": 4, "goal_info": "search for ...",
     "image/height": 320, "image/width": 180, "image/encoded": "images/e1_0.png",
     "image/ui_annotations_positions": [y, x, h, w, y, x, h, w, ...],
     "image/ui_annotations_text": [...], "image/ui_annotations_ui_types": [...],
     "results/action_type": 4, "results/yx_touch": [y, x], "results/yx_lift": [y, x],
     "results/type_action": ""}

``image/encoded`` (or ``image_path``) names the screenshot file, relative to the JSON file: a
rendering writes the decoded pixels out as a PNG. Coordinates are AITW's: (y, x) pairs and
(y, x, height, width) boxes in [0, 1] of the screen; the samples hold them in the image's pixels.

``results/action_type`` is AITW's ``ActionType`` number (or its name): DUAL_POINT (4) is a tap
when touch and lift are within 0.04 of each other (AITW's own threshold) and a swipe (a ``drag``)
otherwise; TYPE (3) types ``results/type_action``; PRESS_BACK/HOME/ENTER (5/6/7) are keys
``back``/``home``/``enter``; STATUS_TASK_COMPLETE (10) is ``done`` and STATUS_TASK_IMPOSSIBLE (11)
``fail``. Steps are grouped by episode and ordered by ``step_id``; each sample's history is the
episode's actions before it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..samples import Action, ActionStep, DatasetError
from .common import Loaded, image_size, need, px, read_records, rel_file

KEYS = frozenset({"episode_id", "step_id", "results/action_type"})
TAP_DISTANCE = 0.04
"""Touch and lift closer than this (in [0, 1] screen units) make a tap (AITW's _SWIPE_DISTANCE_THRESHOLD)."""
ACTION_TYPES = {
    0: "LONG_POINT", 1: "NO_ACTION", 3: "TYPE", 4: "DUAL_POINT", 5: "PRESS_BACK", 6: "PRESS_HOME",
    7: "PRESS_ENTER", 10: "STATUS_TASK_COMPLETE", 11: "STATUS_TASK_IMPOSSIBLE",
}
# Names other renderings use for the same types (TFDS-style lower case).
_ALIASES = {"DUAL-POINT GESTURE": "DUAL_POINT", "GO_BACK": "PRESS_BACK", "GO_HOME": "PRESS_HOME",
            "ENTER": "PRESS_ENTER", "TASK_COMPLETE": "STATUS_TASK_COMPLETE",
            "TASK_IMPOSSIBLE": "STATUS_TASK_IMPOSSIBLE"}


def looks_like(record: dict[str, Any]) -> bool:
    return record.keys() >= KEYS


def _type_name(value: Any, where: str) -> str:
    if isinstance(value, int) and value in ACTION_TYPES:
        return ACTION_TYPES[value]
    if isinstance(value, str):
        name = value.strip().upper()
        name = _ALIASES.get(name, name.replace(" ", "_"))
        if name in ACTION_TYPES.values():
            return name
    raise DatasetError(f"{where}: field 'results/action_type': unknown AITW action type {value!r}")


def _yx(rec: dict[str, Any], key: str, where: str) -> tuple[float, float]:
    value = need(rec, key, where, list)
    if len(value) != 2 or not all(isinstance(v, int | float) for v in value):
        raise DatasetError(f"{where}: field {key!r}: expected [y, x], got {value}")
    return float(value[0]), float(value[1])


def _action(rec: dict[str, Any], where: str, size: tuple[int, int]) -> Action:
    name = _type_name(rec.get("results/action_type"), where)
    w, h = size
    if name == "DUAL_POINT":
        (ty, tx), (ly, lx) = _yx(rec, "results/yx_touch", where), _yx(rec, "results/yx_lift", where)
        if math.dist((ty, tx), (ly, lx)) <= TAP_DISTANCE:
            return Action(kind="click", x=px(tx * w), y=px(ty * h))
        return Action(kind="drag", x=px(tx * w), y=px(ty * h), x2=px(lx * w), y2=px(ly * h))
    if name == "TYPE":
        return Action(kind="type", text=str(rec.get("results/type_action") or ""))
    if name in ("PRESS_BACK", "PRESS_HOME", "PRESS_ENTER"):
        return Action(kind="key", keys=[name.removeprefix("PRESS_").lower()])
    if name == "STATUS_TASK_COMPLETE":
        return Action(kind="done")
    if name == "STATUS_TASK_IMPOSSIBLE":
        return Action(kind="fail")
    if name == "NO_ACTION":
        return Action(kind="wait")
    raise DatasetError(f"{where}: field 'results/action_type': {name} has no deskact action (a long press)")


def _boxes(rec: dict[str, Any], where: str, size: tuple[int, int]) -> list[list[float]]:
    flat = rec.get("image/ui_annotations_positions") or []
    if flat and isinstance(flat[0], list):  # already one [y, x, h, w] per element
        flat = [v for box in flat for v in box]
    if len(flat) % 4 or not all(isinstance(v, int | float) for v in flat):
        raise DatasetError(f"{where}: field 'image/ui_annotations_positions': expected 4 numbers per element")
    w, h = size
    return [[px(flat[i + 1] * w), px(flat[i] * h), px((flat[i + 1] + flat[i + 3]) * w), px((flat[i] + flat[i + 2]) * h)]
            for i in range(0, len(flat), 4)]


def load(path: Path) -> Loaded:
    """A JSON lines (or JSON list) rendering of AITW's steps; screenshots relative to the file."""
    out = Loaded(root=path.parent, kind="action_step", name=path.stem, source=f"Android in the Wild ({path.name})")
    return add_steps(out, read_records(path))


def add_steps(out: Loaded, records: Iterable[tuple[str, dict[str, Any]]]) -> Loaded:
    """Group ``(where, record)`` steps by episode and append their samples (images under ``out.root``)."""
    root = out.root
    episodes: dict[str, list[tuple[int, str, dict[str, Any]]]] = defaultdict(list)
    for where, rec in records:
        step = need(rec, "step_id", where, int)
        episodes[str(need(rec, "episode_id", where))].append((step, where, rec))
    for episode, steps in episodes.items():
        history: list[Action] = []
        for step, where, rec in sorted(steps, key=lambda s: s[0]):
            image_key = "image/encoded" if isinstance(rec.get("image/encoded"), str) else "image_path"
            image = rel_file(root, str(need(rec, image_key, where, str)), where, image_key)
            size = image_size(root / image)
            action = _action(rec, where, size)
            out.samples.append(ActionStep(
                id=f"{episode}-{step}", source="aitw", platform="mobile", image=image, width=size[0],
                height=size[1], instruction=str(need(rec, "goal_info", where, str)), history=list(history),
                action=action, elements=_boxes(rec, where, size), episode=episode, step=step))
            history.append(action)
    return out
