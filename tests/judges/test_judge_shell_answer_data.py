import subprocess
import sys
import tarfile
import zipfile

import pytest
from deskact.runtime.tasks.steps import StepContext, Verdict, lookup, run_judge


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


def test_process_running(ctx: StepContext) -> None:
    marker = f"deskact-marker-{id(ctx)}"
    assert j("process.running", ctx, name=marker, running=False).passed
    v = j("process.running", ctx, name=marker)
    assert v.feedback == f"no process with '{marker}' in its command line is running"
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)", marker])
    try:
        assert j("process.running", ctx, name=marker).passed
        v = j("process.running", ctx, name=marker, running=False)
        assert v.feedback.startswith(f"no process with '{marker}' in its command line should be running,"
                                     f" but pid {proc.pid} (0): ")
        assert v.details["pids"] == [proc.pid]
    finally:
        proc.kill()
        proc.wait()


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


def test_archive_contains(ctx: StepContext) -> None:
    with zipfile.ZipFile(ctx.workspace / "a.zip", "w") as zf:
        zf.writestr("docs/a.txt", "a")
        zf.writestr("b.txt", "b")
    assert j("archive.contains", ctx, path="a.zip", names=["docs/a.txt", "b.txt", "docs/"]).passed
    assert j("archive.contains", ctx, path="a.zip", names=["docs/a.txt", "b.txt"], exact=True).passed
    v = j("archive.contains", ctx, path="a.zip", names=["c.txt"])
    assert v.feedback == "a.zip lacks ['c.txt']; it holds ['b.txt', 'docs/a.txt']"
    v = j("archive.contains", ctx, path="a.zip", names=["b.txt"], exact=True)
    assert v.feedback == "a.zip should hold only ['b.txt'] but also holds ['docs/a.txt']"
    src = ctx.workspace / "logs"
    src.mkdir()
    (src / "x.log").write_text("x")
    with tarfile.open(ctx.workspace / "l.tar.gz", "w:gz") as tf:
        tf.add(src, arcname="./logs")
    assert j("archive.contains", ctx, path="l.tar.gz", names=["logs/x.log"], exact=True).passed
    (ctx.workspace / "not.zip").write_text("plain")
    assert "is not a readable zip or tar archive" in j("archive.contains", ctx, path="not.zip", names=["x"]).feedback
