"""Code confirmation: a person approves, edits or rejects each block before it runs.

On by default when the agent drives a real person's desktop (display mode
``attach``); ``agent.confirm`` forces it on or off.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Callable

from rich.console import Console
from rich.syntax import Syntax

from ..config import Config


def confirmation_enabled(config: Config) -> bool:
    if config.agent.confirm is not None:
        return config.agent.confirm
    return config.display.mode == "attach"


def console_confirm(read: Callable[[str], str] = input, console: Console | None = None) -> Callable[[str], str | None]:
    """A confirm function for terminals and notebooks: [a]pprove, [e]dit, [r]eject."""
    out = console or Console()

    def confirm(code: str) -> str | None:
        out.print(Syntax(code, "python", line_numbers=True))
        while True:
            answer = read("Run this code? [a]pprove / [e]dit / [r]eject: ").strip().lower()
            if answer in ("a", "approve", "y", "yes", ""):
                return code
            if answer in ("r", "reject", "n", "no"):
                return None
            if answer in ("e", "edit"):
                return _edit(code, read)

    return confirm


def _edit(code: str, read: Callable[[str], str]) -> str:
    editor = os.environ.get("EDITOR")
    if editor:
        with tempfile.NamedTemporaryFile("w+", suffix=".py", delete=False) as f:
            f.write(code)
        try:
            subprocess.run([editor, f.name], check=False)
            with open(f.name) as edited:
                return edited.read()
        finally:
            os.unlink(f.name)
    print("Type the new code; end with a line holding only '.'")
    lines = []
    while (line := read("")) != ".":
        lines.append(line)
    return "\n".join(lines)
