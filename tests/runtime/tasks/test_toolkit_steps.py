"""A toolkit's steps register before tasks are checked; a toolkit that cannot load says so in one line."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from deskact.runtime.errors import ToolkitError
from deskact.runtime.tasks import toolkit_steps
from deskact.runtime.tasks.steps import REGISTRY
from deskact.runtime.tasks.task import load_tasks
from deskact.runtime.tasks.toolkit_steps import load_toolkit_steps
from deskact.runtime.ui.cli import app
from typer.testing import CliRunner

TOOLKIT = '''
from deskact.toolkits.base import Toolkit

def hello() -> str:
    """Say hello."""
    return "hello"

toolkit = Toolkit(name="greeter", module="greeter_tk", exports=["hello"], plugins=["greeter_steps"])
broken = Toolkit(name="broken", module="greeter_tk", exports=["hello"], plugins=["greeter_broken_steps"])
'''

STEPS = '''
from deskact.runtime.tasks.steps import StepContext, Verdict, judge

@judge("greeter.said")
def greeter_said(ctx: StepContext, text: str) -> Verdict:
    """The agent printed ``text``."""
    return Verdict.ok() if text in ctx.answer else Verdict.fail(f"no {text!r} in the answer")
'''

TASK = """
id: greet
instruction: Say hello.
toolkits: [{toolkit}]
judge: [{{greeter.said: {{text: hello}}}}]
"""


@pytest.fixture
def greeter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "greeter_tk.py").write_text(TOOLKIT)
    (tmp_path / "greeter_steps.py").write_text(STEPS)
    (tmp_path / "greeter_broken_steps.py").write_text("import no_such_dependency_of_greeter\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in ("greeter_tk", "greeter_steps", "greeter_broken_steps"):
        sys.modules.pop(name, None)
    # The test toolkit's judge must not outlive these tests: later ones render the registry
    # (docs/steps.md's up-to-date check) and would list it.
    REGISTRY["judge"].pop("greeter.said", None)
    toolkit_steps._loaded.difference_update({n for n in toolkit_steps._loaded if "greeter" in n})


def task_file(folder: Path, toolkit: str) -> Path:
    file = folder / f"task-{toolkit.replace(':', '-')}.yaml"
    file.write_text(TASK.format(toolkit=f'"{toolkit}"'))
    return file


def test_a_tasks_own_toolkit_registers_its_judge_first(greeter: Path) -> None:
    loaded = load_tasks([task_file(greeter, "greeter_tk:toolkit")])
    assert [t.id for t in loaded.tasks] == ["greet"] and not loaded.invalid


def test_a_toolkit_that_cannot_load_makes_the_task_invalid_naming_why(greeter: Path) -> None:
    loaded = load_tasks([task_file(greeter, "greeter_tk:broken")])
    (bad,) = loaded.invalid
    assert ("toolkits: toolkit 'greeter_tk:broken': cannot import its steps module greeter_broken_steps: "
            "ModuleNotFoundError: No module named 'no_such_dependency_of_greeter'") in bad.message
    (typo,) = load_tasks([task_file(greeter, "googel")]).invalid
    assert "unknown toolkit 'googel'; did you mean 'google'?" in typo.message


def test_configured_toolkits_register_before_loading(greeter: Path) -> None:
    load_toolkit_steps(["greeter_tk:toolkit"])
    with pytest.raises(ToolkitError, match="cannot import its steps module greeter_broken_steps"):
        load_toolkit_steps(["greeter_tk:broken"])


def test_cli_names_a_configured_toolkit_that_cannot_load(greeter: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["validate", str(task_file(greeter, "greeter_tk:toolkit"))],
                                env={"DESKACT_TOOLKITS_ENABLED": '["greeter_tk:broken"]', "DESKACT_CONFIG": "",
                                     "DESKACT_DISPLAY_MODE": "none", "COLUMNS": "300", "NO_COLOR": "1"})
    assert result.exit_code == 2
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: toolkit 'greeter_tk:broken': cannot import its steps "
                                                   "module greeter_broken_steps: ModuleNotFoundError"), lines
