"""Output into a pipe and the run-shaping flags (issue 26): no hard wrap at 80 columns, a failed task's
reason on its line, epoch tables only for tasks whose epochs differ, ``deskact tasks``, ``run --limit``,
``--sample/--seed``, ``--max-steps``, ``--temperature`` and several ``--model`` compared."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from deskact.runtime.config import Config
from deskact.runtime.errors import DeskactError
from deskact.runtime.run.events import RunEvent
from deskact.runtime.run.manifest import read_manifest
from deskact.runtime.run.results import TaskResult, read_results
from deskact.runtime.run.runner import subset
from deskact.runtime.tasks.task import Task
from deskact.runtime.ui.cli import app
from deskact.runtime.ui.consoles import OutputConsole
from deskact.runtime.ui.progress import ProgressState, result_line
from deskact.runtime.ui.run_command import ModelsComparison, with_model
from deskact.runtime.ui.views import print_epochs
from rich.table import Table
from typer.testing import CliRunner

ENV = {"DESKACT_TOOLKITS_ENABLED": "[]", "DESKACT_DISPLAY_MODE": "none", "DESKACT_CONFIG": "", "NO_COLOR": "1"}
SUITE = "tasks:\n" + "".join(f"""
  - id: pipe-{n}
    instruction: Print {n}.
    judge: [{{answer.contains: {{text: "{n}"}}}}]
    reference: |
      print("{n}")
      exit()
""" for n in ("a", "b", "c", "d"))


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    folder = tmp_path / "pipe_suite"
    folder.mkdir()
    (folder / "tasks.yaml").write_text(SUITE)
    return folder


def invoke(*args: str | Path) -> tuple[int, str]:
    result = CliRunner().invoke(app, [str(a) for a in args], env=ENV)
    return result.exit_code, result.output


def test_a_pipe_gets_no_hard_wrap_at_80_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    sentence = "error: " + "a long sentence about what went wrong " * 4
    fix = "sudo apt-get install --no-install-recommends xvfb openbox xdotool x11vnc"
    piped = io.StringIO()
    console = OutputConsole(file=piped)
    table = Table()
    for col in ("item", "fix"):
        table.add_column(col)
    table.add_row("Xvfb", fix)
    console.print(sentence)
    console.print(table)
    lines = piped.getvalue().splitlines()
    assert lines[0] == sentence
    assert any(fix in line for line in lines)
    on_terminal = io.StringIO()
    OutputConsole(file=on_terminal, force_terminal=True, width=80, color_system=None).print(sentence)
    assert len(on_terminal.getvalue().splitlines()) > 1  # a terminal still wraps at its width


def test_line_mode_prints_why_a_task_failed() -> None:
    state = ProgressState(total=1)
    failed = TaskResult(task_id="t", suite="s", status="failed", feedback="out.txt holds 'x', expected 'hello'.\nmore")
    assert result_line(state, RunEvent("result", result=failed)).endswith("out.txt holds 'x', expected 'hello'.")
    passed = TaskResult(task_id="t", suite="s", status="passed", reward=1, feedback="ignored")
    assert "ignored" not in result_line(state, RunEvent("result", result=passed))


def test_the_epoch_table_lists_only_tasks_whose_epochs_differ() -> None:
    results = [TaskResult(task_id=t, epoch=e, suite="s", status="passed" if r else "failed", reward=r)
               for t, rewards in {"same-pass": [1, 1], "same-fail": [0, 0], "flaky": [1, 0]}.items()
               for e, r in enumerate(rewards, 1)]
    out = io.StringIO()
    print_epochs(OutputConsole(file=out, width=200), results)
    text = out.getvalue()
    assert "flaky" in text and "same-pass" not in text and "same-fail" not in text
    assert "2 other tasks had the same outcome in every epoch" in text


def test_tasks_lists_the_task_ids(suite: Path) -> None:
    code, out = invoke("tasks", suite)
    assert code == 0 and out.split() == ["pipe-a", "pipe-b", "pipe-c", "pipe-d"], out
    code, out = invoke("tasks", suite, "--tasks", "pipe-[bc]", "--long")
    assert code == 0 and out.splitlines() == ["pipe-b\tpipe_suite\tapi\t", "pipe-c\tpipe_suite\tapi\t"], out
    code, out = invoke("tasks", suite, "--tasks", "nothing*")
    assert code == 2 and "no task id" in out


def test_subset_limits_and_samples_the_same_tasks_for_a_seed() -> None:
    tasks = [Task(id=f"t{i}", instruction="x", judge=[{"name": "answer.contains", "params": {"text": "x"}}]) for i in range(10)]
    assert [t.id for t in subset(tasks, 3, None, 0)] == ["t0", "t1", "t2"]
    drawn = [t.id for t in subset(tasks, None, 4, 7)]
    assert len(drawn) == 4 and drawn == [t.id for t in subset(tasks, None, 4, 7)]
    assert drawn == sorted(drawn, key=lambda i: int(i[1:]))  # load order kept
    assert {tuple(t.id for t in subset(tasks, None, 4, s)) for s in range(5)} != {tuple(drawn)}
    assert len(subset(tasks, 2, 4, 7)) == 2 and len(subset(tasks, None, 50, 1)) == 10


def test_temperature_goes_to_the_models_provider() -> None:
    cfg = with_model(Config(), "openai/gpt-x", 0.7)
    assert cfg.providers["openai"].temperature == 0.7 and cfg.agent.model == "openai/gpt-x"
    assert Config().providers["openai"].temperature == 0.0  # a copy: the loaded config is untouched
    with pytest.raises(DeskactError, match="--temperature 0.7: reference is an offline model"):
        with_model(Config(), "reference", 0.7)


@pytest.mark.timeout(300)
def test_run_limit_sample_and_max_steps(suite: Path, tmp_path: Path) -> None:
    code, out = invoke("run", suite, "-m", "reference", "--limit", "1", "--max-steps", "2", "-o", tmp_path / "lim")
    assert code == 0, out
    assert [r.task_id for r in read_results(tmp_path / "lim" / "results.jsonl")] == ["pipe-a"]
    manifest = read_manifest(tmp_path / "lim")
    assert manifest is not None and manifest.config["agent"]["max_steps"] == 2
    code, out = invoke("run", suite, "-m", "reference", "--sample", "2", "--seed", "3", "-o", tmp_path / "smp")
    assert code == 0 and len(read_results(tmp_path / "smp" / "results.jsonl")) == 2, out
    code, out = invoke("run", suite, "-m", "reference", "--limit", "0")
    assert code == 2 and "--limit 0: must be at least 1 (tasks run)" in out


@pytest.mark.timeout(300)
def test_several_models_run_each_and_are_compared(suite: Path, tmp_path: Path) -> None:
    out_dir = tmp_path / "multi"
    code, out = invoke("run", suite, "-m", "reference", "-m", "noop", "--limit", "2", "-o", out_dir)
    assert code == 0, out
    assert {r.model for r in read_results(out_dir / "reference" / "results.jsonl")} == {"reference"}
    assert {r.model for r in read_results(out_dir / "noop" / "results.jsonl")} == {"noop"}
    comparison = ModelsComparison.model_validate(json.loads((out_dir / "comparison.json").read_text()))
    assert [(r.model, r.passed, r.attempts) for r in comparison.runs] == [("reference", 2, 2), ("noop", 0, 2)]
    (vs_noop,) = comparison.comparisons
    assert [c.task_id for c in vs_noop.broken] == ["pipe-a", "pipe-b"]
    assert "Models compared (against reference)" in out
