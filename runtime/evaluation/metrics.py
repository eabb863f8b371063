"""Step-level metrics, each as the paper that introduced it reports it (docs/evaluation.md, "Metrics").

Per sample, a ``*_parts`` function compares one prediction with the gold and returns the metric's
parts (a dict of plain values, stored in ``results.jsonl``) with ``reward`` 1 or 0. Per dataset,
:func:`summarize` turns those rows into the numbers the papers print.

- Grounding (AgentStudio GroundUI): right when the predicted point lies in the gold box (edges
  included); accuracy overall, per platform and per app.
- IDM-Single (AgentStudio IDMBench): the predicted action's kind equals the gold's (IDMBench asks
  for the action type among choices); ``exact`` also requires the parameters (keys, text, scroll
  direction, a point within 5 % of the screen of the gold one), reported beside it.
- IDM-Multiple: the kinds of the predicted actions in order against the gold ones: exact match
  rate and mean Levenshtein edit distance (also normalized by the longer sequence).
- Critic (AgentStudio CriticBench): success is the positive class; accuracy, precision, recall,
  F1 and the confusion counts. An answer that cannot be read is wrong for accuracy and counts as
  a "failure" prediction for precision and recall.
- Action matching (Android in the Wild, used by Auto-UI): action types must be equal; two taps
  match when they are within 14 % of the screen of each other (Euclidean distance in coordinates
  normalized to [0, 1] per axis) or inside the same UI element box, each box first enlarged by
  1.4 times its width and height; a tap and a swipe never match (a gesture shorter than 4 % of
  the screen is a tap); swipes/scrolls match when their direction matches (AITW's released code
  compares only the main axis, kept as ``axis_match``); typed text must match as Auto-UI checks it
  (lower-cased, one contained in the other). Per dataset: step accuracy, type accuracy, and the
  partial (mean fraction of matched steps per episode) and complete (all steps matched) episode
  match rates.
- CC-Score parts (ScreenAgent): action type (mouse/keyboard family and the exact kind), the
  action's attributes (mouse button and scroll direction; keys), the click position and the
  typed text's similarity. deskact's reading of the paper: the position counts within 5 % of the
  screen or in the gold's element box, the text similarity is 1 - normalized character edit
  distance (not BLEU: typed strings are a few words), the step's score is the mean of its parts.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from .samples import POINT_KINDS, Action, in_box

TAP_DISTANCE = 0.14
"""AITW: two taps match within this fraction of the screen (normalized Euclidean distance)."""
SWIPE_DISTANCE = 0.04
"""AITW: a gesture whose touch and lift are closer than this (normalized) is a tap."""
BOX_AUGMENT = 1.4
"""AITW: element boxes grow by this times their width and height before the same-box test."""
POSITION_TOLERANCE = 0.05
"""IDM ``exact`` and the CC-Score position part: a point within this fraction of the screen."""

MOUSE_KINDS = frozenset({"click", "double_click", "right_click", "move", "drag", "scroll"})
KEYBOARD_KINDS = frozenset({"type", "key", "hotkey"})


# ----------------------------------------------------------------------------- shared helpers

def levenshtein(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Edit distance (insertions, deletions, substitutions, each 1) between two sequences."""
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, item_a in enumerate(a, 1):
        current = [i]
        for j, item_b in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (item_a != item_b)))
        previous = current
    return previous[-1]


def text_similarity(a: str, b: str) -> float:
    """1 - edit distance / longer length, case-insensitive, outer spaces ignored (1.0 for two empties)."""
    a, b = a.strip().lower(), b.strip().lower()
    longest = max(len(a), len(b))
    return 1.0 if longest == 0 else 1.0 - levenshtein(a, b) / longest


def texts_match(pred: str | None, gold: str | None) -> bool:
    """Auto-UI's typed-text rule: lower-cased and stripped, one contains the other."""
    p, g = (pred or "").strip().lower(), (gold or "").strip().lower()
    return p in g or g in p


def normalized_distance(x1: float, y1: float, x2: float, y2: float, width: int, height: int) -> float:
    """Euclidean distance after scaling both axes to [0, 1] (AITW's "fraction of the screen")."""
    return math.hypot((x1 - x2) / width, (y1 - y2) / height)


