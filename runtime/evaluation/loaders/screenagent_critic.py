"""ScreenAgent's evaluating steps (its evaluator's sub-task verdicts) -> ``critic`` samples.

ScreenAgent's loop plans sub-tasks, acts, then asks its evaluator whether the screen shows the
current sub-task done. Those steps (``status`` ``evaluating``, or in the train split a lone
``EvaluateSubTaskAction``) hold the screenshot after acting and the gold verdict ``situation``:
``sub_task_success``, or ``need_retry``/``need_reformulate``. The dataset adds negatives
(``*_neg_eval.json``): the same sub-task with the screenshot from before it was done, labelled
``need_retry``. Each becomes one critic sample: the sub-task (with the session's goal) as the
instruction, the screenshot as the screen at the end, success when ``sub_task_success`` (as
ScreenAgent's own scoring folds every other situation into failure). Classes are kept as
published (no balancing).
"""

from __future__ import annotations

import json
from pathlib import Path

from ..samples import CriticSample, DatasetError
from .common import Loaded, need, rel_file


def _files(path: Path) -> tuple[Path, list[Path]]:
    if path.is_file():
        return path.parent.parent, [path]
    if (path / "images").is_dir():  # one session
        return path.parent, sorted(path.glob("*.json"))
    return path, sorted(path.rglob("*.json"))


def load(path: Path) -> Loaded:
    """A split folder, one session folder, or one step file; negatives included."""
    root, files = _files(path)
    out = Loaded(root=root, kind="critic", name=(path.stem if path.is_file() else path.name) + "-critic",
                 source=f"ScreenAgent evaluator steps ({path.name})")
    for file in files:
        where = str(file)
        try:
            rec = json.loads(file.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise DatasetError(f"{file}: not JSON: {exc.msg} at line {exc.lineno}") from None
        if not isinstance(rec, dict) or not {"task_prompt", "saved_image_name", "actions"} <= rec.keys():
            continue
        verdicts = [a for a in rec["actions"] if isinstance(a, dict) and a.get("action_type") == "EvaluateSubTaskAction"]
        if not verdicts:
            continue  # planning and acting steps
        situation = str(verdicts[0].get("situation") or "")
        if situation not in ("sub_task_success", "goal_success", "need_retry", "need_reformulate"):
            out.skipped[f"a verdict {situation!r}"] += 1
            continue
        folder = file.parent.relative_to(root).as_posix()
        name = need(rec, "saved_image_name", where, str)
        image = rel_file(root, f"{folder}/images/{name}".removeprefix("./"), where, "saved_image_name")
        goal = rec.get("task_prompt_en") or need(rec, "task_prompt", where, str)
        subtask = rec.get("current_task") or goal
        session = folder if folder != "." else file.stem
        out.samples.append(CriticSample(
            id=f"{session.replace('/', '-')}-{file.stem}", source="screenagent", platform="desktop",
            instruction=goal if subtask == goal else f"{subtask} (a step of the task: {goal})", steps=[], final_screenshot=image,
            success=situation in ("sub_task_success", "goal_success"), task=session,
            feedback=str(verdicts[0].get("advice") or "") or None))
    return out
