"""files.same_text: a text file matches a reference file line by line.

``files.same`` compares bytes, which fails an agent over a missing final
newline or CRLF line ends; task outputs such as "the ERROR lines of a log"
are judged by their lines instead, and the feedback names the first line
that differs so the agent can act on it.
"""

from __future__ import annotations

from ..reset_scripts._common import clip, gold_file
from ..runtime.tasks.steps import StepContext, Verdict, judge


def _lines(text: str) -> list[str]:
    # Trailing whitespace per line and blank lines at the end carry no meaning here.
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


@judge("files.same_text")
def files_same_text(ctx: StepContext, path: str, reference: str, sort: bool = False) -> Verdict:
    """``path`` has the same lines as ``reference`` (in the suite's gold/ folder, or ${FILES}),
    ignoring line endings and trailing whitespace; ``sort: true`` ignores line order."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be a text file like {reference} but {'is a directory' if p.is_dir() else 'does not exist'}")
    actual = _lines(p.read_text(encoding="utf-8", errors="replace"))
    expected = _lines(gold_file(ctx, reference).read_text(encoding="utf-8"))
    if sort:
        actual, expected = sorted(actual), sorted(expected)
    if actual == expected:
        return Verdict.ok(f"{p} has the expected {len(expected)} lines")
    if len(actual) != len(expected):
        count = f"{len(actual)} lines instead of {len(expected)}"
    else:
        count = f"{len(actual)} lines as expected"
    first = next((i for i, (a, e) in enumerate(zip(actual, expected)) if a != e), min(len(actual), len(expected)))
    want = clip(expected[first], 100) if first < len(expected) else "no line (end of file)"
    got = clip(actual[first], 100) if first < len(actual) else "no line (end of file)"
    order = " (sorted)" if sort else ""
    return Verdict.fail(
        f"{p} has {count}; line {first + 1}{order} should be {want} but is {got}",
        first_difference=first + 1,
    )
