"""Run progress for people and for logs, fed by the runner's events (``run/events.py``).

On a terminal: a live view with a bar against the whole run (on ``--resume`` the
earlier results count as done), passed/failed/error counts, elapsed time and ETA,
and one line per worker with the task it runs and its step.

Anywhere else (a file, a CI log): one line per finished attempt, e.g.
``[12/40] passed  os-make-dir  reward 1  3 steps  12.4s``, and every
``totals_every`` seconds a line of totals with the tasks running then.

``mode`` picks one of them: ``auto`` (live on a terminal, lines elsewhere),
``live``, ``lines``, or ``totals`` (a log that wants no line per task, such as
the demo's: only the periodic and final totals, and the errors).

Use: ``with progress_view(console) as runner.on_event: runner.execute()``.
Any backend that sends ``RunEvent``\\ s gets the same view.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.markup import escape
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from ..run.events import EventSink, RunEvent


@dataclass
class _Running:
    task_id: str
    epoch: int
    since: float
    step: int | None = None


@dataclass
class ProgressState:
    """Counts and the running tasks, updated from worker threads (under ``lock``)."""

    total: int = 0
    done_before: int = 0
    """Attempts an earlier run finished (``--resume``): counted as done, not in the ETA."""
    passed: int = 0
    failed: int = 0
    errors: int = 0
    kept: dict[str, int] = field(default_factory=dict)
    """The earlier run's results by passed/failed/errors (``--resume``): in the totals, not in the ETA."""
    started: float = field(default_factory=time.monotonic)
    running: dict[str, _Running] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    epochs: bool = False
    """Some attempt is past epoch 1: lines name the epoch."""

    @property
    def finished(self) -> int:
        return self.passed + self.failed + self.errors

    @property
    def done(self) -> int:
        return self.done_before + self.finished

    def eta(self) -> float | None:
        """Seconds left at this run's pace so far (None until an attempt has finished)."""
        if not self.finished:
            return None
        return (time.monotonic() - self.started) / self.finished * max(0, self.total - self.done)

    def apply(self, event: RunEvent) -> None:
        with self.lock:
            if event.epoch > 1 or (event.result is not None and event.result.epoch > 1):
                self.epochs = True
            if event.kind == "start":
                self.total, self.done_before, self.started = event.total, event.done, time.monotonic()
                self.kept = dict(Counter(_kind(r.status) for r in event.kept))
            elif event.kind == "task":
                self.running[event.worker] = _Running(event.task_id, event.epoch, time.monotonic())
            elif event.kind == "step" and event.worker in self.running:
                self.running[event.worker].step = event.step
            elif event.kind == "result" and event.result is not None:
                status = event.result.status
                if status == "passed":
                    self.passed += 1
                elif status == "failed":
                    self.failed += 1
                else:
                    self.errors += 1
                self.running.pop(event.worker, None)

    def counts(self) -> tuple[int, int, int]:
        """Passed, failed and errors over the whole run, the results kept from an earlier run included."""
        k = self.kept
        return self.passed + k.get("passed", 0), self.failed + k.get("failed", 0), self.errors + k.get("errors", 0)

    def totals(self) -> str:
        eta = self.eta()
        passed, failed, errors = self.counts()
        return (f"{self.done}/{self.total} done ({passed} passed, {failed} failed, {errors} errors), "
                f"{len(self.running)} running, elapsed {clock(time.monotonic() - self.started)}, "
                f"eta {clock(eta) if eta is not None else '?'}")


def _kind(status: str) -> str:
    return status if status in ("passed", "failed") else "errors"


def clock(seconds: float) -> str:
    seconds = round(seconds)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}h{m:02d}m{s:02d}s" if h else f"{m}m{s:02d}s" if m else f"{s}s"


