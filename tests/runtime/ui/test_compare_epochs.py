"""``deskact compare`` over runs with several epochs: every epoch counts, per task and per suite,
checked against pass@k computed by hand (issue 26: it compared the last epoch only)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from deskact.runtime.run.results import TaskResult
from deskact.runtime.ui.cli import app
from deskact.runtime.ui.report.compare import compare_runs
from typer.testing import CliRunner

# Run A: t-flaky passes 1 of 3, t-solid 3 of 3, t-once passes (one epoch). Run B: t-flaky 2 of 3
# (its last epoch fails in both runs, so the last epoch alone shows no change), t-solid 0 of 3.
REWARDS_A = {"t-flaky": [1, 0, 0], "t-solid": [1, 1, 1]}
REWARDS_B = {"t-flaky": [1, 1, 0], "t-solid": [0, 0, 0]}


def write_run(folder: Path, rewards: dict[str, list[int]]) -> Path:
    folder.mkdir()
    lines = [TaskResult(task_id=task, epoch=epoch, suite="s", status="passed" if reward else "failed", reward=reward,
                        feedback="" if reward else f"{task} epoch {epoch} wrong", model="m").model_dump_json()
             for task, rs in rewards.items() for epoch, reward in enumerate(rs, 1)]
    (folder / "results.jsonl").write_text("\n".join(lines) + "\n")
    return folder


def test_compare_counts_every_epoch(tmp_path: Path) -> None:
    a, b = write_run(tmp_path / "run_a", REWARDS_A), write_run(tmp_path / "run_b", REWARDS_B)
    result = compare_runs(a, b)
    changed = {c.task_id: c for c in result.changed}
    assert set(changed) == {"t-flaky", "t-solid"}
    flaky, solid = changed["t-flaky"], changed["t-solid"]
    assert (flaky.status_a, flaky.status_b) == ("1/3 passed", "2/3 passed")
    assert (flaky.reward_a, flaky.reward_b) == pytest.approx((1 / 3, 2 / 3))
    # pass@2 of 1 pass in 3: 1 - C(2,2)/C(3,2) = 2/3; of 2 passes in 3: 1 - C(1,2)/C(3,2) = 1
    assert flaky.pass_at_a == pytest.approx({1: 1 / 3, 2: 2 / 3, 3: 1.0})
    assert flaky.pass_at_b == pytest.approx({1: 2 / 3, 2: 1.0, 3: 1.0})
    assert solid.pass_at_b == pytest.approx({1: 0.0, 2: 0.0, 3: 0.0}) and solid.detail_b == "t-solid epoch 3 wrong"
    assert [c.task_id for c in result.fixed] == ["t-flaky"] and [c.task_id for c in result.broken] == ["t-solid"]
    # The summaries count attempts, so their success rate is pass@1 and agrees with the epochs table.
    (suite_a,) = [p.a for p in result.by_suite]
    (suite_b,) = [p.b for p in result.by_suite]
    assert suite_a is not None and (suite_a.passed, suite_a.tasks) == (4, 6)
    assert suite_b is not None and (suite_b.passed, suite_b.tasks) == (2, 6)
    (ea,), (eb,) = result.epochs_a, result.epochs_b
    assert ea.pass_at == pytest.approx({1: 2 / 3, 2: 5 / 6, 3: 1.0})  # mean of t-flaky's and t-solid's
    assert eb.pass_at == pytest.approx({1: 1 / 3, 2: 1 / 2, 3: 1 / 2})
    assert suite_a.success_rate == pytest.approx(ea.pass_at[1]) and suite_b.success_rate == pytest.approx(eb.pass_at[1])


def test_single_epoch_runs_compare_statuses_as_before(tmp_path: Path) -> None:
    a = write_run(tmp_path / "one_a", {"t1": [1], "t2": [0]})
    b = write_run(tmp_path / "one_b", {"t1": [0], "t2": [0]})
    result = compare_runs(a, b)
    assert [(c.task_id, c.status_a, c.status_b, c.reward_a, c.reward_b) for c in result.changed] == [
        ("t1", "passed", "failed", 1.0, 0.0)]
    assert not result.epochs_a and not result.epochs_b


def test_the_cli_shows_the_epochs(tmp_path: Path) -> None:
    a, b = write_run(tmp_path / "run_a", REWARDS_A), write_run(tmp_path / "run_b", REWARDS_B)
    env = {"COLUMNS": "200", "NO_COLOR": "1"}
    out = CliRunner().invoke(app, ["compare", str(a), str(b)], env=env).output
    assert re.search(r"t-flaky\s+│\s+s\s+│\s+1/3 passed \(pass@3 100%\)\s+│\s+2/3 passed \(pass@3 100%\)", out), out
    assert re.search(r"│\s+s\s+│\s+66\.7%/33\.3%\s+│\s+@3 100\.0%/@3 50\.0%", out), out
    assert "4/6 (67%)" in out and "2/6 (33%)" in out and "A: run_a (m)" in out and "B: run_b (m)" in out
    data = json.loads(CliRunner().invoke(app, ["compare", str(a), str(b), "--json"], env=env).output)
    assert {c["task_id"]: c["pass_at_b"]["2"] for c in data["changed"]} == {"t-flaky": 1.0, "t-solid": 0.0}
