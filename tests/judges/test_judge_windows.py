"""windows.geometry and windows.state on a real Xvfb + openbox (pass and fail, with feedback)."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from deskact.runtime.tasks.steps import StepContext, run_judge, run_reset
from deskact.runtime.tasks.task import load_file

pytestmark = [
    pytest.mark.display,
    pytest.mark.skipif(not all(shutil.which(p) for p in ("Xvfb", "openbox", "xterm", "wmctrl")),
                       reason="needs Xvfb, openbox, xterm and wmctrl"),
]


@pytest.fixture
def term(xdisplay, tmp_path: Path) -> Iterator[StepContext]:  # type: ignore[no-untyped-def]
    """A 1280x800 display with an xterm titled Probe on it."""
    ctx = StepContext(workspace=tmp_path, files=tmp_path, home=tmp_path, display=xdisplay.name, task_id="t")
    run_reset("apps.launch", {"cmd": "xterm -T Probe -geometry 40x10", "window": "Probe"}, ctx)
    yield ctx
    run_reset("apps.kill", {"name": "xterm"}, ctx)


def _wmctrl(ctx: StepContext, *args: str) -> None:
    subprocess.run(["wmctrl", "-r", "Probe", *args], env=ctx.env(), check=True)


def _wait(ctx: StepContext, judge: str, params: dict[str, object]) -> bool:
    """Poll a judge until it passes (the window manager applies requests asynchronously)."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if run_judge(judge, params, ctx).passed:
            return True
        time.sleep(0.05)
    return False


def test_geometry_passes_when_the_frame_covers_the_box(term: StepContext) -> None:
    _wmctrl(term, "-e", "0,0,0,640,770")  # client 640x770 + title bar ~ the left half of 1280x800
    assert _wait(term, "windows.geometry", {"contains": "probe", "box": [0, 0, 0.5, 1]})
    verdict = run_judge("windows.geometry", {"contains": "probe", "box": [0, 0, 0.5, 1]}, term)
    assert verdict.passed and "on a 1280x800 screen" in verdict.feedback


def test_geometry_fails_naming_the_edges_that_are_off(term: StepContext) -> None:
    _wmctrl(term, "-e", "0,640,400,600,300")
    assert _wait(term, "windows.geometry", {"contains": "Probe", "box": [0.5, 0.5, 1, 0.95], "tolerance": 0.1})
    verdict = run_judge("windows.geometry", {"contains": "Probe", "box": [0, 0, 0.5, 1]}, term)
    assert not verdict.passed and not verdict.error
    assert "left edge at 0.50 instead of 0.00" in verdict.feedback
    assert "top edge at 0.50 instead of 0.00" in verdict.feedback
    assert verdict.details["pixels"][0] == 640


def test_geometry_and_state_fail_for_a_missing_window(term: StepContext) -> None:
    for judge, extra in (("windows.geometry", {"box": [0, 0, 1, 1]}), ("windows.state", {"state": "maximized"})):
        verdict = run_judge(judge, {"contains": "Nowhere", **extra}, term)
        assert not verdict.passed and not verdict.error
        assert "no window title contains 'Nowhere'; open windows: ['Probe']" in verdict.feedback


def test_state_normal_maximized_minimized(term: StepContext) -> None:
    assert run_judge("windows.state", {"contains": "Probe", "state": "normal"}, term).passed
    failed = run_judge("windows.state", {"contains": "Probe", "state": "maximized"}, term)
    assert not failed.passed and failed.feedback.startswith("window 'Probe' should be maximized but is normal")

    _wmctrl(term, "-b", "add,maximized_vert,maximized_horz")
    assert _wait(term, "windows.state", {"contains": "Probe", "state": "maximized"})
    assert not run_judge("windows.state", {"contains": "Probe", "state": "normal"}, term).passed

    _wmctrl(term, "-b", "remove,maximized_vert,maximized_horz")
    subprocess.run(["xdotool", "search", "--name", "Probe", "windowminimize"], env=term.env(), check=True)
    assert _wait(term, "windows.state", {"contains": "Probe", "state": "minimized"})
    hidden = run_judge("windows.geometry", {"contains": "Probe", "box": [0, 0, 1, 1]}, term)
    assert not hidden.passed and "minimized" in hidden.feedback


def test_box_is_checked_when_the_task_loads(tmp_path: Path) -> None:
    task_file = tmp_path / "t.yaml"
    task_file.write_text(
        "id: t\ninstruction: x\nvisual: true\njudge:\n"
        "  - windows.geometry: {contains: A, box: [0.5, 0, 0.2, 1]}\n"
    )
    result = load_file(task_file)
    assert not result.tasks
    assert "must be [left, top, right, bottom] with left < right" in result.invalid[0].message
    task_file.write_text("id: t\ninstruction: x\njudge:\n  - windows.state: {contains: A, state: huge}\n")
    message = load_file(task_file).invalid[0].message
    assert "state" in message and "huge" in message