def result_line(state: ProgressState, event: RunEvent) -> str:
    """One finished attempt as a log line: position, status, id, reward, steps, time (and why, if error)."""
    r = event.result
    assert r is not None
    epoch = f"  epoch {r.epoch}" if state.epochs else ""
    line = (f"[{state.done}/{state.total}] {r.status:<7} {r.task_id}{epoch}  reward {r.reward}  "
            f"{r.steps} steps  {r.duration_s:.1f}s")
    why = r.error if r.status == "error" else r.feedback if r.status == "failed" else None
    if why:  # the first line is the judge's sentence or the error, enough to tell failures apart
        line += f"  {why.splitlines()[0][:200]}"
    return line


class _LiveRender:
    """Rebuilt at each refresh of the live view."""

    def __init__(self, state: ProgressState) -> None:
        self.state = state

    def __rich__(self) -> RenderableType:
        s = self.state
        with s.lock:
            eta = s.eta()
            # One line, cropped rather than wrapped on a narrow terminal (the bar is 20 wide).
            head = Table.grid(padding=(0, 1))
            for _ in range(3):
                head.add_column(no_wrap=True, overflow="crop")
            eta_text = clock(eta) if eta is not None else "?"
            passed, failed, errors = s.counts()
            head.add_row(
                Text("tasks", style="bold"), ProgressBar(total=max(s.total, 1), completed=s.done, width=20),
                Text.from_markup(f"{s.done}/{s.total} [green]{passed} passed[/] [red]{failed} failed[/] "
                                 f"[yellow]{errors} errors[/] {clock(time.monotonic() - s.started)}, eta {eta_text}"),
            )
            workers = Table(box=None, show_header=bool(s.running), padding=(0, 2))
            for col in ("worker", "task", "step", "for"):
                workers.add_column(col, style="dim" if col == "worker" else None)
            now = time.monotonic()
            for worker, run in sorted(s.running.items()):
                name = run.task_id + (f" (epoch {run.epoch})" if s.epochs else "")
                step = "starting" if run.step is None else str(run.step + 1)
                workers.add_row(worker, name, step, clock(now - run.since))
        return Group(head, workers) if s.running else head  # the last frame stays one line


PROGRESS_MODES = ("auto", "live", "lines", "totals")


@contextmanager
def progress_view(console: Console, totals_every: float = 60.0, mode: str = "auto") -> Iterator[EventSink]:
    """A live view on a terminal, log lines elsewhere (see ``mode``); yields the event sink to give the runner."""
    if mode not in PROGRESS_MODES:
        raise ValueError(f"progress mode {mode!r}: expected one of {', '.join(PROGRESS_MODES)}")
    state = ProgressState()
    if mode == "live" or (mode == "auto" and console.is_terminal):
        with Live(_LiveRender(state), console=console, refresh_per_second=4, transient=False) as live:
            def on_live(event: RunEvent) -> None:
                state.apply(event)
                r = event.result
                if r is not None and r.status == "error":  # invalid tasks were listed before the view
                    live.console.print(f"[yellow]error[/] {escape(r.task_id)}: {escape(str(r.error))}")

            yield on_live
        return
    stop = threading.Event()
    write = threading.Lock()

    def say(text: str) -> None:
        with write:
            console.print(text, markup=False, highlight=False, soft_wrap=True)

    def on_log(event: RunEvent) -> None:
        state.apply(event)
        quiet = mode == "totals" and event.result is not None and event.result.status != "error"
        if event.kind == "result" and not quiet:
            with state.lock:
                line = result_line(state, event)
            say(line)

    def totals_loop() -> None:
        while not stop.wait(totals_every):
            with state.lock:
                line = "totals: " + state.totals()
            say(line)

    ticker = threading.Thread(target=totals_loop, daemon=True, name="progress-totals")
    ticker.start()
    try:
        yield on_log
    finally:
        stop.set()
        if state.total:
            say("totals: " + state.totals())


def resume_command(argv: list[str], out: str) -> str:
    """The exact command that completes an interrupted run: its own arguments, ``--out`` (the
    default folder has a timestamp) and ``--resume``."""
    import shlex

    args = [a for a in argv if a != "--resume"]
    has_out = any(a in ("--out", "-o") or a.startswith("--out=") for a in args)
    return shlex.join(["deskact", *args, *([] if has_out else ["--out", out]), "--resume"])
