"""The screen and the accessibility tree while a person acts: taken when the screen has settled.

A person's actions come in bursts with pauses between them. The watcher follows the
input log as it is written (``input.jsonl``, line-buffered) and, while input is recent,
looks at a sixty-fourth of the screen's pixels ten times a second: each change larger
than a caret's blink is noted (``changes``). Once the input has been quiet and the screen
still for ``quiet`` seconds after some press, it takes a snapshot: the screenshot a model
would get and the active window's tree. So every action has a snapshot before it (the
last one taken before its first event, the tree the reference names elements from) and
after it, and ``changes`` says where the screen kept changing after an action (where the
reference must wait). A still screen with no input costs one file read a tenth of a second.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from ..agent.a11y import Element

TICK_S = 0.1
ACTIVE_S = 3.0
"""How long after the last input the screen is watched for changes."""
SUBSAMPLE = 8
"""Every 8th pixel of every 8th row: enough to see a menu open, 64 times less to compare."""


class Snapshot(BaseModel):
    """The screen and tree at one moment (``t``: monotonic seconds, taken before the capture)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    t: float
    screenshot: Any = None
    """A ``screen.screenshot.Screenshot``."""
    elements: list[Element] = Field(default_factory=list)
    tree_text: str = ""
    """The tree as a model reads it (or why it could not be read)."""


def significant(before: np.ndarray, after: np.ndarray) -> bool:
    """More changed than a caret's blink: the changed pixels' box covers over 0.1 % of the screen."""
    diff = np.any(before != after, axis=2)
    if not diff.any():
        return False
    rows, cols = np.flatnonzero(diff.any(axis=1)), np.flatnonzero(diff.any(axis=0))
    area = (rows[-1] - rows[0] + 1) * (cols[-1] - cols[0] + 1)
    return bool(area * 1000 > diff.size)


class Watcher:
    """Follows ``log_path`` and takes snapshots of ``display`` when the screen settles after input."""

    def __init__(self, display: str, log_path: Path, take: Callable[[], Snapshot], quiet: float = 0.3) -> None:
        self.display = display
        self.log_path = log_path
        self.take = take
        self.quiet = quiet
        self.snapshots: list[Snapshot] = []
        self.changes: list[float] = []
        """Monotonic times at which the screen was seen changing (more than a caret) after input."""
        self.presses = 0
        """Button and key presses seen so far (the page shows the count)."""
        self.events = 0
        self._stop = threading.Event()
        self._offset = 0
        self._buffer = b""
        self._last_input = -1e9
        self._pending = False
        self._frame: np.ndarray | None = None
        self._last_change = -1e9
        self._thread = threading.Thread(target=self._run, name=f"record-snapshots {display}", daemon=True)
        self.error: str | None = None

    def start(self, first: Snapshot) -> None:
        self.snapshots.append(first)
        self._thread.start()

    def _grab(self) -> np.ndarray:
        from ..screen.grabber import with_frame

        return with_frame(self.display, False, lambda frame, _c, _s: np.array(frame[::SUBSAMPLE, ::SUBSAMPLE, :3]))

    def _read_log(self) -> None:
        """New complete lines of the input log: count events, note the last press."""
        try:
            with self.log_path.open("rb") as f:
                f.seek(self._offset)
                data = f.read()
        except FileNotFoundError:
            return
        self._offset += len(data)
        self._buffer += data
        *lines, self._buffer = self._buffer.split(b"\n")
        for line in lines:
            try:
                item = json.loads(line)
            except ValueError:
                continue
            kind = item.get("kind")
            if kind in ("start", "stop"):
                continue
            self.events += 1
            if kind in ("button_press", "key_press"):
                self.presses += 1
            if kind != "motion" or "button" in item:
                self._pending = True
            if kind != "motion":
                self._last_input = float(item.get("t", time.monotonic()))

    def _tick(self) -> None:
        self._read_log()
        now = time.monotonic()
        if now - self._last_input > ACTIVE_S and not self._pending:
            self._frame = None
            return
        frame = self._grab()
        if self._frame is not None and significant(self._frame, frame):
            self._last_change = now
            self.changes.append(now)
        self._frame = frame
        if self._pending and now - self._last_input >= self.quiet and now - self._last_change >= self.quiet:
            self._pending = False
            self.snapshots.append(self.take())

    def _run(self) -> None:
        while not self._stop.wait(TICK_S):
            try:
                self._tick()
            except Exception as exc:  # noqa: BLE001 - a failed look must not end the recording
                self.error = f"{type(exc).__name__}: {exc}"

    def stop(self, settle_timeout: float = 5.0) -> None:
        """Stop watching; once the screen has settled (at most ``settle_timeout``), a last snapshot."""
        self._stop.set()
        self._thread.join(10)
        self._read_log()
        deadline = time.monotonic() + settle_timeout
        last = self._grab()
        still_since = time.monotonic()
        while time.monotonic() < deadline and time.monotonic() - still_since < self.quiet:
            time.sleep(TICK_S)
            frame = self._grab()
            if significant(last, frame):
                self.changes.append(time.monotonic())
                still_since = time.monotonic()
            last = frame
        self.snapshots.append(self.take())

    def close(self) -> None:
        """Stop watching, with no last snapshot (the recording ended by an error)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(10)

    def before(self, t: float) -> Snapshot:
        """The last snapshot taken before monotonic time ``t``."""
        earlier = [s for s in self.snapshots if s.t < t]
        return earlier[-1] if earlier else self.snapshots[0]

    def after(self, t: float) -> Snapshot:
        """The first snapshot taken after monotonic time ``t``."""
        later = [s for s in self.snapshots if s.t > t]
        return later[0] if later else self.snapshots[-1]
