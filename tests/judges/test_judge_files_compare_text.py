"""files.compare_text: a text file against a gold one, exactly or with blanks/case ignored; the
feedback names the line and what differs there. files.lines: regexes line by line. Verdicts against OSWorld's compare_text_file are
checked in tests/runtime/importers/osworld_conformance/test_conformance_general.py."""

from __future__ import annotations

from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge


def j(ctx: StepContext, **params: object) -> Verdict:
    v = run_judge("files.compare_text", {"path": "out.txt", "reference": "gold.txt", **params}, ctx)
    assert not v.error, v.feedback
    return v


def test_exact_text_passes_and_the_first_difference_is_named(ctx: StepContext) -> None:
    assert ctx.gold is not None
    (ctx.gold / "gold.txt").write_text("alpha\nbeta\n")
    (ctx.workspace / "out.txt").write_text("alpha\nbeta\n")
    assert j(ctx).passed
    (ctx.workspace / "out.txt").write_text("alpha\nBeta  \n")
    v = j(ctx)
    assert not v.passed and "at line 2, character 7: 'Beta  \\n' where the gold file has 'beta\\n'" in v.feedback, v.feedback
    assert not j(ctx, ignore_case=True).passed
    assert j(ctx, ignore_case=True, ignore_blanks=True).passed


def test_missing_final_newline_and_missing_file_fail(ctx: StepContext) -> None:
    assert ctx.gold is not None
    (ctx.gold / "gold.txt").write_text("alpha\n")
    v = j(ctx)
    assert not v.passed and "does not exist" in v.feedback
    (ctx.workspace / "out.txt").write_text("alpha")
    v = j(ctx)
    assert not v.passed and "'end of file' where the gold file has '\\n'" in v.feedback, v.feedback


def test_files_lines_expect_and_unexpect_per_line(ctx: StepContext) -> None:
    (ctx.workspace / "list.txt").write_text("alpha 1\nbeta 2\n")
    v = run_judge("files.lines", {"path": "list.txt", "expect": [r"alpha \d", "gamma"], "unexpect": ["beta"]}, ctx)
    assert not v.passed and "no line matches /gamma/" in v.feedback and "the line 'beta 2' matches /beta/" in v.feedback
    assert run_judge("files.lines", {"path": "list.txt", "expect": ["2$"], "unexpect": ["^gamma"]}, ctx).passed
    v = run_judge("files.lines", {"path": "missing.txt", "expect": ["x"]}, ctx)
    assert not v.passed and "does not exist" in v.feedback


def test_by_lines_ignores_only_the_final_newline(ctx: StepContext) -> None:
    assert ctx.gold is not None
    (ctx.gold / "gold.txt").write_text("a\nb\n")
    (ctx.workspace / "out.txt").write_text("a\nb")
    assert not j(ctx).passed
    assert j(ctx, by_lines=True).passed
    (ctx.workspace / "out.txt").write_text("a\nb \n")
    assert not j(ctx, by_lines=True).passed


def test_result_number(ctx: StepContext) -> None:
    assert ctx.gold is not None
    (ctx.gold / "gold.txt").write_text("3.14159\n")
    (ctx.workspace / "out.txt").write_text("pi is 3.14159\n")
    assert j(ctx, result_number=True).passed
    (ctx.workspace / "out.txt").write_text("3.2\n")
    v = j(ctx, result_number=True)
    assert not v.passed and "at line 1, character 3" in v.feedback, v.feedback
