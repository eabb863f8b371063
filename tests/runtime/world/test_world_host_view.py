"""A world sees of the host's /etc and /var only what any host user could read, and nothing of
the host's environment in its PID 1."""

from __future__ import annotations

import os
import secrets
import shutil
from pathlib import Path

import pytest
from deskact.runtime.config import Config
from deskact.runtime.world.world import WORLD_PATH, World, world_status

OK, WHY = world_status()
pytestmark = [pytest.mark.bwrap, pytest.mark.skipif(not OK, reason=f"no worlds here: {WHY}")]


def _world(tmp_path: Path, name: str) -> World:
    ws, private = tmp_path / f"ws-{name}", tmp_path / f"private-{name}"
    ws.mkdir()
    private.mkdir(mode=0o777)
    return World(Config(), workspace=ws, private_dir=private).start()


def test_root_only_host_files_in_etc_and_var_are_not_readable(tmp_path: Path) -> None:
    _world(tmp_path, "first").close()  # the base is built before the files are planted
    value = f"HOST-ONLY-{secrets.token_hex(6)}"
    tag = secrets.token_hex(4)
    etc_file, var_tmp_file = Path(f"/etc/deskact-planted-{tag}.conf"), Path(f"/var/tmp/deskact-planted-{tag}")
    try:
        for path in (etc_file, var_tmp_file):
            path.write_text(value)
            path.chmod(0o600)
        world = _world(tmp_path, "second")
        try:
            seen = world.run(["/bin/sh", "-c", (f"cat {etc_file} {var_tmp_file} 2>&1; ls -a /var/tmp /var/log; "
                                                "grep -r HOST-ONLY /etc /var 2>/dev/null | head -3")])
            assert value not in seen.stdout, seen.stdout
            assert etc_file.name not in seen.stdout.split() and var_tmp_file.name not in seen.stdout.split()
            # What apps need is still there.
            needed = world.run(["/bin/sh", "-c", ("head -1 /etc/passwd && ls /var/lib/dpkg/status /etc/ssl/certs "
                                                  "| head -1 && id -un && touch /var/tmp/x /var/log/x && echo ok")])
            assert needed.returncode == 0 and needed.stdout.startswith("root:") and "ok" in needed.stdout, needed
        finally:
            world.close()
    finally:
        etc_file.unlink(missing_ok=True)
        var_tmp_file.unlink(missing_ok=True)
    assert not Path("/var/tmp/x").exists() and not Path("/var/log/x").exists()


def test_a_root_only_folder_in_var_lib_is_hidden(tmp_path: Path) -> None:
    folder = Path(f"/var/lib/deskact-planted-{secrets.token_hex(4)}")
    folder.mkdir(mode=0o700)
    try:
        (folder / "data").write_text("HOST-ONLY-lib")
        from deskact.runtime.world import host_view

        assert folder.relative_to("/var") in host_view.hidden("var")
    finally:
        shutil.rmtree(folder)


def test_the_worlds_pid_1_has_only_the_worlds_environment(tmp_path: Path) -> None:
    world = _world(tmp_path, "env")
    try:
        environ = world.run(["cat", "/proc/1/environ"]).stdout
    finally:
        world.close()
    variables = dict(item.split("=", 1) for item in environ.split("\0") if "=" in item)
    assert variables.get("PATH") == WORLD_PATH, variables
    assert os.environ.get("PATH", "") not in environ or os.environ.get("PATH") == WORLD_PATH
    assert set(variables) <= {"PATH", "LANG", "PWD"}, variables  # PWD: the world's workspace
