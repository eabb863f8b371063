"""terminal.text: what an ``apps.terminal`` window showed, for tasks whose answer belongs in the terminal.

The record is xterm's own log of its screen output (see reset_scripts/_terminal_log.py), so
output printed by the agent's kernel, or written to a file, is not in it: only what the
terminal displayed. Escape sequences are dropped; carriage returns and backspaces applied.
"""

from __future__ import annotations

from ..reset_scripts._terminal_log import plain_text, read_transcript, transcript_path
from ..runtime.tasks.helpers import Regex, check_text, clip
from ..runtime.tasks.steps import StepContext, Verdict, judge


@judge("terminal.text", one_of=("contains", "regex"))
def terminal_text(ctx: StepContext, title: str = "Terminal", contains: str | None = None,
                  regex: Regex | None = None) -> Verdict:
    """The text the ``apps.terminal`` window titled ``title`` showed (commands and their output, the
    whole session) contains ``contains`` or matches ``regex`` (multiline: ^ and $ match at lines)."""
    log = transcript_path(ctx, title)
    if not log.is_file():
        return Verdict.fail(f"no terminal titled {title!r} was opened by this task's reset (apps.terminal)")
    text = plain_text(read_transcript(log))
    verdict = check_text(f"the terminal {title!r}", text, contains=contains, regex=regex)
    if not verdict.passed:
        verdict.feedback = f"the terminal {title!r} did not show that; its last lines: {clip(text[-400:], 420)}"
    return verdict
