"""What the report shows, read from a run folder (results.jsonl + trajectories/).

Steps are read from the ``step_NNN.json`` files rather than ``episode.json``:
they are written as each step happens, so a task that crashed or was
interrupted still shows the steps it took.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from pydantic import BaseModel, Field

from ...agent.agent import StepRecord
from ...errors import DeskactError
from ...run.epochs import SuiteEpochs, TaskEpochs, has_epochs, suite_epochs, task_epochs
from ...run.manifest import RunManifest, read_manifest
from ...run.results import SummaryRow, TaskResult, latest_by_attempt, read_results, summarize
from ...run.trajectory import FIRST_OBSERVATION, safe_name
from ...run.video import VIDEO_FILE
from .pricing import cost_of

_OUTPUT_IMAGE = re.compile(r"^step_(\d{3})_output_(\d+)\.(png|jpg)$")


class StepView(BaseModel):
    """One step plus the files that belong to it, as paths relative to the trajectory folder."""

    record: StepRecord
    output_images: list[str] = Field(default_factory=list)


class TaskView(BaseModel):
    result: TaskResult
    page: str
    """File name of the task's page, next to index.html."""
    cost_usd: float | None = None
    instruction: str = ""
    system_prompt: str = ""
    answer: str = ""
    plan: list[str] = Field(default_factory=list)
    steps: list[StepView] = Field(default_factory=list)
    trajectory_dir: Path | None = None
    first_screenshot: str | None = None
    video: str | None = None
    """The episode video (``deskact run --record``), relative to the trajectory folder."""
    """The screen the model saw before step 1 (file in the trajectory folder), for visual tasks."""


class GroupRow(BaseModel):
    """A summary row plus the cost of its tasks (None if any task's model has no known price)."""

    row: SummaryRow
    cost_usd: float | None = None


class RunData(BaseModel):
    run_dir: Path
    tasks: list[TaskView]
    by_suite: list[GroupRow]
    by_tag: list[GroupRow]
    models: list[str]
    epoch_tasks: list[TaskEpochs] = Field(default_factory=list)
    """Per task pass@k and spread; empty unless some task ran more than one epoch."""
    epoch_suites: list[SuiteEpochs] = Field(default_factory=list)
    manifest: RunManifest | None = None
    """run.json: command, model and settings, deskact version, host, times (None for older run folders)."""


def load_run(run_dir: Path) -> RunData:
    """Everything the report needs; raises DeskactError if ``run_dir`` holds no results.jsonl."""
    results_path = run_dir / "results.jsonl"
    if not results_path.is_file():
        raise DeskactError(f"{results_path}: no such file (is {run_dir} a deskact run folder?)")
    results = list(latest_by_attempt(read_results(results_path)).values())  # every epoch of every task
    tasks = [_task_view(run_dir, r) for r in sorted(results, key=lambda r: (r.suite, r.task_id, r.epoch))]
    costs = {(t.result.task_id, t.result.epoch): t.cost_usd for t in tasks}
    per_task = task_epochs(results) if has_epochs(results) else []
    return RunData(
        run_dir=run_dir,
        tasks=tasks,
        by_suite=[_group(row, results, costs, "suite") for row in summarize(results, "suite")],
        by_tag=[_group(row, results, costs, "tag") for row in summarize(results, "tag")],
        models=sorted({r.model for r in results if r.model}),
        epoch_tasks=per_task,
        epoch_suites=suite_epochs(per_task, results) if per_task else [],
        manifest=read_manifest(run_dir),
    )


def _members(row: SummaryRow, results: list[TaskResult], by: str) -> list[TaskResult]:
    # Mirrors results.summarize's grouping, so the cost matches the row it sits in.
    if by == "suite":
        return results if row.group == "all" else [r for r in results if r.suite == row.group]
    return [r for r in results if row.group in (r.tags or ["(untagged)"])]


def _group(row: SummaryRow, results: list[TaskResult], costs: dict[tuple[str, int], float | None],
           by: str) -> GroupRow:
    values = [costs[(r.task_id, r.epoch)] for r in _members(row, results, by)]
    total = None if any(v is None for v in values) else sum(v for v in values if v is not None)
    return GroupRow(row=row, cost_usd=total)


def _task_view(run_dir: Path, result: TaskResult) -> TaskView:
    epoch = f"@{result.epoch}" if result.epoch > 1 else ""
    view = TaskView(result=result, page=f"task-{safe_name(result.task_id)}{epoch}.html",
                    cost_usd=cost_of(result.model, result.tokens))
    if not result.trajectory:
        return view
    folder = run_dir / result.trajectory
    if not folder.is_dir():
        return view
    view.trajectory_dir = folder
    episode = folder / "episode.json"
    if episode.is_file():
        try:
            data = json.loads(episode.read_text())
        except ValueError:
            data = {}
        view.instruction = str(data.get("instruction") or "")
        view.system_prompt = str(data.get("system_prompt") or "")
        view.answer = str(data.get("answer") or "")
        view.plan = [str(p) for p in data.get("plan") or []]
    images: dict[int, list[str]] = {}
    for file in sorted(folder.iterdir()):
        if file.stem == FIRST_OBSERVATION:
            view.first_screenshot = file.name
        if file.name == VIDEO_FILE:
            view.video = file.name
        m = _OUTPUT_IMAGE.match(file.name)
        if m:
            images.setdefault(int(m.group(1)), []).append(file.name)
    for file in sorted(folder.glob("step_[0-9][0-9][0-9].json")):
        try:
            record = StepRecord.model_validate_json(file.read_text())
        except ValueError:
            continue  # a step torn by a kill mid-write: the others still show
        view.steps.append(StepView(record=record, output_images=images.get(record.index, [])))
    return view


def load_task(run_dir: Path, result: TaskResult) -> TaskView:
    """One task's view without loading the whole run (the live viewer opens one task at a time)."""
    return _task_view(run_dir, result)
