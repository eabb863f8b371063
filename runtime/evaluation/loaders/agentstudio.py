"""AgentStudio's TrajectoryLite sets -> ``idm``, ``idm_clip`` and ``critic`` samples.

The published layout (``eval_agent_desiderata/datasets/trajectory_lite``)::

    trajectory_lite/
      metadata_idm.jsonl                  # IDM-Single: one action between two frames
      metadata_idmn2n.jsonl               # IDM-Multiple: every action of a trajectory
      metadata_success_detection.jsonl    # SuccessDetection (CriticBench): did it succeed
      images/...                          # obs_before / obs_after paths are relative to images/

An IDM-Single line: ``action_id``, ``obs_before``, ``obs_after``, ``operation`` (the label, one of
``action_space``), ``bbox``, ``metadata``, ``instruction``, ``source``, ``platform``. IDM-Multiple and
SuccessDetection lines: ``instruction``, ``annotation_id``, ``actions`` (each like an IDM-Single
action), ``source``, ``platform``, ``action_space``, ``is_success``.

As AgentStudio's own evaluators do, a clip keeps the last 5 actions of the trajectory (the 5 before
the last when the last has no ``obs_after``) and a critic trajectory its last 5 steps.
Actions become deskact Actions (agentstudio_actions.py); a record whose action has none is left
out and counted by reason (the dataset's description lists them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..samples import Action, CriticSample, IdmClip, IdmSample, TimedAction, TrajectoryStep
from .agentstudio_actions import to_action
from .common import Loaded, image_size, need, read_records, rel_file

IDM_KEYS = frozenset({"action_id", "obs_before", "obs_after", "operation"})
TRAJECTORY_KEYS = frozenset({"annotation_id", "actions", "instruction"})
CLIP_ACTIONS = 5
"""AgentStudio's evaluators show at most this many actions of a trajectory."""


def _platform(rec: dict[str, Any]) -> Any:
    return rec.get("platform") if rec.get("platform") in ("desktop", "web", "mobile") else "desktop"


def _frame(root: Path, rel: Any, where: str, field: str) -> str:
    return rel_file(root, "images/" + str(rel), where, field)


def load_idm(path: Path) -> Loaded:
    """IDM-Single (``metadata_idm.jsonl``)."""
    root = path.parent
    out = Loaded(root=root, kind="idm", name=path.stem, source=f"AgentStudio IDM-Single ({path.name})")
    seen: set[str] = set()  # the published IDM-Single repeats some action_ids: the later ones get -2, -3
    for where, rec in read_records(path):
        before = _frame(root, need(rec, "obs_before", where, str), where, "obs_before")
        after = _frame(root, need(rec, "obs_after", where, str), where, "obs_after")
        size = image_size(root / before)
        source = str(rec.get("source") or "")
        action = to_action(rec, size, source)
        if isinstance(action, str):
            out.skipped[action] += 1
            continue
        out.samples.append(IdmSample(
            id=_unique(seen, str(need(rec, "action_id", where))), source=f"agentstudio/{source}", platform=_platform(rec),
            before=before, after=after, width=size[0], height=size[1], action=action,
            instruction=rec.get("instruction") or None))
    return out


def _last_actions(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if actions and actions[-1].get("obs_after") is None:
        return actions[-CLIP_ACTIONS - 1:-1]
    return actions[-CLIP_ACTIONS:]


def _unique(seen: set[str], ident: str) -> str:
    name, n = ident, 2
    while name in seen:
        name, n = f"{ident}-{n}", n + 1
    seen.add(name)
    return name


def load_idm_multiple(path: Path) -> Loaded:
    """IDM-Multiple (``metadata_idmn2n.jsonl``): each trajectory's last actions as one clip of frames.

    The format has no times: frames are given one second apart (``frame_times`` 0, 1, 2, ...) and
    each action's ``t`` is the time of the frame before it.
    """
    root = path.parent
    out = Loaded(root=root, kind="idm_clip", name=path.stem, source=f"AgentStudio IDM-Multiple ({path.name})")
    seen: set[str] = set()
    for where, rec in read_records(path):
        steps = _last_actions(need(rec, "actions", where, list))
        if not steps:
            out.skipped["a trajectory with no actions"] += 1
            continue
        frames = [_frame(root, need(a, "obs_before", where, str), where, "actions.obs_before") for a in steps]
        frames.append(_frame(root, need(steps[-1], "obs_after", where, str), where, "actions.obs_after"))
        size = image_size(root / frames[0])
        source = str(rec.get("source") or "")
        actions = [to_action(a, size, source) for a in steps]
        why = next((a for a in actions if isinstance(a, str)), None)
        if why is not None:
            out.skipped[f"a clip with {why}"] += 1
            continue
        timed = [TimedAction(t=float(i), action=a) for i, a in enumerate(actions) if isinstance(a, Action)]
        out.samples.append(IdmClip(
            id=_unique(seen, str(need(rec, "annotation_id", where))), source=f"agentstudio/{source}",
            platform=_platform(rec), frames=frames, frame_times=[float(i) for i in range(len(frames))],
            width=size[0], height=size[1], actions=timed, instruction=rec.get("instruction") or None))
    return out


def load_success_detection(path: Path) -> Loaded:
    """SuccessDetection (``metadata_success_detection.jsonl``): instruction + last steps -> ``is_success``.

    A step whose action has no deskact equivalent keeps its screenshot with no action.
    """
    root = path.parent
    out = Loaded(root=root, kind="critic", name=path.stem, source=f"AgentStudio SuccessDetection ({path.name})")
    seen: set[str] = set()
    for where, rec in read_records(path):
        steps = need(rec, "actions", where, list)[-CLIP_ACTIONS:]
        success = need(rec, "is_success", where, bool)
        source = str(rec.get("source") or "")
        shots = [_frame(root, need(a, "obs_before", where, str), where, "actions.obs_before") for a in steps]
        traj = []
        for shot, step in zip(shots, steps, strict=True):
            action = to_action(step, image_size(root / shot), source)
            traj.append(TrajectoryStep(screenshot=shot, action=action if isinstance(action, Action) else None))
        last = steps[-1].get("obs_after") if steps else None
        final = _frame(root, last, where, "actions.obs_after") if last else None
        out.samples.append(CriticSample(
            id=_unique(seen, str(need(rec, "annotation_id", where))), source=f"agentstudio/{source}",
            platform=_platform(rec), instruction=str(need(rec, "instruction", where, str)), steps=traj,
            final_screenshot=final, success=success))
    return out
