"""``deskact run --watch``: where to see each worker's display while the run goes.

``--watch`` sets ``display.vnc_web``: every worker's virtual display is served by
x11vnc and shown by noVNC (world/vnc_web.py), both on 127.0.0.1. The runner
tells ``announcer`` as each worker's display starts, and it prints the
addresses (with ``display.vnc`` alone, the VNC port for a VNC client) and
records them in the run folder's ``watch.json``, so ``deskact view`` links a
live run to its screens.
Watching never turns on the per-block confirmation: that stays with
``agent.confirm`` (and display mode attach).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from rich.console import Console

from ..config import Config
from ..errors import DeskactError
from ..run.events import EventSink, RunEvent


def check_watch(config: Config, watch: bool) -> None:
    """--watch shows the virtual displays the workers start; other display modes have none to show."""
    if watch and config.display.mode != "virtual":
        raise DeskactError(f"--watch: display.mode is {config.display.mode!r}; it shows virtual displays only")


def describe(worker_id: int, display: Any) -> str | None:
    """One line saying where to watch this worker's display, or None when it is not served."""
    password = getattr(display, "vnc_password", None)
    vnc = f"VNC 127.0.0.1:{display.vnc_port}" if getattr(display, "vnc_url", None) else ""
    vnc += f", password {password}" if vnc and password else ""
    web = getattr(display, "web_url", None)
    if web:
        return f"watch worker {worker_id} (display {display.name}): {web} ({vnc})"
    if vnc:
        return f"worker {worker_id} (display {display.name}): {vnc} (e.g. vncviewer 127.0.0.1::{display.vnc_port})"
    return None


class WatchEntry(BaseModel):
    """Where one worker's display can be watched; a line of the run folder's watch.json."""

    worker: int
    display: str
    vnc_port: int
    web_url: str | None = None
    web_port: int | None = None
    task: str | None = None
    """The task the worker runs now (with its epoch as ``@N`` past the first), None between tasks."""


WATCH_FILE = "watch.json"


def announcer(console: Console, out_dir: Path | None = None) -> Callable[[int, Any], None]:
    """The runner's ``on_display`` hook: print each worker's addresses as its display starts
    (and record them in ``out_dir/watch.json`` for ``deskact view``)."""
    lock = threading.Lock()  # workers start their displays from their own threads

    def announce(worker_id: int, display: Any) -> None:
        line = describe(worker_id, display)
        if not line:
            return
        console.print(line, markup=False, highlight=False, soft_wrap=True)
        if out_dir is None:
            return
        entry = WatchEntry(worker=worker_id, display=display.name, vnc_port=display.vnc_port,
                           web_url=getattr(display, "web_url", None), web_port=getattr(display, "web_port", None))
        with lock:
            entries = {e.worker: e for e in read_watch(out_dir)}
            entries[worker_id] = entry
            _write_watch(out_dir, entries.values())

    return announce


def task_tracker(out_dir: Path) -> EventSink:
    """An event sink that keeps each watched worker's current task in ``watch.json`` (the viewer's
    links then name the worker and its task)."""
    lock = threading.Lock()

    def track(event: RunEvent) -> None:
        if event.kind not in ("task", "result") or not (out_dir / WATCH_FILE).exists():
            return
        worker = _worker_number(event.worker)
        task = f"{event.task_id}@{event.epoch}" if event.epoch > 1 else event.task_id
        with lock:
            entries = {e.worker: e for e in read_watch(out_dir)}
            if worker not in entries:
                return
            entries[worker].task = task if event.kind == "task" else None
            _write_watch(out_dir, entries.values())

    return track


def _worker_number(label: str) -> int | None:
    """``w3`` (or ``node-1/w3``) -> 3: the worker id the display was announced with."""
    digits = label.rsplit("/", 1)[-1].lstrip("w")
    return int(digits) if digits.isdigit() else None


def _write_watch(out_dir: Path, entries: Iterable[WatchEntry]) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = out_dir / (WATCH_FILE + ".tmp")
    tmp.write_text(json.dumps([e.model_dump() for e in sorted(entries, key=lambda e: e.worker)]))
    tmp.replace(out_dir / WATCH_FILE)  # the viewer never reads half a file


def read_watch(run_dir: Path) -> list[WatchEntry]:
    """The entries of ``run_dir/watch.json`` ([] when absent or unreadable)."""
    try:
        return [WatchEntry.model_validate(e) for e in json.loads((run_dir / WATCH_FILE).read_text())]
    except (OSError, ValueError, TypeError, ValidationError):
        return []


def live_watch(run_dir: Path) -> list[WatchEntry]:
    """The entries whose browser view still answers: the run is going (its displays stop with it)."""
    from ..world.vnc_web import listening

    return [e for e in read_watch(run_dir) if e.web_port and listening(e.web_port)]
