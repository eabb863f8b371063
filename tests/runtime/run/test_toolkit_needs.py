"""The runtime asks a task's toolkits what they need: a display, kernel variables, step hooks.

Two toolkits written for the test (one drives a screen, one reports a URL) stand in for gui and
browser, so the rules are shown to hold for any toolkit, not for the built-in names.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from deskact.runtime.agent.agent import StepRecord
from deskact.runtime.config import Config
from deskact.runtime.run.ray_backend import needs_display as ray_needs_display
from deskact.runtime.run.task_env import TaskEnv
from deskact.runtime.run.worker import Worker, needs_display
from deskact.runtime.tasks.task import Step, Task

TOOLKITS = '''
from deskact.toolkits.base import Toolkit

def screen_env(config, display):
    return {"SCREEN_SEEN": "yes" if display is not None else "no", "STEPS": str(config.agent.max_steps)}

def page_url(ctx):
    return f"http://page/{ctx.task_id}"

def count_step(ctx, rec):
    rec.note += f"[counted {rec.index}]"

screen = Toolkit(name="screen", module="json", exports=[], needs_display=True, kernel_env=screen_env)
pages = Toolkit(name="pages", module="json", exports=[], step_url=page_url, after_step=count_step)
'''


@pytest.fixture
def toolkit_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "needs_toolkits.py").write_text(textwrap.dedent(TOOLKITS))
    monkeypatch.syspath_prepend(str(tmp_path))
    return "needs_toolkits"


def task(toolkits: list[str], visual: bool = False) -> Task:
    return Task(id="t1", instruction="do it", visual=visual, toolkits=toolkits,
                judge=[Step(name="answer.contains", params={"text": "x"})])


def test_a_display_is_needed_when_the_task_is_visual_or_a_toolkit_of_its_drives_one(toolkit_module: str) -> None:
    screen, pages = f"{toolkit_module}:screen", f"{toolkit_module}:pages"
    assert needs_display(False, [screen]) and needs_display(False, [pages, screen])
    assert not needs_display(False, [pages]) and not needs_display(False, [])
    assert needs_display(True, [pages])
    assert ray_needs_display(task([screen])) and not ray_needs_display(task([pages]))  # the same rule


def test_a_configured_toolkit_that_needs_a_display_is_left_out_without_one(toolkit_module: str) -> None:
    screen, pages = f"{toolkit_module}:screen", f"{toolkit_module}:pages"
    config = Config()
    config.toolkits.enabled = [screen, pages]
    with Worker(config) as worker:
        assert [tk.name for tk in worker.toolkits_for([], has_display=False)] == ["pages"]
        assert [tk.name for tk in worker.toolkits_for([], has_display=True)] == ["screen", "pages"]
        # Named by the task itself, it stays (the task then gets a display, see needs_display).
        assert [tk.name for tk in worker.toolkits_for([screen], has_display=False)] == ["screen", "pages"]


def test_kernel_variables_come_from_the_toolkits_hooks(toolkit_module: str) -> None:
    screen, pages = f"{toolkit_module}:screen", f"{toolkit_module}:pages"
    config = Config()
    config.toolkits.enabled = []
    config.agent.max_steps = 7
    with Worker(config) as worker:
        env = worker.kernel_args(worker.toolkits_for([screen, pages], has_display=False), None)["env"]
        assert env["SCREEN_SEEN"] == "no" and env["STEPS"] == "7"
        assert "SCREEN_SEEN" not in worker.kernel_args(worker.toolkits_for([pages], False), None)["env"]


def test_each_step_passes_the_toolkits_step_hooks_before_it_is_saved(toolkit_module: str, tmp_path: Path) -> None:
    config = Config()
    config.toolkits.enabled = []
    config.display.mode = "none"
    saved: list[StepRecord] = []
    with Worker(config) as worker:
        env = TaskEnv(task([f"{toolkit_module}:pages"]), worker)
        env.workspace = tmp_path  # the hooks read the step context; no kernel is needed for that
        hook = env._with_step_hooks(saved.append)
        assert hook is not None
        hook(StepRecord(index=2))
        assert saved[0].url == "http://page/t1" and saved[0].note == "[counted 2]"
        plain = TaskEnv(task([]), worker)
        assert plain._with_step_hooks(saved.append) == saved.append  # nothing to add: no wrapper


def test_the_builtin_toolkits_declare_their_needs() -> None:
    from deskact.toolkits.base import load_toolkit

    gui, browser, google = load_toolkit("gui"), load_toolkit("browser"), load_toolkit("google")
    assert gui.needs_display and gui.kernel_env is not None and gui.step_url is None
    assert gui.kernel_env(Config(), None) == {}  # nothing to configure without a display
    assert "DESKACT_GUI_PAUSE" in gui.kernel_env(Config(), ":99")
    assert browser.step_url is not None and not browser.needs_display
    assert not google.needs_display and google.kernel_env is None
