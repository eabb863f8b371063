"""pysource.same_text: a Python file with the code of a reference, blank lines and layout aside.

OSWorld's ``compare_python_pure_text`` (desktop-env general.py) compares two ``.py`` files after a
minimal normalisation, kept here as it is: among the first three lines, leading shebang and coding
lines are dropped; every other line that is not blank is kept with tabs expanded to 4 columns and
trailing spaces removed; blank lines go. Anything else (comments, markdown fences, indentation)
must be the same.
"""

from __future__ import annotations

from ..runtime.tasks.helpers import clip, gold_file, shown
from ..runtime.tasks.steps import StepContext, Verdict, judge

_METADATA = ("#!", "# -*- coding:", "# coding:", "# coding=")


def normalized(text: str) -> list[str]:
    lines = text.splitlines()
    i = 0
    while i < len(lines) and i < 3 and lines[i].strip().startswith(_METADATA):
        i += 1
    return [line.expandtabs(4).rstrip() for line in lines[i:] if line.strip()]


@judge("pysource.same_text")
def pysource_same_text(ctx: StepContext, path: str, reference: str) -> Verdict:
    """``path`` (UTF-8) has the non-blank lines of ``reference`` (in the suite's gold/ folder or
    ${FILES}), tabs as 4 columns, trailing spaces and a leading shebang or coding line aside."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{shown(ctx, p)} should have the code of {reference} but does not exist")
    try:
        have = normalized(p.read_bytes().decode("utf-8").replace("\r\n", "\n").replace("\r", "\n"))
    except UnicodeDecodeError as exc:
        return Verdict.fail(f"{shown(ctx, p)} is not UTF-8 text ({exc})")
    want = normalized(gold_file(ctx, reference).read_text(encoding="utf-8"))
    if have == want:
        return Verdict.ok(f"{shown(ctx, p)} has the code of {reference} ({len(have)} lines)")
    i = next((k for k, (a, b) in enumerate(zip(have, want)) if a != b), min(len(have), len(want)))
    return Verdict.fail(f"{shown(ctx, p)} differs from {reference} at its {i + 1}th code line:"
                        f" {clip(have[i] if i < len(have) else '(none)')} (reference: {clip(want[i] if i < len(want) else '(none)')});"
                        f" {len(have)} vs {len(want)} code lines")
