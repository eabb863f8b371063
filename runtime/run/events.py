"""What a run tells the people watching it: one small event type, fed to ``Run.on_event``.

Any backend (the thread runner here, the Ray backend) drives any view
(``ui/progress.py``: a live terminal view or log lines) through these four
kinds, in this order per task:

- ``start``: once, before the first task: ``total`` attempts in the whole run
  (every task x epoch, invalid tasks included) of which ``done`` were finished
  by an earlier run (``--resume``), so a bar counts against the full run;
  ``epoch`` is the number of epochs each task runs (``--epochs``); ``kept`` holds
  those earlier results, so totals count every result of the run.
- ``task``: ``worker`` begins ``task_id`` (epoch ``epoch``).
- ``step``: ``worker``'s task took step ``step`` (0 = the first observation).
- ``result``: an attempt ended (``result``; ``worker`` is empty for invalid tasks).

``worker`` is a short label that says where the task runs: ``w0`` for thread
workers; a distributed backend may say ``node-3/w1``. Callbacks run on worker
threads: a view must be thread-safe and quick.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from .results import TaskResult

EventKind = Literal["start", "task", "step", "result"]


@dataclass(frozen=True)
class RunEvent:
    kind: EventKind
    worker: str = ""
    task_id: str = ""
    epoch: int = 1
    step: int = 0
    total: int = 0
    done: int = 0
    result: TaskResult | None = None
    kept: tuple[TaskResult, ...] = ()
    """``start`` of a resumed run: the results an earlier run finished (and this one keeps)."""


EventSink = Callable[[RunEvent], None]


def ignore(event: RunEvent) -> None:
    """The default sink: nobody is watching."""
