import json
import os
import time
from dataclasses import replace

import pytest
from deskact.runtime.tasks.steps import StepContext, Verdict, lookup, run_judge


def j(judge_name: str, ctx: StepContext, **params: object) -> Verdict:
    v = run_judge(judge_name, params, ctx)
    assert not v.error, v.feedback
    return v


def test_exists(ctx: StepContext) -> None:
    (ctx.workspace / "docs/reports").mkdir(parents=True)
    (ctx.workspace / "docs/a.txt").write_text("x")
    assert j("files.exists", ctx, path="${WORKSPACE}/docs/reports", kind="dir").passed
    assert j("files.exists", ctx, path="docs/a.txt").passed
    v = j("files.exists", ctx, path="docs/report", kind="dir")
    assert not v.passed
    assert v.feedback == "docs/report does not exist (docs holds ['a.txt', 'reports'])"
    v = j("files.exists", ctx, path="docs/a.txt", kind="dir")
    assert v.feedback == "docs/a.txt exists but is a file, not a directory"
    v = j("files.exists", ctx, path="nodir/x")
    assert "nodir does not exist either" in v.feedback


def test_absent(ctx: StepContext) -> None:
    assert j("files.absent", ctx, path="gone").passed
    (ctx.workspace / "tmp").mkdir()
    v = j("files.absent", ctx, path="tmp")
    assert not v.passed and v.feedback == "tmp should not exist but is still there (a directory)"
    (ctx.workspace / "link").symlink_to(ctx.workspace / "nowhere")
    assert not j("files.absent", ctx, path="link").passed


def test_content_equals_contains_regex(ctx: StepContext) -> None:
    p = ctx.workspace / "a.txt"
    p.write_text("hello world\r\n")
    assert j("files.content", ctx, path="a.txt", equals="hello world").passed
    assert j("files.content", ctx, path="a.txt", contains="lo wo").passed
    assert j("files.content", ctx, path="a.txt", regex=r"^hello\s+\w+$").passed
    v = j("files.content", ctx, path="a.txt", equals="hello")
    assert v.feedback == f"{p.name} should equal 'hello' but is 'hello world'"
    v = j("files.content", ctx, path="a.txt", contains="bye")
    assert v.feedback == f"{p.name} should contain 'bye' but is 'hello world'"
    v = j("files.content", ctx, path="a.txt", regex=r"\d+")
    assert v.feedback == f"{p.name} should match /\\d+/ but is 'hello world'"
    v = j("files.content", ctx, path="missing.txt", contains="x")
    assert v.feedback == "missing.txt should be a file but does not exist"


def test_content_feedback_truncates_long_files(ctx: StepContext) -> None:
    (ctx.workspace / "big.txt").write_text("x" * 5000)
    v = j("files.content", ctx, path="big.txt", contains="y")
    assert not v.passed and len(v.feedback) < 400 and "(5000 chars)" in v.feedback


def test_content_one_of_and_regex_checked_at_load() -> None:
    spec = lookup("judge", "files.content")
    with pytest.raises(ValueError, match=r"`files.content` needs exactly one of equals, contains, regex \(got none\)"):
        spec.validate({"path": "a"})
    with pytest.raises(ValueError, match=r"exactly one of .* \(got \['equals', 'contains'\]\)"):
        spec.validate({"path": "a", "equals": "x", "contains": "y"})
    with pytest.raises(ValueError, match="bad regular expression"):
        spec.validate({"path": "a", "regex": "("})
    with pytest.raises(ValueError, match="unknown param `contain` for `files.content`; did you mean `contains`?"):
        spec.validate({"path": "a", "contain": "x"})
    with pytest.raises(ValueError, match="missing param `path` for `files.content`"):
        spec.validate({"contains": "x"})


def test_json_pointer(ctx: StepContext) -> None:
    p = ctx.workspace / "c.json"
    p.write_text(json.dumps({"a": {"b/c": [1, {"n": 3.0}]}, "t": True, "m~k": None}))
    assert j("files.json", ctx, path="c.json", pointer="/a/b~1c/1/n", equals=3).passed
    assert j("files.json", ctx, path="c.json", pointer="/m~0k", equals=None).passed
    assert j("files.json", ctx, path="c.json", pointer="/a/b~1c", equals=[1, {"n": 3}]).passed
    v = j("files.json", ctx, path="c.json", pointer="/t", equals=1)
    assert v.feedback == f"{p.name} at '/t' should be 1 but is True"
    v = j("files.json", ctx, path="c.json", pointer="/a/x", equals=1)
    assert v.feedback.startswith(f"{p.name} has no value at pointer '/a/x' (document: ")
    v = j("files.json", ctx, path="c.json", pointer="/a/b~1c/5", equals=1)
    assert "no value at pointer" in v.feedback
    p.write_text("{oops")
    v = j("files.json", ctx, path="c.json", equals={})
    assert v.feedback.startswith(f"{p.name} is not valid JSON (Expecting property name enclosed in double quotes at line 1)")


def test_json_equals_is_required_but_may_be_null() -> None:
    spec = lookup("judge", "files.json")
    with pytest.raises(ValueError, match="missing param `equals`"):
        spec.validate({"path": "a"})
    assert spec.validate({"path": "a", "equals": None}) == {"path": "a", "equals": None}


def test_mode(ctx: StepContext) -> None:
    p = ctx.workspace / "key"
    p.write_text("k")
    p.chmod(0o644)
    v = j("files.mode", ctx, path="key", mode="0600")
    assert v.feedback == f"{p.name} should have mode 0600 but has 0644"
    p.chmod(0o600)
    assert j("files.mode", ctx, path="key", mode="0600").passed
    assert j("files.mode", ctx, path="key", mode=0o600).passed
    assert "does not exist" in j("files.mode", ctx, path="nokey", mode="0600").feedback


