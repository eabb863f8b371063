"""The CLI refuses a user's mistakes with one clear line naming the value, and a non-zero exit."""

from __future__ import annotations

from pathlib import Path

import pytest
from deskact.runtime.ui.cli import app
from typer.testing import CliRunner

ENV = {"DESKACT_TOOLKITS_ENABLED": "[]", "DESKACT_DISPLAY_MODE": "none", "DESKACT_CONFIG": "",
       "COLUMNS": "300", "NO_COLOR": "1"}

SUITE = """
tasks:
  - id: cli-good
    instruction: Print hi.
    judge:
      - answer.regex: {pattern: 'hi'}
    reference: |
      print("hi")
      exit()
  - id: cli-broken
    instrution: Print hi.
    judge:
      - answer.regexx: {pattern: 'hi'}
    max_steps: lots
"""


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    folder = tmp_path / "suite_cli"
    folder.mkdir()
    (folder / "tasks.yaml").write_text(SUITE)
    return folder


def invoke(*args: str | Path, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(app, [str(a) for a in args], env={**ENV, **(env or {})})
    return result.exit_code, result.output


def line_with(output: str, text: str) -> str:
    lines = [ln for ln in output.splitlines() if text in ln]
    assert len(lines) == 1, output
    return lines[0]


@pytest.mark.parametrize("command", ["run", "validate"])
def test_workers_below_one_is_refused(command: str, suite: Path, tmp_path: Path) -> None:
    code, out = invoke(command, suite, "--workers", "0")
    assert code == 2, out
    assert line_with(out, "--workers 0").startswith("error: --workers 0: must be at least 1")
    assert "tasks" not in out.replace("the number of tasks", "")  # refused before anything ran
