"""The offline ``explore`` model: one read-only look around, then exit."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from deskact.runtime.agent.models import Message, make_model
from deskact.runtime.agent.models.offline import EXIT_REPLY, Explore, explore_code
from deskact.runtime.agent.parsing import extract_code
from deskact.runtime.config import Config
from deskact.runtime.tasks.task import Task

TASK = Task(id="t-count", instruction="Count the lines of ${WORKSPACE}/logs/app.log.", judge=[])


def test_explore_sends_one_probe_then_exits() -> None:
    model = make_model("explore", Config())
    assert isinstance(model, Explore)
    model.start_episode(TASK)
    seen = [Message(role="user", text="Task: Count the lines of /w/logs/app.log.")]
    code = extract_code(model.reply("sys", seen).text).code
    assert code is not None
    assert "_deskact_explore('Task: Count the lines of /w/logs/app.log.')" in code  # expanded text
    assert code.rstrip().endswith("exit()")
    assert model.reply("sys", seen).text == EXIT_REPLY
    model.start_episode(TASK)  # a new episode looks around again
    assert "_deskact_explore(" in model.reply("sys", seen).text


def _snapshot(root: Path) -> dict[str, tuple[int, int, bytes]]:
    return {
        str(p.relative_to(root)): (p.stat().st_mode, p.stat().st_mtime_ns, p.read_bytes() if p.is_file() else b"")
        for p in sorted(root.rglob("*"))
    }


def test_probe_shows_workspace_and_changes_nothing(tmp_path: Path) -> None:
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "app.log").write_text("".join(f"line {i}\n" for i in range(300)))
    (tmp_path / "data.bin").write_bytes(b"\0\1secret-binary")
    (tmp_path / "notes.txt").write_text("remember: it's 22\n")
    before = _snapshot(tmp_path)
    script = explore_code("Count the \"lines\" of 'app.log'\nplease.")
    env = {**os.environ, "WORKSPACE": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-c", script], check=False, cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Count the \"lines\" of 'app.log'\nplease." in out  # the task echoed back verbatim
    assert f"ls -laR {tmp_path}" in out and "app.log" in out and "notes.txt" in out
    assert "remember: it's 22" in out  # small text files are printed
    assert "line 0\n" in out and "line 199\n" in out and "line 200\n" not in out  # first 200 lines
    assert "secret-binary" not in out  # binary files are skipped
    # Any two months in a row include one of 31 days: every day number shows, whatever the date.
    assert any(line.endswith(": " + " ".join(map(str, range(1, 32)))) for line in out.splitlines())
    assert _snapshot(tmp_path) == before  # read-only
