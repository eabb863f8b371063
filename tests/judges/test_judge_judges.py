"""judges.any: at least one alternative (a list of judges) passes whole."""

import pytest
from deskact.runtime.tasks.steps import StepContext, lookup, run_judge


def test_any_alternative_passing_whole_passes(ctx: StepContext) -> None:
    (ctx.workspace / "a.txt").write_text("alpha\n")
    first = [{"files.exists": {"path": "${WORKSPACE}/a.txt"}}, {"files.exists": {"path": "${WORKSPACE}/b.txt"}}]
    second = [{"files.content": {"path": "${WORKSPACE}/a.txt", "contains": "alpha"}}]
    v = run_judge("judges.any", {"of": [first, second]}, ctx)
    assert v.passed and not v.error and v.details["alternative"] == 2, v.feedback
    assert run_judge("judges.any", {"of": [second, first]}, ctx).details["alternative"] == 1


def test_no_alternative_passing_fails_and_names_each(ctx: StepContext) -> None:
    (ctx.workspace / "a.txt").write_text("alpha\n")
    half = [{"files.exists": {"path": "${WORKSPACE}/a.txt"}}, {"files.exists": {"path": "${WORKSPACE}/b.txt"}}]
    wrong = [{"files.content": {"path": "${WORKSPACE}/a.txt", "contains": "beta"}}]
    v = run_judge("judges.any", {"of": [half, wrong]}, ctx)
    assert not v.passed and not v.error
    assert "alternative 1: files.exists" in v.feedback and "b.txt" in v.feedback
    assert "alternative 2: files.content" in v.feedback


def test_an_inner_error_errors_unless_another_passes(ctx: StepContext) -> None:
    (ctx.workspace / "a.txt").write_text("alpha\n")
    broken = [{"xlsx.compare": {"path": "${WORKSPACE}/a.txt", "gold": "missing.xlsx"}}]
    fails = [{"files.exists": {"path": "${WORKSPACE}/none"}}]
    passes = [{"files.exists": {"path": "${WORKSPACE}/a.txt"}}]
    inner = lookup("judge", "xlsx.compare")
    assert run_judge("xlsx.compare", {"path": "${WORKSPACE}/a.txt", "gold": "missing.xlsx"}, ctx).passed is False
    v = run_judge("judges.any", {"of": [broken, fails]}, ctx)
    assert not v.passed
    assert v.error == run_judge(inner.name, {"path": "${WORKSPACE}/a.txt", "gold": "missing.xlsx"}, ctx).error
    assert run_judge("judges.any", {"of": [broken, passes]}, ctx).passed


def test_placeholders_are_expanded_once(ctx: StepContext) -> None:
    (ctx.workspace / "a.txt").write_text("cost $HOME\n")
    literal = [{"files.content": {"path": "${WORKSPACE}/a.txt", "contains": "cost $$HOME"}}]
    assert run_judge("judges.any", {"of": [literal, literal]}, ctx).passed


@pytest.mark.parametrize(("of", "message"), [
    ([[{"files.exists": {"path": "x"}}]], "at least two alternatives"),
    ([[{"files.exists": {"path": "x"}}], []], "has no judge"),
    ([[{"files.exists": {"path": "x"}}], [{"files.nope": {}}]], "unknown judge `files.nope`"),
    ([[{"files.exists": {"path": "x"}}], [{"files.exists": {"pth": "x"}}]], "unknown param `pth`"),
    ([[{"files.exists": {"path": "x"}, "files.absent": {"path": "y"}}], [{"files.exists": {"path": "x"}}]],
     "one mapping"),
])
def test_alternatives_are_checked_when_the_task_loads(of: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        lookup("judge", "judges.any").validate({"of": of})
