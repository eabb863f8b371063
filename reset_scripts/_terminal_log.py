"""Where the transcript of an ``apps.terminal`` xterm is kept, and how it reads as plain text.

xterm logs everything it shows (``-l -lf -``) to its standard output, which is
a file opened here on the host: no path in the world leads to it, so the
agent's view of the terminal and the judge's record of it are the same text,
and the record is not a file the agent can edit in place.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from pathlib import Path

from ..runtime.tasks.steps import StepContext

_CSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
_OSC = re.compile(r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
_ESC = re.compile(r"\x1b[@-Z\\-_()*+][0-9A-Za-z]?")


def transcript_path(ctx: StepContext, title: str) -> Path:
    tag = hashlib.sha1(f"{ctx.task_id}\0{ctx.display}\0{title}".encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"deskact-terminal-{os.getuid()}-{tag}.log"


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
