"""Run results: one ``TaskResult`` per line of ``results.jsonl``, and summaries of them."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from ..agent.models.base import Usage
from ..tasks.steps import Verdict

Status = Literal["passed", "failed", "error", "invalid"]


class PhaseTimes(BaseModel):
    """Seconds spent in each phase of a task (the overhead outside the model is all but `agent`)."""

    reset: float = 0.0
    kernel: float = 0.0
    agent: float = 0.0
    judge: float = 0.0
    cleanup: float = 0.0


class TaskResult(BaseModel):
    """One finished task. Appended to results.jsonl and flushed as the task ends."""

    schema_version: int = 3
    """2 added ``epoch`` (a version-1 line reads as epoch 1); 3 added ``stops_run``."""
    task_id: str
    epoch: int = 1
    """Which repetition of the task this is (``deskact run --epochs N``), from 1."""
    suite: str
    tags: list[str] = Field(default_factory=list)
    status: Status
    """passed / failed (judged), error (reset, judge or infrastructure failed), invalid (task did not load)."""
    reward: int = 0
    """1 only if every judge passed; errors and invalid tasks count as 0, never dropped."""
    feedback: str = ""
    """Why the task failed: the failing judges' feedback sentences."""
    finish_reason: str | None = None
    steps: int = 0
    duration_s: float = 0.0
    model: str = ""
    tokens: Usage = Field(default_factory=Usage)
    error: str | None = None
    stops_run: bool = False
    """The model's error would fail every task alike (a wrong key, model name or URL, a server that
    is down): the run stopped after this task unless ``--keep-going``."""
    verdicts: list[Verdict] = Field(default_factory=list)
    phases: PhaseTimes = Field(default_factory=PhaseTimes)
    trajectory: str | None = None
    """Trajectory folder, relative to the run folder."""
    source: str = ""
    """file:line of the task definition."""


def read_results(path: Path) -> list[TaskResult]:
    """Read results.jsonl; a torn last line (killed mid-write) is ignored."""
    if not path.exists():
        return []
    out = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        try:
            out.append(TaskResult.model_validate_json(line))
        except ValueError:
            continue
    return out


def latest_by_task(results: Iterable[TaskResult]) -> dict[str, TaskResult]:
    """The last result written for each task (a resumed run may have retried errors)."""
    return {r.task_id: r for r in results}


def latest_by_attempt(results: Iterable[TaskResult]) -> dict[tuple[str, int], TaskResult]:
    """The last result written for each (task, epoch): what a resumed ``--epochs`` run keys on."""
    return {(r.task_id, r.epoch): r for r in results}


class SummaryRow(BaseModel):
    group: str
    tasks: int = 0
    passed: int = 0
    errors: int = 0
    invalid: int = 0
    success_rate: float = 0.0
    finish_reasons: dict[str, int] = Field(default_factory=dict)
    mean_steps: float = 0.0
    mean_duration_s: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0


def summarize(results: Iterable[TaskResult], by: Literal["suite", "tag"] = "suite") -> list[SummaryRow]:
    groups: dict[str, list[TaskResult]] = defaultdict(list)
    for r in results:
        keys = [r.suite] if by == "suite" else (r.tags or ["(untagged)"])
        for key in keys:
            groups[key].append(r)
    rows = [_row(name, items) for name, items in sorted(groups.items())]
    everything = [r for items in groups.values() for r in items] if by == "suite" else []
    if by == "suite" and len(groups) > 1:
        rows.append(_row("all", everything))
    return rows


def _row(name: str, items: list[TaskResult]) -> SummaryRow:
    n = len(items)
    return SummaryRow(
        group=name,
        tasks=n,
        passed=sum(r.reward for r in items),
        errors=sum(r.status == "error" for r in items),
        invalid=sum(r.status == "invalid" for r in items),
        success_rate=sum(r.reward for r in items) / n if n else 0.0,
        finish_reasons=dict(Counter(r.finish_reason or r.status for r in items)),
        mean_steps=sum(r.steps for r in items) / n if n else 0.0,
        mean_duration_s=sum(r.duration_s for r in items) / n if n else 0.0,
        input_tokens=sum(r.tokens.input_tokens for r in items),
        output_tokens=sum(r.tokens.output_tokens for r in items),
    )


class ResultsWriter:
    """Appends one JSON line per task and flushes it, so a killed run loses nothing finished."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._file = path.open("a", encoding="utf-8")

    def write(self, result: TaskResult) -> None:
        self._file.write(result.model_dump_json() + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()

