from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge


def j(ctx: StepContext, **params: object) -> Verdict:
    v = run_judge("files.same_text", params, ctx)
    assert not v.error, v.feedback
    return v


def test_same_text_ignores_line_endings_and_final_newline(ctx: StepContext) -> None:
    assert ctx.gold is not None
    (ctx.gold / "want.txt").write_text("a\nb\nc\n")
    (ctx.workspace / "out.txt").write_text("a\r\nb  \r\nc")
    v = j(ctx, path="out.txt", reference="want.txt")
    assert v.passed and v.feedback == "out.txt has the expected 3 lines"


def test_same_text_names_first_difference(ctx: StepContext) -> None:
    assert ctx.gold is not None
    (ctx.gold / "want.txt").write_text("a\nb\nc\n")
    (ctx.workspace / "out.txt").write_text("a\nx\nc\n")
    v = j(ctx, path="out.txt", reference="want.txt")
    assert not v.passed
    assert v.feedback == "out.txt has 3 lines as expected; line 2 should be 'b' but is 'x'"
    (ctx.workspace / "out.txt").write_text("a\nb\n")
    v = j(ctx, path="out.txt", reference="want.txt")
    assert v.feedback == ("out.txt has 2 lines instead of 3; line 3 should be 'c'"
                          " but is no line (end of file)")


def test_same_text_sorted_and_missing(ctx: StepContext) -> None:
    assert ctx.gold is not None
    (ctx.files / "want.txt").write_text("b\na\n")  # falls back to ${FILES}
    (ctx.workspace / "out.txt").write_text("a\nb\n")
    assert not j(ctx, path="out.txt", reference="want.txt").passed
    assert j(ctx, path="out.txt", reference="want.txt", sort=True).passed
    v = j(ctx, path="nope.txt", reference="want.txt")
    assert not v.passed and v.feedback == "nope.txt should be a text file like want.txt but does not exist"
