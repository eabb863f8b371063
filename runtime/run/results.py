"""Run results: one ``TaskResult`` per line of ``results.jsonl``, and summaries of them."""

from __future__ import annotations

import logging
import os
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from ..agent.models.base import Usage
from ..errors import DeskactError
from ..tasks.steps import Verdict

log = logging.getLogger(__name__)

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


def read_results(path: Path, notes: list[str] | None = None) -> list[TaskResult]:
    """Read results.jsonl. A line that cannot be a result is skipped and said so (in ``notes``, and as
    a warning): a torn last line (a kill mid-write: that task runs again on ``--resume``), a line cut
    inside a UTF-8 character, garbage."""
    if not path.exists():
        return []
    out = []
    data = path.read_bytes()
    lines = data.split(b"\n")
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        torn = number == len(lines)  # no newline after it: its write never finished
        try:
            out.append(TaskResult.model_validate_json(raw.decode("utf-8")))
        except UnicodeDecodeError:
            _note(notes, f"{path}:{number}: {'torn last line' if torn else 'line'} is not UTF-8 text: skipped")
        except ValueError:
            _note(notes, f"{path}:{number}: " + ("torn last line (the run was killed while writing it): skipped"
                                                 if torn else "not a task result: skipped"))
    return out


def _note(notes: list[str] | None, message: str) -> None:
    if notes is not None:
        notes.append(message)
    log.warning(message)


def check_out_dir(out: Path) -> None:
    """``--out`` can hold a run: a folder (made if missing) this process can write. A one-line error
    (DeskactError) says what is wrong otherwise, before any task runs."""
    if out.exists() and not out.is_dir():
        raise DeskactError(f"--out {out}: is a file, not a folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as exc:
        raise DeskactError(f"--out {out}: cannot write there: {exc.strerror or exc}") from None


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
    """Appends one JSON line per task, each in a single write of the whole line, flushed to disk, so a
    killed run loses nothing finished and tears no line. A torn tail an earlier kill left (no newline
    at the end) is cut off first, kept in ``results.jsonl.torn``, so the next line starts clean."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._repair()

    def _repair(self) -> None:
        size = os.fstat(self._fd).st_size
        if not size:
            return
        with self.path.open("rb") as f:
            data = f.read()
        end = data.rfind(b"\n") + 1
        if end == len(data):
            return
        with self.path.with_name(self.path.name + ".torn").open("ab") as torn:
            torn.write(data[end:] + b"\n")
        os.truncate(self._fd, end)
        log.warning("%s: cut a torn last line of %d bytes (kept in %s.torn)", self.path, len(data) - end, self.path.name)

    def write(self, result: TaskResult) -> None:
        line = (result.model_dump_json() + "\n").encode("utf-8")
        written = os.write(self._fd, line)
        if written != len(line):  # only a full disk writes part of a line: cut it, say so
            os.ftruncate(self._fd, os.fstat(self._fd).st_size - written)
            raise OSError(f"{self.path}: the disk took {written} of {len(line)} bytes of a result")
        os.fsync(self._fd)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
