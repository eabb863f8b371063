"""apps.files: a folder open in Thunar on a real X display, its window found by its title; a path
that is not a folder fails before anything starts."""

from __future__ import annotations

import shutil
from pathlib import PurePosixPath
from typing import Any

import pytest
from deskact.reset_scripts import _x11
from deskact.reset_scripts.apps.file_manager import window_title
from deskact.reset_scripts.apps.launcher import processes_on_display
from deskact.runtime.tasks.steps import StepContext, StepFailed, run_reset


def test_window_titles_are_thunars() -> None:
    assert window_title(PurePosixPath("/home/user/Documents/Finance")) == "Finance - Thunar"
    assert window_title(PurePosixPath("/")) == "File System - Thunar"


def test_a_path_that_is_not_a_folder_fails(ctx: StepContext) -> None:
    (ctx.workspace / "notes.txt").write_text("x\n")
    with pytest.raises(StepFailed, match="is not a folder"):
        run_reset("apps.files", {"path": "notes.txt"}, ctx)
    with pytest.raises(StepFailed, match="is not a folder"):
        run_reset("apps.files", {"path": "missing"}, ctx)


@pytest.mark.slow
def test_the_folder_opens_in_thunar_and_the_home_by_default(ctx: StepContext, xdisplay: Any) -> None:
    if shutil.which("thunar") is None:
        pytest.skip("thunar is not installed (scripts/setup.sh installs it)")
    ctx.display = xdisplay.name
    folder = ctx.workspace / "4th Year in Tsinghua"
    folder.mkdir()
    (folder / "Prologue.tex").write_text("\\chapter{Prologue}\n")
    try:
        run_reset("apps.files", {"path": str(folder)}, ctx)
        assert _x11.find_window(xdisplay.name, "4th Year in Tsinghua - Thunar") is not None
        run_reset("apps.files", {}, ctx)
        assert _x11.find_window(xdisplay.name, f"{ctx.home.name} - Thunar") is not None
        # Without a D-Bus session each window is a Thunar of its own.
        assert len(processes_on_display("thunar", xdisplay.name)) == 2
    finally:
        run_reset("apps.kill", {"name": "thunar"}, ctx)
