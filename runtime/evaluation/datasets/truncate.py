"""Truncated successes: a task's reference cut before its last effective statement.

A critic must tell a finished task from one that stopped one step short (the file edited but
not saved, the form filled but not submitted): AgentStudio's CriticBench makes its failures
from partial successful trajectories. deskact's references are one code block each, so the
cut is made in the code: its top-level statements, less the last one that does something.
Statements that only wait, print, check or end the episode (``exit()``, ``print(...)``,
``time.sleep``, ``windows.wait...``, ``assert``) are not effective: cutting them would change
nothing. The cut code runs in the task's world like any model's reply (the ``truncated``
model below, ``deskact datasets truncated``), and the judges decide: a cut the judges still
pass is no failure, and the critic set drops it (``critic.py``).
"""

from __future__ import annotations

import ast
import time
from collections.abc import Mapping
from pathlib import Path

from ...agent.models.base import Message, Model, ModelReply
from ...agent.models.offline import Reference, _timed, python_block
from ...agent.models.registry import model_provider
from ...config import Config
from ...errors import ModelError
from ...run.results import TaskResult
from ...tasks.task import Task

MODEL = "truncated"
_IDLE_CALLS = frozenset({"exit", "quit", "print", "sleep", "pprint", "display"})
_IDLE_PREFIXES = ("wait",)
"""Calls whose name starts so (``windows.wait_closed``, ``wait_for``) only wait."""


def _python(code: str) -> str:
    """IPython syntax (``!cmd``, ``%magic``) as plain Python, line for line, for the parser."""
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except ImportError:  # no IPython: plain Python references still parse
        return code
    return str(TransformerManager().transform_cell(code))


def _idle(statement: ast.stmt) -> bool:
    if isinstance(statement, (ast.Pass, ast.Assert, ast.Import, ast.ImportFrom)):
        return True
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
        return True  # a docstring or a bare value
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        func = statement.value.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        return name in _IDLE_CALLS or name.startswith(_IDLE_PREFIXES)
    return False


def truncate(code: str) -> str | None:
    """The code cut before its last effective top-level statement, or None when that would leave
    no effective statement (a one-statement reference has no partial success) or it does not parse."""
    try:
        body = ast.parse(_python(code)).body
    except SyntaxError:
        return None
    effective = [s for s in body if not _idle(s)]
    if len(effective) < 2:
        return None
    lines = code.splitlines(keepends=True)
    cut = effective[-1].lineno - 1
    # Decorators and comments just above the cut statement go with it.
    decorators = getattr(effective[-1], "decorator_list", [])
    if decorators:
        cut = min(d.lineno for d in decorators) - 1
    kept = "".join(lines[:cut]).rstrip()
    return kept + "\n" if kept else None


class TruncatedReference(Reference):
    """Replays the task's reference cut before its last effective statement, then asks to exit."""

    name = MODEL

    def start_episode(self, task: Task) -> None:
        self._task_id = task.id
        self._code = truncate(task.reference) if task.reference else None
        self._sent = False

    def reply(self, system: str, messages: list[Message]) -> ModelReply:
        if self._task_id is not None and self._code is None:
            raise ModelError(f"{MODEL}: task {self._task_id}'s reference has fewer than two effective "
                             "statements: no partial success to make")
        if self._sent:
            return super().reply(system, messages)
        self._sent = True
        return _timed(python_block(self._code or ""), time.monotonic())


@model_provider(MODEL, takes_model=False)
def truncated_model(model_name: str, config: Config, environ: Mapping[str, str]) -> Model:
    return TruncatedReference()



def truncatable(paths: list[str], tasks_glob: str | None = None) -> list[str]:
    """Ids of the tasks whose reference can be cut (at least two effective statements)."""
    from ...run.runner import select
    from ...tasks.task import load_tasks

    return [t.id for t in select(load_tasks(paths).tasks, tasks_glob) if t.reference and truncate(t.reference)]


def run_truncated(config: Config, paths: list[str], out: Path, workers: int = 1,
                  tasks_glob: str | None = None) -> list[TaskResult]:
    """Run every truncatable task of ``paths`` with its cut reference into the run folder ``out``
    (``run.json``, ``results.jsonl``, trajectories: what ``critic.py`` reads). Tasks whose
    reference cannot be cut are left out (not errors)."""
    from ...run.runner import Run, RunOptions

    ids = truncatable(paths, tasks_glob)
    if not ids:
        return []
    opts = RunOptions(paths=paths, model=MODEL, out=out, workers=workers, tasks_glob=",".join(ids), keep_going=True)
    return Run(config, opts).execute()
