"""Where the transcript of an ``apps.terminal`` xterm is kept, and how it reads as plain text.

xterm logs everything it shows (``-l -lf -``) to its standard output, which is
a file opened here on the host: no path in the world leads to it, so the
agent's view of the terminal and the judge's record of it are the same text,
and the record is not a file the agent can edit in place. With a world the file is
on the world's disk (a host-only folder of it): a terminal printing without end
fills the world's quota, not the host's disk, and the file goes with the world.
Without one it is in the temp dir, removed when the process exits (or, after a
kill -9, by the next deskact command). Judges read at most ``READ_LIMIT`` bytes
of it: its start and its end.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import re
import tempfile
from pathlib import Path

from ..runtime.tasks.limits import runner_pid
from ..runtime.tasks.steps import StepContext
from ..runtime.world import reaper

_CSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
_OSC = re.compile(r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
_ESC = re.compile(r"\x1b[@-Z\\-_()*+][0-9A-Za-z]?")


READ_LIMIT = 8 << 20
"""Bytes of a transcript a judge reads: the first quarter and the last three quarters of this."""
_made: set[Path] = set()


def transcript_path(ctx: StepContext, title: str) -> Path:
    tag = hashlib.sha1(f"{ctx.task_id}\0{ctx.display}\0{title}".encode()).hexdigest()[:16]
    if ctx.world is not None:
        return ctx.world.host_folder("terminal") / f"{tag}.log"
    path = Path(tempfile.gettempdir()) / f"deskact-terminal-{runner_pid()}-{tag}.log"  # a judge's child reads the runner's
    if path not in _made:
        _made.add(path)
        reaper.own(path)
    return path


def read_transcript(path: Path, limit: int = READ_LIMIT) -> bytes:
    """The transcript's bytes, or its start and end when it is longer than ``limit`` (what the
    world wrote is not read whole into the runner's memory)."""
    with path.open("rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size <= limit:
            return f.read(limit)
        head = f.read(limit // 4)
        f.seek(size - (limit - limit // 4))
        tail = f.read(limit - limit // 4)
    return head + f"\n[... {size - limit} bytes of the transcript not read ...]\n".encode() + tail


@atexit.register
def _remove_made() -> None:
    for path in _made:
        path.unlink(missing_ok=True)
        reaper.disown(path)


def plain_text(raw: bytes) -> str:
    """Terminal output as the screen shows it: escape sequences dropped, backspaces and carriage
    returns applied line by line (a progress bar leaves its last state)."""
    text = _ESC.sub("", _OSC.sub("", _CSI.sub("", raw.decode("utf-8", "replace"))))
    lines = []
    for line in text.replace("\r\n", "\n").split("\n"):
        line = line.rsplit("\r", 1)[-1] if line.rstrip("\r") else line.strip("\r")
        out: list[str] = []
        for ch in line:
            if ch == "\b":
                if out:
                    out.pop()
            elif ch >= " " or ch == "\t":
                out.append(ch)
        lines.append("".join(out))
    return "\n".join(lines)
