"""toolkits/gui/app_env.py: apps that warn about root are started so that they do not."""

from __future__ import annotations

import shutil

import pytest
from deskact.toolkits.gui.app_env import LOOKALIKE_UID, program, without_root_banner


def test_program_looks_through_env() -> None:
    assert program(["mousepad", "notes.txt"]) == "mousepad"
    assert program(["/usr/bin/mousepad"]) == "mousepad"
    assert program(["env", "GSETTINGS_BACKEND=memory", "mousepad", "--disable-server"]) == "mousepad"
    assert program(["env", "-i", "A=1", "xterm"]) == "xterm"
    assert program([]) == ""


@pytest.mark.skipif(shutil.which("unshare") is None, reason="util-linux's unshare is not installed")
def test_mousepad_as_root_runs_as_a_lookalike_user() -> None:
    argv = ["env", "GSETTINGS_BACKEND=memory", "mousepad", "notes.txt"]
    wrapped = without_root_banner(argv, 0)
    assert wrapped[:4] == ["unshare", "--user", f"--map-user={LOOKALIKE_UID}", f"--map-group={LOOKALIKE_UID}"]
    assert wrapped[-len(argv):] == argv


def test_other_apps_and_users_are_unchanged() -> None:
    assert without_root_banner(["xterm"], 0) == ["xterm"]
    assert without_root_banner(["libreoffice", "a.xlsx"], 0) == ["libreoffice", "a.xlsx"]
    assert without_root_banner(["mousepad"], 1000) == ["mousepad"]
