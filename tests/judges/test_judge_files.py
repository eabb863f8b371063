import json

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
