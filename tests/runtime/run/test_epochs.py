"""deskact run --epochs N: each task N times, results carry the epoch, pass@k and spread checked
against values computed by hand; --resume keys on (task, epoch)."""

from __future__ import annotations

import json
import math
import re
import threading
from pathlib import Path

import pytest
from deskact.runtime.run.epochs import ks_for, pass_at_k, suite_epochs, task_epochs
from deskact.runtime.run.results import TaskResult, read_results
from deskact.runtime.ui.cli import app
from deskact.runtime.ui.report.compare import compare_runs
from deskact.runtime.ui.report.data import load_run
from typer.testing import CliRunner

ENV = {"DESKACT_TOOLKITS_ENABLED": "[]", "DESKACT_DISPLAY_MODE": "none", "DESKACT_CONFIG": "",
       "COLUMNS": "250", "NO_COLOR": "1"}

SUITE = """
tasks:
  - id: ep-alpha
    instruction: Say alpha.
    judge: [{answer.contains: {text: alpha}}]
  - id: ep-beta
    instruction: Say beta.
    judge: [{answer.contains: {text: beta}}]
  - id: ep-gamma
    instruction: Say gamma.
    judge: [{answer.contains: {text: gamma}}]
"""


def reply(text: str) -> str:
    return f"```python\nprint({text!r})\nexit()\n```\n"


# Epoch 1 says "alpha beta", epoch 2 "alpha", epoch 3 "gamma alpha":
#   ep-alpha passes 1 1 1 (c = 3), ep-beta 1 0 0 (c = 1), ep-gamma 0 0 1 (c = 1).
SCRIPT = {"epochs": [[reply("alpha beta")], [reply("alpha")], [reply("gamma alpha")]]}


def test_pass_at_k_by_hand() -> None:
    # n = 3, c = 1: pass@1 = 1/3; pass@2 = 1 - C(2,2)/C(3,2) = 2/3; pass@3 = 1 - C(2,3)/C(3,3) = 1.
    assert [pass_at_k(3, 1, k) for k in (1, 2, 3)] == pytest.approx([1 / 3, 2 / 3, 1.0])
    # n = 5, c = 2: pass@2 = 1 - C(3,2)/C(5,2) = 1 - 3/10.
    assert pass_at_k(5, 2, 2) == pytest.approx(0.7)
    assert [pass_at_k(4, 0, k) for k in (1, 4)] == [0.0, 0.0]
    assert pass_at_k(4, 4, 1) == 1.0
    with pytest.raises(ValueError, match="k=4"):
        pass_at_k(3, 1, 4)
    assert ks_for(3) == [1, 2, 3] and ks_for(10) == [1, 2, 3, 5, 10]


def test_old_results_read_as_epoch_one() -> None:
    old = '{"schema_version": 1, "task_id": "t", "suite": "s", "status": "passed", "reward": 1}'
    result = TaskResult.model_validate_json(old)
    assert (result.epoch, result.schema_version) == (1, 1)
    assert TaskResult(task_id="t", suite="s", status="failed").schema_version == 3


@pytest.fixture
def suite(tmp_path: Path) -> tuple[Path, Path]:
    folder = tmp_path / "epochs_suite"
    folder.mkdir()
    (folder / "tasks.yaml").write_text(SUITE)
    script = tmp_path / "script.yaml"
    script.write_text(json.dumps(SCRIPT))  # JSON is YAML
    return folder, script


def run(*args: str | Path) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["run", *map(str, args)], env=ENV)
    return result.exit_code, result.output


