"""pysource.same_text: code lines compared, blank lines, tabs and leading metadata aside."""

from deskact.judges.pysource import normalized
from deskact.runtime.tasks.steps import StepContext, run_judge


def test_normalized() -> None:
    assert normalized("#!/bin/python\n# coding: utf-8\n\nx = 1\n\tif x:  \n") == ["x = 1", "    if x:"]
    assert normalized("\n#!/bin/python\nx\n") == ["#!/bin/python", "x"]  # only leading metadata goes


def test_same_text(ctx: StepContext) -> None:
    (ctx.gold / "g.py").write_text("a = 1\n\nprint(a)\n")
    (ctx.workspace / "r.py").write_text("a = 1\nprint(a)   \n")
    assert run_judge("pysource.same_text", {"path": "r.py", "reference": "g.py"}, ctx).passed
    (ctx.workspace / "r.py").write_text("a = 2\nprint(a)\n")
    v = run_judge("pysource.same_text", {"path": "r.py", "reference": "g.py"}, ctx)
    assert not v.passed and "at its 1th code line: 'a = 2'" in v.feedback
    assert not run_judge("pysource.same_text", {"path": "none.py", "reference": "g.py"}, ctx).passed
