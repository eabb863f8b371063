"""The critic set from small run folders laid out as run and validate --out write them."""

from __future__ import annotations

import json
from pathlib import Path

from deskact.runtime.evaluation.datasets.critic import make_critic, source_label
from deskact.runtime.evaluation.datasets.truncate import truncate
from deskact.runtime.evaluation.samples import CriticSample, load_dataset


def _run(folder: Path, model: str, outcomes: dict[str, str]) -> None:
    """A run folder: results.jsonl and a two-step trajectory per task (error rows have none)."""
    folder.mkdir(parents=True)
    (folder / "run.json").write_text(json.dumps({"model": model}))
    rows = []
    for task, status in outcomes.items():
        traj = folder / "trajectories" / task
        traj.mkdir(parents=True)
        (traj / "first_observation.jpg").write_bytes(b"first " + task.encode())
        for i in range(2):
            (traj / f"step_{i:03d}.jpg").write_bytes(f"step {i} {task}".encode())
        steps = [{"index": i, "code": f"print({i})", "screenshot_file": f"step_{i:03d}.jpg",
                  "result": {"stdout": f"{i}\n", "stderr": "", "error": None}} for i in range(2)]
        (traj / "episode.json").write_text(json.dumps({
            "instruction": f"Do {task}.", "steps": steps, "first_screenshot_file": "first_observation.jpg"}))
        rows.append({"task_id": task, "suite": "os", "status": status, "reward": int(status == "passed"),
                     "model": model, "feedback": "" if status == "passed" else "the file is missing",
                     "trajectory": f"trajectories/{task}"})
    (folder / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def _runs(root: Path) -> None:
    validate = root / "validate-os"
    _run(validate / "reference", "reference", {"t1": "passed", "t2": "passed", "t3": "passed", "t4": "passed",
                                                "t5": "failed"})
    _run(validate / "noop", "noop", {"t1": "failed", "t2": "failed", "t3": "failed", "t4": "passed"})
    _run(validate / "explore", "explore", {"t1": "failed", "t2": "error"})
    _run(validate / "counterexample-0", "counterexample/0", {"t1": "failed"})
    _run(root / "truncated", "truncated", {"t1": "failed", "t2": "failed", "t3": "passed"})
    _run(root / "claude", "anthropic/claude-x", {"t6": "passed", "t7": "failed"})


def test_labels_are_verdicts_checked_against_their_source(tmp_path: Path) -> None:
    _runs(tmp_path / "runs")
    counts = make_critic([tmp_path / "runs"], tmp_path / "all", balance=False)
    assert counts.runs == 6 and counts.trajectories == 17 and counts.errors == 1
    # A reference that fails, a noop that passes, a cut reference that still passes: dropped.
    assert counts.disagreed == {"reference": 1, "noop": 1, "truncated": 1}
    # Successes: 4 references + the other model's pass; failures: 3 noop + 1 explore + 1
    # counterexample + 2 truncated + the other model's failure.
    assert (counts.successes, counts.failures) == (5, 8)
    data = load_dataset(tmp_path / "all")  # every file a sample names is there
    assert data.info.kind == "critic" and len(data) == 13
    sample = next(s for s in data if isinstance(s, CriticSample) and s.id == "runs-validate-os-reference-t1")
    assert sample.success and sample.instruction == "Do t1." and sample.task == "t1" and sample.model == "reference"
    # Each step shows the screen before it; the final screenshot is the one after the last step.
    assert [s.screenshot for s in sample.steps] == [f"images/{sample.id}/first_observation.jpg",
                                                   f"images/{sample.id}/step_000.jpg"]
    assert [s.code for s in sample.steps] == ["print(0)", "print(1)"] and sample.steps[1].output == "1"
    assert sample.final_screenshot == f"images/{sample.id}/step_001.jpg"
    assert data.path(sample.final_screenshot).read_bytes() == b"step 1 t1"
    failure = next(s for s in data if isinstance(s, CriticSample) and s.model == "truncated")
    assert not failure.success and failure.feedback == "the file is missing"


def test_balanced_classes_take_failures_from_each_source_in_turn(tmp_path: Path) -> None:
    _runs(tmp_path / "runs")
    counts = make_critic([tmp_path / "runs"], tmp_path / "balanced", seed=3)
    assert counts.kept_successes == counts.kept_failures == 5
    # Five failures from five sources (counterexample, explore, noop, truncated, the other model): one each.
    assert counts.kept_by_source == {"reference": 4, "anthropic/claude-x": 2, "counterexample": 1, "explore": 1,
                                     "noop": 1, "truncated": 1}
    data = load_dataset(tmp_path / "balanced")
    assert len(data) == 10 and data.info.counts["success"] == data.info.counts["failure"] == 5
    # The screenshots of trajectories left out are not kept.
    assert {p.name for p in (tmp_path / "balanced" / "images").iterdir()} == {s.id for s in data}
    again = make_critic([tmp_path / "runs"], tmp_path / "again", seed=3)
    assert again == counts and load_dataset(tmp_path / "again").samples == data.samples


def test_source_labels() -> None:
    assert source_label("reference") is True
    assert source_label("noop") is source_label("explore") is source_label("truncated") is False
    assert source_label("counterexample/2") is False and source_label("openai/gpt-x") is None


def test_truncate_cuts_before_the_last_effective_statement() -> None:
    code = ('import time\nwindows.activate("letter.txt")\nkeyboard.type("Dana\\n")\n'
            '# save it\nkeyboard.hotkey("ctrl", "s")\nwindows.wait_closed("*", timeout=10)\nprint("done")\nexit()\n')
    assert truncate(code) == 'import time\nwindows.activate("letter.txt")\nkeyboard.type("Dana\\n")\n# save it\n'
    # IPython lines parse too; a loop is one statement.
    shell = '!mkdir -p "$WORKSPACE/out"\nfor name in ("a", "b"):\n    open(name, "w").write(name)\n!ls\nexit()\n'
    assert truncate(shell) == '!mkdir -p "$WORKSPACE/out"\nfor name in ("a", "b"):\n    open(name, "w").write(name)\n'
    # One effective statement: no partial success to make.
    assert truncate('!cd "$WORKSPACE" && zip -q a.zip *.log\nexit()\n') is None
    assert truncate("if x:\n  pass\n  (((\n") is None


def test_the_command_writes_the_balanced_set(tmp_path: Path) -> None:
    from deskact.runtime.ui.cli import app
    from typer.testing import CliRunner

    _runs(tmp_path / "runs")
    result = CliRunner().invoke(app, ["datasets", "critic", str(tmp_path / "runs"), "--out", str(tmp_path / "set")],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "kept 5 successes + 5 failures" in result.output
    assert len(load_dataset(tmp_path / "set")) == 10
