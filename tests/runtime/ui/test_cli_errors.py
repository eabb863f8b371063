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


@pytest.mark.parametrize("command", ["run", "validate"])
def test_tasks_pattern_matching_nothing_is_an_error(command: str, suite: Path, tmp_path: Path) -> None:
    code, out = invoke(command, suite, "--tasks", "nomatch*", *(["-m", "reference", "-o", tmp_path / "o"]
                                                                   if command == "run" else []))
    assert code == 2, out
    line = line_with(out, "nomatch*")
    assert line.startswith("error: --tasks 'nomatch*': no task id in") and "cli-broken, cli-good" in line
    assert "━" not in out and not (tmp_path / "o").exists()  # no progress bar, nothing written
    code, out = invoke(command, suite, "--tasks", "cli-god", *(["-m", "reference", "-o", tmp_path / "o"]
                                                                  if command == "run" else []))
    assert code == 2 and "did you mean cli-good" in line_with(out, "cli-god"), out


def test_run_exits_non_zero_when_a_task_is_invalid(suite: Path, tmp_path: Path) -> None:
    code, out = invoke("run", suite, "-m", "reference", "-o", tmp_path / "o")
    assert code == 1, out
    assert line_with(out, "tasks invalid").startswith("error: 1 of 2 tasks invalid")
    results = (tmp_path / "o" / "results.jsonl").read_text()
    assert '"cli-good"' in results and '"passed"' in results and '"invalid"' in results
    # the broken task is listed once, before the progress bar
    invalid = line_with(out, "task `cli-broken`")
    assert out.index(invalid) < out.index("━")


def test_early_errors_print_no_progress_bar(suite: Path, tmp_path: Path) -> None:
    code, out = invoke("run", suite, "-m", "referense", "-o", tmp_path / "o")
    assert code == 2 and "━" not in out and "0/?" not in out, out


def test_validate_shows_every_error_of_a_broken_task_once(suite: Path) -> None:
    code, out = invoke("validate", suite, "--no-explore", "--tasks", "cli-*")
    assert code == 1, out
    assert line_with(out, "task `cli-broken`").startswith("INVALID ")
    assert "did you mean `instruction`?" in line_with(out, "unknown field `instrution`")
    assert "did you mean `answer.regex`?" in line_with(out, "unknown judge `answer.regexx`")
    assert "'lots'" in line_with(out, "max_steps")
    assert "missing field `instruction`" not in out  # the typo already says so
    assert line_with(out, "tasks valid") == "1/2 tasks valid"


@pytest.mark.parametrize(("typo", "meant"), [("referense", "'reference'"),
                                              ("antropic/claude-sonnet-4-5", "'anthropic/claude-sonnet-4-5'")])
def test_unknown_model_says_did_you_mean(typo: str, meant: str, suite: Path, tmp_path: Path) -> None:
    code, out = invoke("run", suite, "-m", typo, "-o", tmp_path / "o")
    assert code == 2, out
    assert line_with(out, "unknown model").startswith(f"error: unknown model {typo!r}: did you mean {meant}?")
    assert "━" not in out


def test_unknown_config_keys_say_did_you_mean(suite: Path, tmp_path: Path) -> None:
    config = tmp_path / "c.yaml"
    config.write_text("runner:\n  wrokers: 2\n")
    code, out = invoke("run", suite, "-m", "reference", "-o", tmp_path / "o", "-c", config)
    assert code == 2, out
    assert line_with(out, "wrokers").strip() == f"{config}: runner.wrokers = 2: unknown key; did you mean runner.workers?"
    code, out = invoke("validate", suite, env={"DESKACT_RUNER_WORKERS": "2"})
    assert code == 2, out
    assert line_with(out, "DESKACT_RUNER_WORKERS") == ("error: environment variable DESKACT_RUNER_WORKERS: no config "
                                                       "key matches it; did you mean DESKACT_RUNNER_WORKERS?")
