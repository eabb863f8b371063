"""terminal.text: what an apps.terminal xterm showed (real Xvfb, xterm, bash), and the transcript cleaner."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from deskact.reset_scripts._terminal_log import plain_text
from deskact.runtime.tasks.steps import StepContext, run_judge, run_reset


def test_plain_text_drops_escapes_and_applies_carriage_returns() -> None:
    raw = b"\x1b]0;Terminal\x07$ ls\r\n\x1b[01;34mdocs\x1b[0m  notes.txt\r\n10%\r50%\r100%\r\nab\bc\r\n"
    assert plain_text(raw) == "$ ls\ndocs  notes.txt\n100%\nac\n"


@pytest.mark.display
@pytest.mark.skipif(not all(shutil.which(p) for p in ("Xvfb", "openbox", "xterm", "xdotool")),
                    reason="needs Xvfb, openbox, xterm and xdotool")
def test_text_shown_in_the_terminal_passes_other_output_fails(xdisplay, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    ctx = StepContext(workspace=tmp_path, files=tmp_path, home=tmp_path, display=xdisplay.name, task_id="term-t")
    (tmp_path / "app.log").write_text("ok\nERROR a\nERROR b\nok\nERROR c\n")
    try:
        assert not run_judge("terminal.text", {"contains": "x"}, ctx).passed  # no terminal yet
        run_reset("apps.terminal", {"title": "Terminal"}, ctx)
        env = dict(os.environ, DISPLAY=xdisplay.name)
        subprocess.run(["xdotool", "search", "--name", "^Terminal$", "windowactivate", "--sync"], env=env, check=True)
        subprocess.run(["xdotool", "type", "--delay", "5", "grep -c ERROR app.log\n"], env=env, check=True)
        deadline = time.monotonic() + 20
        while not (v := run_judge("terminal.text", {"regex": r"(?m)^3\s*$"}, ctx)).passed:
            assert time.monotonic() < deadline, v.feedback
            time.sleep(0.1)
        assert run_judge("terminal.text", {"contains": "grep -c ERROR app.log"}, ctx).passed
        v = run_judge("terminal.text", {"regex": r"(?m)^4\s*$"}, ctx)
        assert not v.passed and "its last lines" in v.feedback
        print("printed by the test process, not in the terminal: 4")  # elsewhere: not in the record
        assert not run_judge("terminal.text", {"regex": r"(?m)^4\s*$"}, ctx).passed
        assert not run_judge("terminal.text", {"title": "Other", "contains": "3"}, ctx).passed
    finally:
        run_reset("apps.kill", {"name": "xterm"}, ctx)
