"""apps.terminal on a real Xvfb + openbox: ready for keys the moment the step returns."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from deskact.reset_scripts._x11 import list_windows
from deskact.runtime.tasks.steps import StepContext, StepFailed, run_reset

pytestmark = [
    pytest.mark.display,
    pytest.mark.skipif(not all(shutil.which(p) for p in ("Xvfb", "openbox", "xterm", "xdotool")),
                       reason="needs Xvfb, openbox, xterm and xdotool"),
]


def _ctx(display: str, tmp_path: Path) -> StepContext:
    return StepContext(workspace=tmp_path, files=tmp_path, home=tmp_path, display=display, task_id="t")


def test_terminal_takes_keys_as_soon_as_the_step_returns(xdisplay, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    ctx = _ctx(xdisplay.name, tmp_path)
    try:
        for round_ in range(3):  # a race shows up in some launches only
            run_reset("apps.terminal", {"title": f"Shell{round_}"}, ctx)
            titles = [w.title for w in list_windows(xdisplay.name)]
            assert f"Shell{round_}" in titles
            # Type at once, the way a warm kernel does: nothing may be lost.
            env = dict(os.environ, DISPLAY=xdisplay.name)
            subprocess.run(["xdotool", "search", "--name", f"^Shell{round_}$", "windowactivate", "--sync"],
                           env=env, check=True)
            subprocess.run(["xdotool", "type", "--delay", "5", f"touch made{round_}\n"], env=env, check=True)
            deadline = time.monotonic() + 5
            while not (tmp_path / f"made{round_}").exists():
                assert time.monotonic() < deadline, f"the command typed into Shell{round_} never ran (cwd {tmp_path})"
                time.sleep(0.02)
            run_reset("apps.kill", {"name": "xterm"}, ctx)
    finally:
        run_reset("apps.kill", {"name": "xterm"}, ctx)


def test_terminal_rejects_a_title_it_cannot_wait_for(xdisplay, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(StepFailed, match="must be non-empty and not part of"):
        run_reset("apps.terminal", {"title": "starting"}, _ctx(xdisplay.name, tmp_path))


def test_terminal_needs_a_display(tmp_path: Path) -> None:
    ctx = StepContext(workspace=tmp_path, files=tmp_path, home=tmp_path, display=None, task_id="t9")
    with pytest.raises(StepFailed, match="needs a display, but task t9 has none"):
        run_reset("apps.terminal", {}, ctx)
