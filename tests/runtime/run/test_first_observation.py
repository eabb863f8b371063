"""validate's observation check: the first observation of a visual task shows its windows drawn.

Through the path the model gets it (TaskEnv.screenshot) on a real worker: a task whose app is still
blank fails the check with the reason, a drawn one passes. Every built-in visual task is checked in
validate's noop pass (tests/task_suites/test_validate_suites.py)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest
import yaml
from deskact.reset_scripts.apps import launcher
from deskact.runtime.config import Config
from deskact.runtime.run.first_observation import check_task
from deskact.runtime.run.worker import Worker
from deskact.runtime.tasks.task import Task, parse_task

pytestmark = [
    pytest.mark.display,
    pytest.mark.skipif(shutil.which("Xvfb") is None or shutil.which("xterm") is None, reason="needs Xvfb and xterm"),
]


def _config() -> Config:
    cfg = Config()
    cfg.kernel.pool_size = 1
    cfg.display.width, cfg.display.height = 1280, 800
    return cfg


def _task(tmp_path: object, xterm_args: str) -> Task:
    raw = yaml.safe_load(f"""
id: observe-xterm
instruction: Look at the terminal.
visual: true
toolkits: [gui]
reset:
  - apps.launch: {{cmd: "xterm -T Probe {xterm_args} -e sleep 600", window: Probe}}
cleanup:
  - apps.kill: {{name: xterm}}
judge:
  - answer.contains: {{text: anything}}
""")
    return parse_task(raw, tmp_path, tmp_path / "inline.yaml")  # type: ignore[operator]


@pytest.fixture(scope="module")
def worker() -> Iterator[Worker]:
    w = Worker(_config(), 0)
    yield w
    w.close()


def test_a_blank_app_fails_the_check(tmp_path: object, worker: Worker, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(launcher, "SETTLE_TIMEOUT_S", 1.0)  # it never gets drawn: do not wait long for it
    # Text, cursor and background in one colour: what a LibreOffice frame shows before its document.
    problem = check_task(_task(tmp_path, "-bg gray -fg gray -cr gray"), worker)
    assert problem is not None
    assert "window 'Probe'" in problem and "blank" in problem and "not drawn yet" in problem


def test_a_drawn_app_passes_the_check(tmp_path: object, worker: Worker) -> None:
    assert check_task(_task(tmp_path, "-bg white -fg black"), worker) is None


# Every built-in visual task's first observation is checked by tests/task_suites/test_validate_suites.py:
# validate's noop pass looks at it (a reset of its own per task here cost a sixth of the suites' validation).
