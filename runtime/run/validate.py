"""``deskact validate``: every task must reward 1 with its reference, 0 with noop and 0 with explore.

A task that passes without doing anything, or fails with its own solution,
has a broken judge, reset or reference: exactly the silent errors that make
benchmark rewards untrustworthy. ``explore`` (a lazy agent: one read-only step
that echoes the task, lists and cats the workspace, prints dates and ids) must
fail too: an answer judge that matches its output, or any judge a read-only
agent satisfies, would reward wrong agents. The fourth pass runs each task's
``counterexamples:`` (plausible wrong solutions: a copy instead of a move, the
right value in the wrong cell); any of them rewarded 1 shows a judge too loose,
which the other three passes cannot show. And each visual task's first observation must show
its windows drawn (``first_observation``): the offline models never look at the screen. It is
checked in the noop pass, on the screen the noop model is shown (a reset of its own per visual task
cost a sixth of a visual suite's validation).
"""

from __future__ import annotations

import glob
import tempfile
import threading
from pathlib import Path

from pydantic import BaseModel

from ..config import Config
from ..tasks.task import load_tasks
from .first_observation import observation_problem
from .results import TaskResult
from .runner import Run, RunOptions, select
from .task_env import TaskEnv


class Problem(BaseModel):
    task_id: str
    model: str
    status: str
    reward: int
    detail: str


FAILS_WITH = {
    "noop": "passes without the agent doing anything (judge too weak?)",
    "explore": "passes for an agent that only looked around (judge matches incidental output?)",
}


def validate(config: Config, paths: list[str], workers: int = 1, tasks_glob: str | None = None,
             out: Path | None = None, explore: bool = True, observe: bool = True) -> tuple[list[Problem], int]:
    """Returns the problems found and the number of tasks checked.

    Passes: reference (must reward 1), noop and, unless ``explore=False``, explore (must reward 0),
    then ``counterexample/<i>`` for each counterexample index (must reward 0); unless
    ``observe=False``, the noop pass also checks the first observation of each visual task (its
    windows drawn), reported after the passes.
    """
    base = out or Path(tempfile.mkdtemp(prefix="deskact-validate-"))
    problems: list[Problem] = []
    checked: set[str] = set()
    passes = [("reference", 1, tasks_glob), ("noop", 0, tasks_glob)] + ([("explore", 0, tasks_glob)] if explore else [])
    passes += counterexample_passes(paths, tasks_glob)
    unreferenced = without_reference(paths, tasks_glob)
    observed = FirstObservations()
    for model, want, pattern in passes:
        opts = RunOptions(paths=paths, model=model, out=base / model.replace("/", "-"), workers=workers,
                          tasks_glob=pattern)
        run = Run(config, opts)
        if observe and model == "noop":
            run.after_reset = observed.check
        results: list[TaskResult] = run.execute()
        for res in results:
            if res.status == "invalid" and res.task_id in checked:
                continue  # a broken task is reported once, not once per pass
            checked.add(res.task_id)
            if res.status in ("error", "invalid") or res.reward != want:
                detail = res.error or res.feedback or f"finish_reason={res.finish_reason}"
                if model == "reference" and res.task_id in unreferenced:
                    detail = unreferenced[res.task_id]
                if res.status not in ("error", "invalid") and want == 0:
                    detail = FAILS_WITH.get(model) or counterexample_passed(paths, res.task_id, model)
                problems.append(Problem(task_id=res.task_id, model=model, status=res.status,
                                        reward=res.reward, detail=detail))
    broken = {p.task_id for p in problems if p.status in ("error", "invalid")}  # reported already
    for task_id, detail in sorted(observed.problems.items()):
        if task_id not in broken:
            problems.append(Problem(task_id=task_id, model="observation", status="failed", reward=0, detail=detail))
    return problems, len(checked)


class FirstObservations:
    """The noop pass's look at each task's first observation (``first_observation``)."""

    def __init__(self) -> None:
        self.problems: dict[str, str] = {}
        self._lock = threading.Lock()

    def check(self, env: TaskEnv) -> None:
        try:
            problem = observation_problem(env)
        except Exception as exc:  # noqa: BLE001 - a failed look is this task's problem, reported
            problem = f"its first observation could not be checked: {type(exc).__name__}: {exc}"
        if problem is not None:
            with self._lock:
                self.problems[env.task.id] = problem


def without_reference(paths: list[str], tasks_glob: str | None) -> dict[str, str]:
    """Task id -> why it cannot pass the reference pass: it has no reference (imported ones say from where)."""
    return {
        t.id: "has no reference" + (f" (imported from {t.imported_from}: write one by hand)" if t.imported_from else "")
        for t in select(load_tasks(paths).tasks, tasks_glob) if not (t.reference or "").strip()
    }


def counterexample_passes(paths: list[str], tasks_glob: str | None) -> list[tuple[str, int, str]]:
    """One run per counterexample index: ``counterexample/i`` over the tasks that have an i-th one."""
    tasks = select(load_tasks(paths).tasks, tasks_glob)
    out = []
    for i in range(max((len(t.counterexamples) for t in tasks), default=0)):
        ids = [glob.escape(t.id) for t in tasks if len(t.counterexamples) > i]
        out.append((f"counterexample/{i}", 0, ",".join(ids)))
    return out


def counterexample_passed(paths: list[str], task_id: str, model: str) -> str:
    index = int(model.rpartition("/")[2])
    task = next(t for t in load_tasks(paths).tasks if t.id == task_id)
    note = task.counterexamples[index].note
    return (f"counterexample {index} (a wrong solution) passes: judge too loose"
            + (f" ({note})" if note else ""))
