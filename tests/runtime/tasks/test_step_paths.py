"""StepPath (ctx.path()): reads like pathlib, opens only by descriptors, never hands out a host name."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path, PurePosixPath

import pytest
from deskact.runtime.tasks.step_paths import StepPath
from deskact.runtime.tasks.steps import StepContext


def test_ctx_path_reads_like_pathlib(ctx: StepContext) -> None:
    (ctx.workspace / "notes").mkdir()
    (ctx.workspace / "notes" / "a.txt").write_bytes(b"one\r\ntwo\rthree\n")
    p = ctx.path("notes/a.txt")
    assert isinstance(p, StepPath) and str(p) == f"{ctx.workspace}/notes/a.txt"
    assert p.name == "a.txt" and p.suffix == ".txt" and p.stem == "a" and p.parent == ctx.path("notes")
    assert p.exists() and p.is_file() and not p.is_dir() and not p.is_symlink()
    assert p.read_text() == "one\ntwo\nthree\n"  # universal newlines, as Path.read_text
    assert p.relative_to(ctx.workspace) == PurePosixPath("notes/a.txt")
    with p.open(newline="") as f:
        assert f.read() == "one\r\ntwo\rthree\n"
    assert zipfile.is_zipfile(p.bytes_io()) is False


def test_no_host_name_is_handed_out(ctx: StepContext) -> None:
    (ctx.workspace / "a.txt").write_text("x")
    p = ctx.path("a.txt")
    assert not isinstance(p, os.PathLike)
    with pytest.raises(TypeError):
        open(p)  # type: ignore[call-overload]  # noqa: SIM115 - the point: no name to reopen later
    with p.opened_path() as name:  # the descriptor's own name, in this process
        assert name.parent == Path("/proc/self/fd") and name.read_text() == "x"
    with p.host_copy() as copy:
        assert copy.name == "a.txt" and copy.read_text() == "x" and not str(copy).startswith(str(ctx.workspace))


def test_rglob_enters_no_linked_folder(ctx: StepContext, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("s")
    (ctx.workspace / "d").mkdir()
    (ctx.workspace / "d" / "in.txt").write_text("i")
    (ctx.workspace / "link").symlink_to(outside)
    found = sorted(str(q.relative_to(ctx.workspace)) for q in ctx.path(".").rglob("*"))
    assert found == ["d", "d/in.txt", "link"]
    assert [q.name for q in ctx.path("d").glob("*.txt")] == ["in.txt"]


def test_writes_and_the_step_context_helpers(ctx: StepContext) -> None:
    ctx.mkdir("a/b")
    ctx.write("a/b/c.txt", "hello")
    assert ctx.read_bytes("a/b/c.txt") == b"hello" and ctx.listdir("a") == ["b"]
    ctx.chmod("a/b/c.txt", 0o600)
    assert ctx.stat("a/b/c.txt").st_mode & 0o777 == 0o600
    with ctx.open("a/b/c.txt", "a") as f:
        f.write(" world")
    assert ctx.read_bytes("a/b/c.txt", limit=5) == b"hello"
    assert ctx.remove("a") and not ctx.remove("a")
    assert not (ctx.workspace / "a").exists()


def test_the_suites_files_are_read_never_written(ctx: StepContext) -> None:
    (ctx.files / "seed.txt").write_text("seed")
    p = ctx.path(f"{ctx.files}/seed.txt")
    assert p.read_text() == "seed" and io.BytesIO(p.read_bytes()).read() == b"seed"
    with pytest.raises(PermissionError):
        p.write_text("changed")
    assert (ctx.files / "seed.txt").read_text() == "seed"


def test_joining_an_absolute_path_never_leaves_the_workspace(ctx: StepContext) -> None:
    """Without a world a StepPath is opened beneath the workspace: ``p / "/etc/passwd"`` names a
    host file that it refuses to open, rather than some file of the workspace or the host's."""
    p = ctx.path(".") / "/etc/passwd"
    assert not p.exists()
    with pytest.raises(OSError, match="is not under the folder it was taken from"):
        p.read_text()


def test_the_suites_files_are_read_beneath_their_folder(ctx: StepContext, tmp_path: Path) -> None:
    (tmp_path / "host.txt").write_text("host")
    assert not ctx.path(f"{ctx.files}/../host.txt").exists()
    with pytest.raises(OSError, match="leads outside the root"):
        ctx.path(f"{ctx.files}/../host.txt").read_text()


def test_a_huge_sparse_file_is_not_opened_for_reading(ctx: StepContext) -> None:
    from deskact.runtime.world.rooted import MAX_READ

    with open(ctx.workspace / "huge.csv", "wb") as f:
        f.truncate(MAX_READ + 1)
    p = ctx.path("huge.csv")
    for read in (lambda: p.open().close(), p.read_bytes, p.bytes_io):
        with pytest.raises(OSError, match="is larger than"):
            read()
    with pytest.raises(OSError, match="is larger than"), p.opened_path():
        pass
