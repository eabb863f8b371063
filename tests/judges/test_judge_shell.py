"""shell.output: what a command prints, and a timeout as an error."""

from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge


def j(judge_name: str, ctx: StepContext, **params: object) -> Verdict:
    v = run_judge(judge_name, params, ctx)
    assert not v.error, v.feedback
    return v


def test_shell_output(ctx: StepContext) -> None:
    (ctx.workspace / "n.txt").write_text("3\n1\n2\n")
    assert j("shell.output", ctx, cmd="sort -n n.txt | head -1", equals="1").passed
    assert j("shell.output", ctx, cmd="echo $WORKSPACE", contains=str(ctx.workspace)).passed
    assert j("shell.output", ctx, cmd="wc -l < n.txt", regex=r"^\s*3$").passed
    v = j("shell.output", ctx, cmd="sort n.txt", equals="3\n2\n1")
    assert v.feedback == "output of `sort n.txt` should equal '3\\n2\\n1' but is '1\\n2\\n3'"
    v = j("shell.output", ctx, cmd="cat nothere.txt", contains="x")
    assert v.feedback.startswith("`cat nothere.txt` exited with 1, expected 0: 'cat: nothere.txt: No such file")
    assert j("shell.output", ctx, cmd="echo hi; exit 2", contains="hi", exit_code=None).passed


def test_shell_output_timeout_is_an_error(ctx: StepContext) -> None:
    v = run_judge("shell.output", {"cmd": "sleep 20", "equals": "", "timeout": 0.3}, ctx)
    assert v.error and "did not finish within 0.3 s" in v.feedback
