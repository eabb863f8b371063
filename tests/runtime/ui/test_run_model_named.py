"""``deskact run`` never assumes a model: without --model it uses agent.model from the config and
says so, refuses when neither names one, and the summary names the model (issue 26)."""

from __future__ import annotations

from pathlib import Path

import pytest
from deskact.runtime.ui.cli import app
from typer.testing import CliRunner

ENV = {"DESKACT_TOOLKITS_ENABLED": "[]", "DESKACT_DISPLAY_MODE": "none", "DESKACT_CONFIG": "",
       "COLUMNS": "300", "NO_COLOR": "1"}
SUITE = """
id: named-hi
instruction: Print hi.
judge:
  - answer.regex: {pattern: 'hi'}
reference: |
  print("hi")
  exit()
"""


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    folder = tmp_path / "suite_named"
    folder.mkdir()
    (folder / "task.yaml").write_text(SUITE)
    return folder


def invoke(*args: str | Path, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(app, [str(a) for a in args], env={**ENV, **(env or {})})
    return result.exit_code, result.output


def test_a_run_without_any_model_is_refused(suite: Path, tmp_path: Path) -> None:
    code, out = invoke("run", suite, "-o", tmp_path / "out")
    assert code == 2, out
    assert out.startswith("error: no model to run: pass --model") and "agent.model" in out
    assert not (tmp_path / "out").exists()


def test_the_config_model_is_used_and_named(suite: Path, tmp_path: Path) -> None:
    code, out = invoke("run", suite, "-o", tmp_path / "out", env={"DESKACT_AGENT_MODEL": "reference"})
    assert code == 0, out
    assert "model: reference (agent.model from the config; --model overrides it)" in out
    assert "By suite (model reference)" in out


def test_an_explicit_model_is_named_in_the_summary(suite: Path, tmp_path: Path) -> None:
    code, out = invoke("run", suite, "-o", tmp_path / "out", "--model", "noop")
    assert code == 0, out
    assert "agent.model from the config" not in out and "By suite (model noop)" in out
