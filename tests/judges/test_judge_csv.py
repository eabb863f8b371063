"""csv.rows: rows compared like spreadsheet cells, in order or not, exactly or contained."""

import pytest
from deskact.runtime.tasks.steps import StepContext, Verdict, lookup, run_judge


def j(judge_name: str, ctx: StepContext, **params: object) -> Verdict:
    v = run_judge(judge_name, params, ctx)
    assert not v.error, v.feedback
    return v


def test_csv_rows(ctx: StepContext) -> None:
    p = ctx.workspace / "o.csv"
    p.write_text("name,qty\napple, 3\npear,4.0\n\n")
    assert j("csv.rows", ctx, path="o.csv", equals=[["name", "qty"], ["apple", 3], ["pear", 4]]).passed
    assert j("csv.rows", ctx, path="o.csv", equals=[["pear", 4], ["name", "qty"], ["apple", "3"]], ordered=False).passed
    assert j("csv.rows", ctx, path="o.csv", contains=[["pear", 4]]).passed
    v = j("csv.rows", ctx, path="o.csv", equals=[["name", "qty"], ["apple", 3], ["pear", 5]])
    assert v.feedback == "o.csv row 2 should be ['pear', 5] but is ['pear', '4.0']"
    v = j("csv.rows", ctx, path="o.csv", equals=[["name", "qty"]])
    assert v.feedback.startswith("o.csv should have 1 rows but has 3: ")
    v = j("csv.rows", ctx, path="o.csv", contains=[["plum", 1]])
    assert v.feedback.startswith("o.csv lacks rows [['plum', 1]]; it has 3 rows")
    with pytest.raises(ValueError, match="exactly one of equals, contains"):
        lookup("judge", "csv.rows").validate({"path": "o.csv"})


def test_csv_records(ctx: StepContext) -> None:
    (ctx.workspace / "a.csv").write_text("url,user\nimap://x,ann\nsmtp://x,ann\n")
    ok = run_judge("csv.records", {"path": "a.csv", "expect": [{"url": "imap://x"}], "unexpect": [{"user": "bob"}]}, ctx)
    assert ok.passed and not ok.error, ok.feedback
    v = run_judge("csv.records", {"path": "a.csv", "expect": [{"url": "pop://x"}], "unexpect": [{"user": "ann"}]}, ctx)
    assert not v.passed and "no row matches" in v.feedback and "should not be there" in v.feedback
    (ctx.workspace / "empty.csv").write_text("")
    assert run_judge("csv.records", {"path": "empty.csv", "unexpect": [{"user": "ann"}]}, ctx).passed
    v = run_judge("csv.records", {"path": "empty.csv", "unexpect": [{"user": "ann"}], "fields": ["user"]}, ctx)
    assert not v.passed and "first line should name user" in v.feedback
