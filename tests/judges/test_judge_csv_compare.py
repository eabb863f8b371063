"""csv.compare: a CSV's lines against a gold file's; feedback names the first differing line.
Verdicts against OSWorld's compare_csv: tests/runtime/importers/osworld_conformance/test_conformance_table.py."""

from __future__ import annotations

from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge


def j(ctx: StepContext, **params: object) -> Verdict:
    v = run_judge("csv.compare", {"path": "out.csv", "reference": "gold.csv", **params}, ctx)
    assert not v.error, v.feedback
    return v


def test_lines_compared_and_the_first_difference_named(ctx: StepContext) -> None:
    assert ctx.gold is not None
    (ctx.gold / "gold.csv").write_text("a,b\n1,2\n")
    (ctx.workspace / "out.csv").write_text("a,b\n1,2")
    assert j(ctx).passed
    (ctx.workspace / "out.csv").write_text("A,b\n1,2 \n")
    v = j(ctx)
    assert not v.passed and "line 1 is 'A,b' where the gold file has 'a,b'" in v.feedback, v.feedback
    assert not j(ctx, ignore_case=True).passed
    assert j(ctx, ignore_case=True, strip=True).passed
    (ctx.workspace / "out.csv").write_text("a,b\n")
    v = j(ctx)
    assert not v.passed and "line 2 is no line (end of file) where the gold file has '1,2'" in v.feedback, v.feedback


def test_trailing_blank_lines_dropped_on_request(ctx: StepContext) -> None:
    assert ctx.gold is not None
    (ctx.gold / "gold.csv").write_text("a,b\n")
    (ctx.workspace / "out.csv").write_text("a,b\n\n  \n")
    v = j(ctx)
    assert not v.passed and "line 2 is '' where the gold file has no line (end of file)" in v.feedback, v.feedback
    assert j(ctx, ignore_trailing_blank=True).passed
