"""answer.* judges: what the agent printed in its last step."""

from __future__ import annotations

import re

from ..runtime.tasks.helpers import Regex, clip
from ..runtime.tasks.steps import StepContext, Verdict, judge


@judge("answer.contains")
def answer_contains(ctx: StepContext, text: str, ignore_case: bool = False) -> Verdict:
    """The agent's final output contains ``text``."""
    haystack, needle = (ctx.answer.casefold(), text.casefold()) if ignore_case else (ctx.answer, text)
    if needle in haystack:
        return Verdict.ok(f"the answer contains {clip(text, 120)}")
    shown = clip(ctx.answer.strip()) if ctx.answer.strip() else "empty"
    return Verdict.fail(f"the answer should contain {clip(text, 120)} but is {shown}")


@judge("answer.regex")
def answer_regex(ctx: StepContext, pattern: Regex, ignore_case: bool = False) -> Verdict:
    """The agent's final output matches ``pattern`` (re.search, multiline)."""
    flags = re.MULTILINE | (re.IGNORECASE if ignore_case else 0)
    if re.search(pattern, ctx.answer, flags):
        return Verdict.ok(f"the answer matches /{pattern}/")
    shown = clip(ctx.answer.strip()) if ctx.answer.strip() else "empty"
    return Verdict.fail(f"the answer should match /{pattern}/ but is {shown}")


@judge("answer.infeasible")
def answer_infeasible(ctx: StepContext) -> Verdict:
    """The agent declared the task infeasible with ``infeasible("why")``: the right answer for a task
    that cannot be done as asked (OSWorld's ``infeasible`` tasks). In a task without this judge, that
    declaration fails the task."""
    if ctx.infeasible is not None:
        return Verdict.ok(f"the agent declared the task infeasible: {clip(ctx.infeasible or '(no reason given)')}")
    return Verdict.fail('the task cannot be done as asked, and the agent did not say so with infeasible("why")')
