"""answer.* judges: what the agent printed in its last step."""

import pytest
from deskact.runtime.tasks.steps import StepContext, Verdict, lookup, run_judge


def j(judge_name: str, ctx: StepContext, **params: object) -> Verdict:
    v = run_judge(judge_name, params, ctx)
    assert not v.error, v.feedback
    return v


def test_answer(ctx: StepContext) -> None:
    ctx.answer = "The total is 42 apples.\n"
    assert j("answer.contains", ctx, text="42").passed
    assert j("answer.contains", ctx, text="APPLES", ignore_case=True).passed
    assert j("answer.regex", ctx, pattern=r"total is \d+").passed
    v = j("answer.contains", ctx, text="43")
    assert v.feedback == "the answer should contain '43' but is 'The total is 42 apples.'"
    v = j("answer.regex", ctx, pattern=r"^\d+$")
    assert v.feedback == "the answer should match /^\\d+$/ but is 'The total is 42 apples.'"
    ctx.answer = "  "
    assert j("answer.contains", ctx, text="x").feedback == "the answer should contain 'x' but is empty"
    with pytest.raises(ValueError, match="bad regular expression"):
        lookup("judge", "answer.regex").validate({"pattern": "[a-"})
    with pytest.raises(ValueError, match="unknown param `txt` for `answer.contains`; did you mean `text`?"):
        lookup("judge", "answer.contains").validate({"txt": "x"})


def test_answer_infeasible(ctx: StepContext) -> None:
    ctx.infeasible = None
    v = j("answer.infeasible", ctx)
    assert not v.passed and 'did not say so with infeasible("why")' in v.feedback
    ctx.infeasible = "there is no such menu"
    v = j("answer.infeasible", ctx)
    assert v.passed and v.feedback == "the agent declared the task infeasible: 'there is no such menu'"