def test_count(ctx: StepContext) -> None:
    for n in ("a.txt", "b.txt", "c.md"):
        (ctx.workspace / n).write_text("")
    assert j("files.count", ctx, dir=".", pattern="*.txt", count=2).passed
    v = j("files.count", ctx, dir="${WORKSPACE}", pattern="*.txt", count=3)
    assert v.feedback == "the workspace should hold 3 entries matching '*.txt' but holds 2: ['a.txt', 'b.txt']"
    (ctx.workspace / "sub").mkdir()
    (ctx.workspace / "sub/d.txt").write_text("")
    assert j("files.count", ctx, dir=".", pattern="*.txt", count=3, recursive=True).passed


def test_same_uses_gold_folder(ctx: StepContext) -> None:
    (ctx.gold / "expected.txt").write_bytes(b"abcdef")
    (ctx.workspace / "out.txt").write_bytes(b"abcdef")
    assert j("files.same", ctx, path="out.txt", reference="expected.txt").passed
    (ctx.workspace / "out.txt").write_bytes(b"abXdef!")
    v = j("files.same", ctx, path="out.txt", reference="expected.txt")
    assert v.feedback == "out.txt differs from expected.txt: 7 vs 6 bytes, first difference at byte 2"


def test_missing_reference_is_an_error_verdict(ctx: StepContext) -> None:
    (ctx.workspace / "out.txt").write_text("x")
    v = run_judge("files.same", {"path": "out.txt", "reference": "nope.txt"}, ctx)
    assert v.error and not v.passed
    assert v.feedback.startswith("judge `files.same` failed: FileNotFoundError: reference file 'nope.txt' not found")
    assert v.judge == "files.same" and v.params["reference"] == "nope.txt"


# --- files.stat ------------------------------------------------------------------------


def test_stat_size_mode_and_owner(ctx: StepContext) -> None:
    p = ctx.workspace / "export.csv"
    p.write_text("a,b\n1,2\n")
    p.chmod(0o640)
    assert j("files.stat", ctx, path="export.csv", size=8, mode="0640").passed
    assert j("files.stat", ctx, path="export.csv", min_size=1, max_size=100).passed
    v = j("files.stat", ctx, path="export.csv", size=9, mode="0644")
    assert not v.passed and "is 8 bytes, not 9" in v.feedback and "has mode 0640, not 0644" in v.feedback
    assert "less than 100" in j("files.stat", ctx, path="export.csv", min_size=100).feedback
    me = __import__("pwd").getpwuid(os.getuid()).pw_name
    assert j("files.stat", ctx, path="export.csv", owner=me).passed
    assert not j("files.stat", ctx, path="export.csv", owner="nobody").passed
    assert "does not exist" in j("files.stat", ctx, path="none.csv", size=1).feedback


def test_stat_modified_after_the_reset(ctx: StepContext) -> None:
    old = ctx.workspace / "old.txt"
    old.write_text("from the reset")
    os.utime(old, (time.time() - 60, time.time() - 60))
    after = replace(ctx, reset_at=time.time() - 1)
    new = ctx.workspace / "new.txt"
    new.write_text("by the agent")
    assert j("files.stat", after, path="new.txt", modified=True).passed
    assert j("files.stat", after, path="old.txt", modified=False).passed
    v = j("files.stat", after, path="old.txt", modified=True)
    assert not v.passed and "before the reset ended" in v.feedback
    assert not j("files.stat", after, path="new.txt", modified=False).passed
    assert run_judge("files.stat", {"path": "new.txt", "modified": True}, ctx).error  # no reset time known


# --- files.same_text -------------------------------------------------------------------


def same_text(ctx: StepContext, **params: object) -> Verdict:
    v = run_judge("files.same_text", params, ctx)
    assert not v.error, v.feedback
    return v


def test_same_text_ignores_line_endings_and_final_newline(ctx: StepContext) -> None:
    assert ctx.gold is not None
    (ctx.gold / "want.txt").write_text("a\nb\nc\n")
    (ctx.workspace / "out.txt").write_text("a\r\nb  \r\nc")
    v = same_text(ctx, path="out.txt", reference="want.txt")
    assert v.passed and v.feedback == "out.txt has the expected 3 lines"


def test_same_text_names_first_difference(ctx: StepContext) -> None:
    assert ctx.gold is not None
    (ctx.gold / "want.txt").write_text("a\nb\nc\n")
    (ctx.workspace / "out.txt").write_text("a\nx\nc\n")
    v = same_text(ctx, path="out.txt", reference="want.txt")
    assert not v.passed
    assert v.feedback == "out.txt has 3 lines as expected; line 2 should be 'b' but is 'x'"
    (ctx.workspace / "out.txt").write_text("a\nb\n")
    v = same_text(ctx, path="out.txt", reference="want.txt")
    assert v.feedback == ("out.txt has 2 lines instead of 3; line 3 should be 'c'"
                          " but is no line (end of file)")


def test_same_text_sorted_and_missing(ctx: StepContext) -> None:
    assert ctx.gold is not None
    (ctx.files / "want.txt").write_text("b\na\n")  # falls back to ${FILES}
    (ctx.workspace / "out.txt").write_text("a\nb\n")
    assert not same_text(ctx, path="out.txt", reference="want.txt").passed
    assert same_text(ctx, path="out.txt", reference="want.txt", sort=True).passed
    v = same_text(ctx, path="nope.txt", reference="want.txt")
    assert not v.passed and v.feedback == "nope.txt should be a text file like want.txt but does not exist"