def test_epochs_3_with_a_scripted_model(suite: tuple[Path, Path], tmp_path: Path) -> None:
    folder, script = suite
    out = tmp_path / "run"
    code, output = run(folder, "--model", f"scripted/{script}", "--epochs", "3", "--out", out)
    assert code == 0, output
    results = read_results(out / "results.jsonl")
    rewards = {(r.task_id, r.epoch): r.reward for r in results}
    assert rewards == {("ep-alpha", 1): 1, ("ep-alpha", 2): 1, ("ep-alpha", 3): 1,
                       ("ep-beta", 1): 1, ("ep-beta", 2): 0, ("ep-beta", 3): 0,
                       ("ep-gamma", 1): 0, ("ep-gamma", 2): 0, ("ep-gamma", 3): 1}
    assert {r.trajectory for r in results} == {f"trajectories/{t}@{e}" for t, e in rewards}
    assert all((out / r.trajectory).is_dir() for r in results)

    rows = {t.task_id: t for t in task_epochs(results)}
    assert rows["ep-alpha"].pass_at == {1: 1.0, 2: 1.0, 3: 1.0}
    for task in ("ep-beta", "ep-gamma"):  # n = 3, c = 1
        assert rows[task].pass_at == pytest.approx({1: 1 / 3, 2: 2 / 3, 3: 1.0})
        assert rows[task].spread == pytest.approx(math.sqrt(2 / 9))  # sd of (1, 0, 0)
    (suite_row,) = suite_epochs(list(rows.values()), results)
    assert suite_row.pass_at == pytest.approx({1: 5 / 9, 2: 7 / 9, 3: 1.0})
    assert suite_row.epoch_rates == pytest.approx([2 / 3, 1 / 3, 2 / 3])
    assert suite_row.spread == pytest.approx(math.sqrt(2 / 81))  # sd of (2/3, 1/3, 2/3)

    # The terminal summary, the report and compare show them.
    assert "pass@2" in output and "55.6%" in output and "77.8%" in output
    data = load_run(out)
    assert len(data.tasks) == 9 and len({t.page for t in data.tasks}) == 9
    assert data.epoch_suites[0].pass_at == pytest.approx(suite_row.pass_at)
    index = (out / "report" / "index.html").read_text()
    assert 'id="epochs-by-suite"' in index and "55.6%" in index and "pass@2&nbsp;0.667" in index
    compared = compare_runs(out, out)
    assert compared.epochs_a[0].pass_at == pytest.approx(suite_row.pass_at)
    shown = CliRunner().invoke(app, ["compare", str(out), str(out)], env=ENV).output
    assert re.search(r"epochs_suite\s+│\s+55\.6%/55\.6%\s+│\s+@3 100\.0%/@3 100\.0%\s+│\s+0\.157/0\.157", shown), shown

    # --resume keys on (task, epoch): nothing is left at 3 epochs; a 4th epoch runs only epoch 4.
    code, output = run(folder, "--model", f"scripted/{script}", "--epochs", "3", "--out", out, "--resume")
    assert code == 0, output
    assert len(read_results(out / "results.jsonl")) == 9
    code, output = run(folder, "--model", f"scripted/{script}", "--epochs", "4", "--out", out, "--resume")
    assert code == 0, output
    new = read_results(out / "results.jsonl")[9:]
    assert sorted((r.task_id, r.epoch, r.reward) for r in new) == [  # epoch 4 replays script 1
        ("ep-alpha", 4, 1), ("ep-beta", 4, 1), ("ep-gamma", 4, 0)]


def test_epochs_below_one_refused(suite: tuple[Path, Path], tmp_path: Path) -> None:
    code, output = run(suite[0], "--model", "noop", "--epochs", "0", "--out", tmp_path / "x")
    assert code == 2
    assert [ln for ln in output.splitlines() if ln.strip()] == [
        "error: --epochs 0: must be at least 1 (how many times each task runs)"]


def test_the_epoch_reaches_a_wrapped_model_without_ambient_state() -> None:
    """The epoch is the model's attribute, set per episode: threads and Ray actors need no shared context."""
    from deskact.runtime.agent.models.offline import Scripted
    from deskact.runtime.run.model_limit import LimitedModel

    inner = Scripted([], scripts=[[reply("one")], [reply("two")]])
    model = LimitedModel(inner, threading.BoundedSemaphore(1))
    for epoch, said in ((1, "one"), (2, "two"), (3, "one")):
        model.epoch = epoch
        model.start_episode(None)  # type: ignore[arg-type]  # Scripted does not read the task
        assert said in model.reply("", []).text
