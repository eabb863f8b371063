"""Find the code in a model's reply.

Rules, in order:
1. Fenced blocks tagged python, py, python3 or ipython are code; the first one runs.
2. Otherwise blocks tagged bash, sh, shell or console run as a shell cell (%%bash).
3. Otherwise an untagged fence is taken as Python.
4. Any other fence (json, text, ...) or no fence at all: the reply has no code.
An unterminated fence at the end of the reply is closed there (models get cut off).
"""

from __future__ import annotations

import re

from pydantic import BaseModel

_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([\w+-]*)[^\n]*\n(.*?)(?:^[ \t]*\1[ \t]*$|\Z)", re.MULTILINE | re.DOTALL)
PYTHON_TAGS = {"python", "py", "python3", "ipython"}
SHELL_TAGS = {"bash", "sh", "shell", "console"}


class ParsedReply(BaseModel):
    code: str | None
    """The code to run, or None when the reply has none."""
    blocks: int = 0
    """Number of runnable blocks found (the first runs)."""
    note: str = ""
    """Something to tell the model about how its reply was read."""


def extract_code(reply: str) -> ParsedReply:
    fences = [(m.group(2).lower(), m.group(3)) for m in _FENCE.finditer(reply)]
    python = [body for tag, body in fences if tag in PYTHON_TAGS]
    shell = [body for tag, body in fences if tag in SHELL_TAGS]
    plain = [body for tag, body in fences if tag == ""]
    if python:
        blocks, code = python, python[0]
    elif shell:
        blocks, code = shell, "%%bash\n" + shell[0]
    elif plain:
        blocks, code = plain, plain[0]
    else:
        return ParsedReply(code=None)
    code = code.rstrip()
    note = ""
    if len(blocks) > 1:
        note = f"Your reply had {len(blocks)} code blocks; only the first one ran. Send one block per reply."
    if not code.strip():
        return ParsedReply(code=None, blocks=len(blocks), note="Your code block was empty.")
    return ParsedReply(code=code, blocks=len(blocks), note=note)
