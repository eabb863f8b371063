"""What docx.runs and pptx.runs share: the runs that hold a phrase, and their look against the wanted one.

How a run's look is resolved (what it inherits) differs between Word and PowerPoint and
lives with each judge (judges/docx.py, judges/pptx.py).
"""

from __future__ import annotations

from typing import Any

from ..runtime.tasks.helpers import clip
from ..runtime.tasks.steps import Verdict

Props = dict[str, Any]
PROPS = ("font", "size", "bold", "italic", "underline", "color")


def covering_runs(runs: list[Any], text: str, phrase: str) -> list[Any]:
    """The runs that hold some non-blank character of each occurrence of ``phrase`` in ``text``."""
    spans, start = [], text.find(phrase)
    while start >= 0:
        spans.append((start, start + len(phrase)))
        start = text.find(phrase, start + 1)
    out, pos = [], 0
    for run in runs:
        end = pos + len(run.text)
        if run.text.strip() and any(a < end and pos < b for a, b in spans):
            out.append(run)
        pos = end
    return out


def mismatches(have: Props, want: Props) -> list[str]:
    out = []
    for key, value in want.items():
        got = have.get(key)
        same = (got is not None and abs(float(got) - float(value)) < 0.01) if key == "size" else (
            str(got).lstrip("#").upper() == str(value).lstrip("#").upper() if key == "color" else got == value)
        if not same:
            out.append(f"{key} {got!r} (want {value!r})")
    return out


def verdict(where: str, phrase: str, found: list[tuple[str, Props]], want: Props) -> Verdict:
    if not found:
        return Verdict.fail(f"{where}: no text {clip(phrase, 80)} found")
    wrong = [f"{clip(t, 40)}: " + ", ".join(bad) for t, props in found if (bad := mismatches(props, want))]
    if wrong:
        return Verdict.fail(f"{where}: the text {clip(phrase, 60)} has " + "; ".join(wrong[:5]))
    return Verdict.ok(f"{where}: {clip(phrase, 60)} has " + ", ".join(f"{k} {v!r}" for k, v in want.items()))
