"""archive.contains: the members of zip and tar archives, exactly or at least."""

import tarfile
import zipfile

from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge


def j(judge_name: str, ctx: StepContext, **params: object) -> Verdict:
    v = run_judge(judge_name, params, ctx)
    assert not v.error, v.feedback
    return v


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