def _rate(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator else 0.0


# ----------------------------------------------------------------------------- grounding

def ground_parts(box: list[float], point: tuple[float, float] | None) -> dict[str, Any]:
    """GroundUI: the point is right when it lies in ``box`` (edges included)."""
    if point is None:
        return {"reward": 0, "inside": False, "x": None, "y": None, "distance": None}
    x, y = point
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    inside = in_box(x, y, box)
    return {"reward": int(inside), "inside": inside, "x": x, "y": y, "distance": round(math.hypot(x - cx, y - cy), 2)}


# ----------------------------------------------------------------------------- IDM

def _points_close(pred: Action, gold: Action, width: int, height: int) -> bool:
    if gold.x is None or gold.y is None:
        return True
    if pred.x is None or pred.y is None:
        return False
    if normalized_distance(pred.x, pred.y, gold.x, gold.y, width, height) > POSITION_TOLERANCE:
        return False
    if gold.kind == "drag" and gold.x2 is not None and gold.y2 is not None:
        if pred.x2 is None or pred.y2 is None:
            return False
        return normalized_distance(pred.x2, pred.y2, gold.x2, gold.y2, width, height) <= POSITION_TOLERANCE
    return True


def actions_equal(pred: Action, gold: Action, width: int, height: int) -> bool:
    """Same kind and same parameters: keys (a hotkey's as a set), text (exact after stripping),
    scroll direction, and points within POSITION_TOLERANCE of the screen."""
    if pred.kind != gold.kind:
        return False
    if gold.kind == "hotkey" and set(pred.keys or []) != set(gold.keys or []):
        return False
    if gold.kind == "key" and (pred.keys or []) != (gold.keys or []):
        return False
    if gold.kind == "type" and (pred.text or "").strip() != (gold.text or "").strip():
        return False
    if gold.kind == "scroll" and pred.direction != gold.direction:
        return False
    return gold.kind not in POINT_KINDS or _points_close(pred, gold, width, height)


def idm_parts(gold: Action, pred: Action | None, width: int, height: int) -> dict[str, Any]:
    """IDM-Single: right when the kind is right (``exact``: the parameters too)."""
    if pred is None:
        return {"reward": 0, "kind_match": False, "exact": False, "predicted": None}
    kind_match = pred.kind == gold.kind
    return {"reward": int(kind_match), "kind_match": kind_match, "exact": actions_equal(pred, gold, width, height),
            "predicted": pred.short()}


def idm_clip_parts(gold: Sequence[Action], pred: Sequence[Action] | None) -> dict[str, Any]:
    """IDM-Multiple: the kind sequences, exact match and edit distance."""
    gold_kinds = [a.kind for a in gold]
    pred_kinds = [a.kind for a in pred] if pred is not None else []
    distance = levenshtein(pred_kinds, gold_kinds)
    longest = max(len(pred_kinds), len(gold_kinds))
    exact = pred is not None and pred_kinds == gold_kinds
    return {"reward": int(exact), "exact_match": exact, "edit_distance": distance,
            "normalized_edit_distance": round(_rate(distance, longest), 4),
            "gold_length": len(gold_kinds), "predicted_length": len(pred_kinds) if pred is not None else None,
            "predicted": pred_kinds if pred is not None else None}


# ----------------------------------------------------------------------------- critic

def critic_parts(gold: bool, pred: bool | None) -> dict[str, Any]:
    right = pred is not None and pred == gold
    return {"reward": int(right), "gold": gold, "predicted": pred}


def binary_metrics(pairs: Iterable[tuple[bool, bool | None]]) -> dict[str, Any]:
    """(gold, predicted) pairs, success = positive; an unread prediction (None) is a wrong "failure"."""
    tp = fp = fn = tn = unread = correct = 0
    for gold, pred in pairs:
        if pred is None:
            unread += 1
        elif pred == gold:
            correct += 1
        said_success = bool(pred)
        if gold and said_success:
            tp += 1
        elif gold:
            fn += 1
        elif said_success:
            fp += 1
        else:
            tn += 1
    total = tp + fp + fn + tn
    precision = _rate(tp, tp + fp)
    recall = _rate(tp, tp + fn)
    f1 = _rate(2 * precision * recall, precision + recall)
    return {"samples": total, "accuracy": _rate(correct, total), "precision": precision, "recall": recall,
            "f1": f1, "tp": tp, "fp": fp, "fn": fn, "tn": tn, "unread": unread}


# ----------------------------------------------------------------------------- AITW action matching

def _aitw_type(action: Action) -> str:
    """AITW's action type for one of ours: every tap and gesture is one type (dual_point)."""
    if action.kind in ("click", "double_click", "right_click", "drag", "scroll"):
        return "dual_point"
    if action.kind == "key" and action.keys in (["enter"], ["back"], ["home"]):
        return f"press_{(action.keys or [''])[0]}"
    if action.kind == "key":
        return "key:" + "+".join(action.keys or [])
    if action.kind == "hotkey":
        return "hotkey:" + "+".join(sorted(action.keys or []))
    return {"done": "status_task_complete", "fail": "status_task_impossible"}.get(action.kind, action.kind)


def _gesture(action: Action, width: int, height: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """Touch and lift, normalized (x, y), of a dual-point action; a scroll becomes the swipe that
    makes it (scrolling down = the finger moving up)."""
    if action.kind == "scroll":
        dx, dy = {"down": (0.0, -0.6), "up": (0.0, 0.6), "right": (-0.6, 0.0), "left": (0.6, 0.0)}[action.direction or "down"]
        return (0.5 - dx / 2, 0.5 - dy / 2), (0.5 + dx / 2, 0.5 + dy / 2)
    assert action.x is not None and action.y is not None
    touch = (action.x / width, action.y / height)
    if action.kind == "drag" and action.x2 is not None and action.y2 is not None:
        return touch, (action.x2 / width, action.y2 / height)
    return touch, touch


def swipe_direction(touch: tuple[float, float], lift: tuple[float, float]) -> str:
    """The scroll a swipe makes, by its main axis: the finger moving up scrolls down."""
    dx, dy = lift[0] - touch[0], lift[1] - touch[1]
    if abs(dy) >= abs(dx):
        return "down" if dy < 0 else "up"
    return "right" if dx < 0 else "left"


def _augmented(box: list[float], width: int, height: int) -> tuple[float, float, float, float]:
    """AITW's enlargement, in normalized coordinates: grow by BOX_AUGMENT x the size (half each side),
    top-left clamped to 0 and size to 1, as the released code does."""
    x0, y0, w, h = box[0] / width, box[1] / height, (box[2] - box[0]) / width, (box[3] - box[1]) / height
    left, top = max(0.0, x0 - BOX_AUGMENT * w / 2), max(0.0, y0 - BOX_AUGMENT * h / 2)
    new_w, new_h = min(1.0, w + BOX_AUGMENT * w), min(1.0, h + BOX_AUGMENT * h)
    return left, top, left + new_w, top + new_h


def _same_element(p: tuple[float, float], g: tuple[float, float], elements: Sequence[list[float]],
                  width: int, height: int) -> bool:
    for box in elements:
        x0, y0, x1, y1 = _augmented(box, width, height)
        if x0 <= p[0] <= x1 and y0 <= p[1] <= y1 and x0 <= g[0] <= x1 and y0 <= g[1] <= y1:
            return True
    return False


def aitw_parts(gold: Action, pred: Action | None, width: int, height: int,
               elements: Sequence[list[float]] = ()) -> dict[str, Any]:
    """Android in the Wild action matching (with Auto-UI's typed-text check) for one step."""
    parts: dict[str, Any] = {"reward": 0, "match": False, "type_match": False, "predicted": None}
    if pred is None:
        return parts
    parts["predicted"] = pred.short()
    gold_type, pred_type = _aitw_type(gold), _aitw_type(pred)
    parts["type_match"] = gold_type == pred_type
    if gold_type != "dual_point" or pred_type != "dual_point":
        match = gold_type == pred_type
        if match and gold.kind == "type":
            parts["text_match"] = texts_match(pred.text, gold.text)
            match = parts["text_match"]
    else:
        g_touch, g_lift = _gesture(gold, width, height)
        p_touch, p_lift = _gesture(pred, width, height)
        g_tap = math.dist(g_touch, g_lift) <= SWIPE_DISTANCE
        p_tap = math.dist(p_touch, p_lift) <= SWIPE_DISTANCE
        if g_tap != p_tap:
            match = False
        elif g_tap:
            distance = math.dist(p_touch, g_touch)
            parts["distance"] = round(distance, 4)
            parts["same_element"] = _same_element(p_touch, g_touch, elements, width, height)
            # A tap is one tap whatever the kind that made it, except that a desktop's double and
            # right clicks are different actions from a click.
            tap_kind = {"drag": "click"}.get
            parts["button_match"] = tap_kind(pred.kind, pred.kind) == tap_kind(gold.kind, gold.kind)
            match = parts["button_match"] and (distance <= TAP_DISTANCE or parts["same_element"])
        else:
            g_dir, p_dir = swipe_direction(g_touch, g_lift), swipe_direction(p_touch, p_lift)
            parts["axis_match"] = (g_dir in ("up", "down")) == (p_dir in ("up", "down"))
            parts["direction_match"] = g_dir == p_dir
            match = parts["direction_match"]
    parts["match"] = bool(match)
    parts["reward"] = int(bool(match))
    return parts


def episode_match(steps: Iterable[tuple[str, bool]]) -> dict[str, Any]:
    """(episode, matched) per step -> AITW's partial and complete episode match rates."""
    per_episode: dict[str, list[bool]] = defaultdict(list)
    for episode, matched in steps:
        per_episode[episode].append(matched)
    n = len(per_episode)
    partial = _rate(sum(sum(m) / len(m) for m in per_episode.values()), n)
    complete = _rate(sum(all(m) for m in per_episode.values()), n)
    return {"episodes": n, "partial_match": partial, "complete_match": complete}


# ----------------------------------------------------------------------------- CC-Score (ScreenAgent)

def _family(kind: str) -> str:
    return "mouse" if kind in MOUSE_KINDS else "keyboard" if kind in KEYBOARD_KINDS else kind


def cc_parts(gold: Action, pred: Action | None, width: int, height: int,
             elements: Sequence[list[float]] = ()) -> dict[str, Any]:
    """ScreenAgent's CC-Score parts for one step; parts that do not apply to the gold are None."""
    parts: dict[str, Any] = {"family": False, "kind": False, "attributes": False, "position": None, "text": None}
    if gold.kind in POINT_KINDS:
        parts["position"] = 0.0
    if gold.kind == "type":
        parts["text"] = 0.0
    if pred is not None:
        parts["family"] = _family(pred.kind) == _family(gold.kind)
        parts["kind"] = pred.kind == gold.kind
        if parts["kind"]:
            if gold.kind in ("key", "hotkey"):
                parts["attributes"] = set(pred.keys or []) == set(gold.keys or [])
            elif gold.kind == "scroll":
                parts["attributes"] = pred.direction == gold.direction
            else:  # the mouse button is in the kind; a typed text is scored by similarity below
                parts["attributes"] = True
        if parts["position"] is not None and pred.x is not None and pred.y is not None:
            assert gold.x is not None and gold.y is not None
            close = normalized_distance(pred.x, pred.y, gold.x, gold.y, width, height) <= POSITION_TOLERANCE
            boxes = [b for b in elements if in_box(gold.x, gold.y, b)]
            # The gold's element is the smallest box around its point (a cell, not the sheet).
            target = min(boxes, key=lambda b: (b[2] - b[0]) * (b[3] - b[1])) if boxes else None
            parts["position"] = float(close or (target is not None and in_box(pred.x, pred.y, target)))
        if parts["text"] is not None:
            parts["text"] = round(text_similarity(pred.text or "", gold.text or ""), 4) if pred.kind == "type" else 0.0
    scored = [float(v) for v in parts.values() if v is not None]
    parts["score"] = round(sum(scored) / len(scored), 4)
    return parts


# ----------------------------------------------------------------------------- per dataset

def _by(rows: Sequence[dict[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[int]] = defaultdict(list)
    for row in rows:
        if row.get(key):
            groups[str(row[key])].append(int(row.get("reward", 0)))
    return {name: {"samples": len(r), "accuracy": _rate(sum(r), len(r))} for name, r in sorted(groups.items())}


def summarize(kind: str, rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The dataset's metrics from its result rows (``reward``, ``parts``, ``platform``, ``app``,
    ``episode``, ``step``, ``error``), as the kind's paper reports them. Rates are fractions."""
    n = len(rows)
    rewards = [int(r.get("reward", 0)) for r in rows]
    out: dict[str, Any] = {"kind": kind, "samples": n, "accuracy": _rate(sum(rewards), n),
                           "errors": sum(1 for r in rows if r.get("error")),
                           "unparsed": sum(1 for r in rows if not r.get("error") and r.get("prediction") is None)}
    parts = [r.get("parts") or {} for r in rows]
    if kind == "ground":
        out["by_platform"] = _by(rows, "platform")
        out["by_app"] = _by(rows, "app")
    elif kind == "idm":
        out["exact"] = _rate(sum(bool(p.get("exact")) for p in parts), n)
        out["by_app"] = _by(rows, "app")
    elif kind == "idm_clip":
        out["exact_match"] = out["accuracy"]
        out["edit_distance"] = _rate(sum(p.get("edit_distance", 0) for p in parts), n)
        out["normalized_edit_distance"] = _rate(sum(p.get("normalized_edit_distance", 0.0) for p in parts), n)
    elif kind == "critic":
        out.update(binary_metrics((bool(p.get("gold")), p.get("predicted")) for p in parts))
    elif kind == "action_step":
        out["type_accuracy"] = _rate(sum(bool(p.get("type_match")) for p in parts), n)
        out.update(episode_match((str(r.get("episode") or r.get("id")), bool(r.get("reward"))) for r in rows))
        cc = [p.get("cc") or {} for p in parts]
        cc_summary: dict[str, Any] = {}
        for name in ("family", "kind", "attributes", "position", "text", "score"):
            values = [float(c[name]) for c in cc if c.get(name) is not None]
            cc_summary[name] = _rate(sum(values), len(values)) if values else None
        out["cc_score"] = cc_summary
    return out
