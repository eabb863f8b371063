"""Secrets kept in the host's /var and /etc beyond the password files never enter a world."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from deskact.runtime.config import Config
from deskact.runtime.world import base as world_base
from deskact.runtime.world import world as world_module
from deskact.runtime.world.world import World, world_status

OK, WHY = world_status()
pytestmark = pytest.mark.skipif(not OK, reason=f"no worlds here: {WHY}")
PLANTED = {Path("/var/backups/shadow.bak"): "root:$6$deskact-test-hash:1::::::",
           Path("/etc/apt/auth.conf"): "machine example.org login me password deskact-test-password"}


def test_var_backups_and_apt_credentials_are_hidden(tmp_path: Path) -> None:
    made = []
    for path in PLANTED:
        if path.exists() or not path.parent.is_dir():
            pytest.skip(f"{path} exists already or has no parent here: not ours to touch")
    for path, text in PLANTED.items():
        path.write_text(text)
        path.chmod(0o600)
        made.append(path)
    world_base.build_base.cache_clear()
    planted = world_base.build_base()
    ws, private = tmp_path / "ws", tmp_path / "private"
    ws.mkdir()
    private.mkdir()
    world = World(Config(), workspace=ws, private_dir=private)
    try:
        world.start()
        probe = ("ls -A /var/backups /etc/apt; cat /var/backups/shadow.bak /etc/apt/auth.conf 2>&1;"
                 " grep -rs deskact-test /var/backups /etc/apt; true")
        out = world.run(["/bin/sh", "-c", probe]).stdout
    finally:
        world.close()
        for path in made:
            path.unlink()
        world_base.build_base.cache_clear()
        shutil.rmtree(planted, ignore_errors=True)
    assert "deskact-test" not in out and out.count("No such file") == 2, out
    assert "sources.list" in out or "apt.conf.d" in out  # the rest of /etc/apt is there


def test_import_paths_never_show_the_checkout(tmp_path: Path) -> None:
    """A kernel's PYTHONPATH is shown in its world, except a folder that holds (or is in) the checkout:
    deskact's own toolkits once put the checkout's parent on it, and the terminal listed .git and the suites."""
    from deskact.runtime.run.worker import import_roots
    from deskact.toolkits.base import load_toolkit

    assert import_roots([load_toolkit("gui"), load_toolkit("google")]) == []
    checkout = Path(world_module.__file__).resolve().parents[2]
    own = tmp_path / "own"
    own.mkdir()
    (own / "mine.py").write_text("X = 1\n")
    ws, private = tmp_path / "ws", tmp_path / "private"
    ws.mkdir()
    private.mkdir()
    world = World(Config(), workspace=ws, private_dir=private,
                  import_paths=[checkout.parent, checkout, checkout / "task_suites", own])
    try:
        world.start()
        out = world.run(["/bin/sh", "-c", f"ls -A {checkout}; cat {own}/mine.py"]).stdout
    finally:
        world.close()
    assert "task_suites" not in out and ".git" not in out and "judges" not in out, out
    assert "X = 1" in out
