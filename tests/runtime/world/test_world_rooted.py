"""runtime/world/rooted.py: paths opened by descriptors under a root, never leaving it."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest
from deskact.runtime.world.rooted import MAX_READ, RESOLVE_BENEATH, RESOLVE_IN_ROOT, OutsideRoot, Root


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    """(root, host): ``root`` holds etc/x ("inside"); ``host`` beside it holds etc/x ("host")."""
    root, host = tmp_path / "root", tmp_path / "host"
    for base, text in ((root, "inside"), (host, "host")):
        (base / "etc").mkdir(parents=True)
        (base / "etc" / "x").write_text(text)
    return root, host


def test_in_root_clamps_absolute_links_and_dot_dot(tree: tuple[Path, Path]) -> None:
    root, host = tree
    (root / "abs").symlink_to("/etc/x")
    (root / "up").symlink_to("../../../../../../etc/x")
    (root / "host").symlink_to(host / "etc" / "x")  # a host path: inside the root it names nothing
    r = Root(str(root), RESOLVE_IN_ROOT)
    assert r.read_bytes("abs") == r.read_bytes("up") == r.read_bytes("/../../etc/x") == b"inside"
    with pytest.raises(FileNotFoundError):
        r.read_bytes("host")
    r.write_bytes("abs", b"changed")
    assert (root / "etc" / "x").read_text() == "changed" and (host / "etc" / "x").read_text() == "host"


def test_beneath_refuses_what_leaves_the_root(tree: tuple[Path, Path]) -> None:
    root, host = tree
    (root / "out").symlink_to(host)
    r = Root(str(root), RESOLVE_BENEATH)
    for path in ("../host/etc/x", "out/etc/x", "etc/../../host/etc/x"):
        with pytest.raises(OutsideRoot):
            r.read_bytes(path)
    with pytest.raises(OutsideRoot):
        r.write_bytes("out/etc/x", b"pwned")
    assert (host / "etc" / "x").read_text() == "host"
    assert r.read_bytes("etc/../etc/x") == b"inside"


def test_magic_links_are_never_followed() -> None:
    with pytest.raises(OSError, match="Too many levels of symbolic links") as info:
        Root("/", RESOLVE_IN_ROOT).read_bytes("/proc/self/root/etc/hostname")
    assert info.value.errno == errno.ELOOP


def test_a_fifo_or_a_folder_is_not_read(tree: tuple[Path, Path]) -> None:
    root, _ = tree
    os.mkfifo(root / "fifo")  # opened blocking, it would hang the host until a writer came
    r = Root(str(root))
    with pytest.raises(OSError, match="not a regular file"):
        r.read_bytes("fifo")
    with pytest.raises(IsADirectoryError):
        r.read_bytes("etc")


def test_remove_takes_links_never_their_targets(tree: tuple[Path, Path]) -> None:
    root, host = tree
    (root / "d" / "sub").mkdir(parents=True)
    (root / "d" / "sub" / "f").write_text("x")
    (root / "d" / "sub").chmod(0o500)
    (root / "d" / "to-host").symlink_to(host)
    (root / "link").symlink_to(host / "etc")
    r = Root(str(root), RESOLVE_BENEATH)
    assert r.remove("link") and r.remove("d") and not r.remove("d") and not r.remove("no/such/parent")
    assert sorted(os.listdir(root)) == ["etc"] and (host / "etc" / "x").read_text() == "host"


def test_writes_give_new_files_and_folders_an_owner_and_keep_old_ones(tree: tuple[Path, Path]) -> None:
    root, _ = tree
    r = Root(str(root))
    assert r.make_dirs("/a/b", owner=(12345, 12345)) == ["/a", "/a/b"]
    assert r.write_bytes("/a/b/new", b"1", owner=(12345, 12345))
    os.chown(root / "etc" / "x", 4242, 4242)
    assert not r.write_bytes("/etc/x", b"2", owner=(12345, 12345))
    assert [os.stat(root / p).st_uid for p in ("a", "a/b", "a/b/new", "etc/x")] == [12345, 12345, 12345, 4242]
    (root / "var").mkdir()
    (root / "dangling").symlink_to("/var/made-here")  # a dangling link: its target is made, in the root
    assert r.write_bytes("/dangling", b"3")
    assert (root / "var" / "made-here").read_bytes() == b"3"


def test_chmod_and_lchown_act_inside_the_root(tree: tuple[Path, Path]) -> None:
    root, host = tree
    (root / "abs").symlink_to("/etc/x")
    (host / "etc" / "x").chmod(0o600)
    r = Root(str(root))
    r.chmod("/abs", 0o640)  # the link's target inside the root
    assert stat.S_IMODE(os.stat(root / "etc" / "x").st_mode) == 0o640
    assert stat.S_IMODE(os.stat(host / "etc" / "x").st_mode) == 0o600
    r.lchown("/abs", 12345, 12345)  # the link itself
    assert os.lstat(root / "abs").st_uid == 12345 and os.stat(root / "etc" / "x").st_uid != 12345


def test_a_read_only_root_refuses_every_write(tree: tuple[Path, Path]) -> None:
    root, _ = tree
    r = Root(str(root), writable=False)
    assert r.read_bytes("etc/x") == b"inside"
    for write in (lambda: r.write_bytes("etc/x", b""), lambda: r.remove("etc/x"), lambda: r.chmod("etc/x", 0o777),
                  lambda: r.make_dirs("new"), lambda: r.lchown("etc/x", 0, 0)):
        with pytest.raises(PermissionError):
            write()
    assert (root / "etc" / "x").read_text() == "inside"


def test_a_huge_sparse_file_is_refused_before_it_is_read(tree: tuple[Path, Path]) -> None:
    """`truncate -s 100G` costs the world no disk; read whole, it would cost the host the memory."""
    root, _ = tree
    with open(root / "huge", "wb") as f:
        f.truncate(MAX_READ + 1)
    r = Root(str(root))
    with pytest.raises(OSError, match="is larger than"):
        r.read_bytes("huge")
    assert r.read_bytes("huge", limit=3) == b"\0\0\0"  # a bounded read is fine
