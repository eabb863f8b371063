"""Judges' feedback as a person reads it: paths relative to the workspace, one sentence each.

Judges name files by the host path they checked, which for a workspace file is
a long temporary folder (``/tmp/deskact-w0-x1y2/workspaces/task-abc/notes/a.txt``)
that says nothing the task's own ``notes/a.txt`` does not. The task's paths are
relative to the workspace, so feedback is too. Several failing judges' sentences
are joined as sentences, not run together.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path


def relative_to_workspace(text: str, workspace: Path | None) -> str:
    """``WORKSPACE/x`` -> ``x``; the workspace folder itself -> ``the workspace``."""
    if not text or workspace is None:
        return text
    for root in sorted({str(workspace).rstrip("/"), str(Path(workspace).resolve()).rstrip("/")}, key=len, reverse=True):
        if len(root) <= 1:
            continue  # never rewrite "/"
        text = re.sub(re.escape(root) + r"/(?=\S)", "", text)
        text = re.sub(re.escape(root) + r"(?![\w.-])", "the workspace", text)
    return text


def join_feedback(sentences: Iterable[str]) -> str:
    """Each judge's feedback as a sentence of its own (a full stop added where it has none)."""
    parts = []
    for sentence in sentences:
        sentence = sentence.strip()
        if sentence:
            parts.append(sentence if sentence[-1] in ".!?" else sentence + ".")
    return " ".join(parts)
