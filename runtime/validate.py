"""``deskact validate``: every task must reward 1 with its reference and 0 with noop.

A task that passes without doing anything, or fails with its own solution,
has a broken judge, reset or reference: exactly the silent errors that make
benchmark rewards untrustworthy.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from pydantic import BaseModel

from .config import Config
from .results import TaskResult
from .runner import Run, RunOptions


class Problem(BaseModel):
    task_id: str
    model: str
    status: str
    reward: int
    detail: str


def validate(config: Config, paths: list[str], workers: int = 1, tasks_glob: str | None = None,
             out: Path | None = None) -> tuple[list[Problem], int]:
    """Returns the problems found and the number of tasks checked."""
    base = out or Path(tempfile.mkdtemp(prefix="deskact-validate-"))
    problems: list[Problem] = []
    checked: set[str] = set()
    for model, want in (("reference", 1), ("noop", 0)):
        opts = RunOptions(paths=paths, model=model, out=base / model, workers=workers, tasks_glob=tasks_glob)
        results: list[TaskResult] = Run(config, opts).execute()
        for res in results:
            checked.add(res.task_id)
            if res.status in ("error", "invalid") or res.reward != want:
                detail = res.error or res.feedback or f"finish_reason={res.finish_reason}"
                if res.status not in ("error", "invalid") and want == 0:
                    detail = "passes without the agent doing anything (judge too weak?)"
                problems.append(Problem(task_id=res.task_id, model=model, status=res.status,
                                        reward=res.reward, detail=detail))
    return problems, len(checked)
