"""Built-in suites by name from any directory: ``deskact run os``, ``deskact validate os``, ``deskact suites``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from deskact.runtime.errors import TaskError
from deskact.runtime.tasks.suites import builtin_suites, resolve_suite_path, suite_infos
from deskact.runtime.tasks.task import SUITES_DIR, load_tasks
from deskact.runtime.ui.cli import app
from typer.testing import CliRunner

DESKACT = Path(sys.executable).parent / "deskact"


def test_builtin_suites_are_the_task_suite_folders() -> None:
    suites = builtin_suites()
    assert {"os", "office", "os_gui", "gmail"} <= set(suites)
    assert suites["os"] == SUITES_DIR / "os"
    assert "__pycache__" not in suites


def test_a_bare_name_loads_the_builtin_suite_from_any_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    loaded = load_tasks(["os", "office"])
    assert not loaded.invalid
    assert {t.suite for t in loaded.tasks} == {"os", "office"}
    assert all(Path(t.suite_dir).is_relative_to(SUITES_DIR) for t in loaded.tasks)


def test_an_existing_path_wins_over_the_builtin_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "os").mkdir()
    (tmp_path / "os" / "mine.yaml").write_text(
        "id: local-task\ninstruction: do it\njudge:\n  - files.exists: {path: out.txt}\n")
    monkeypatch.chdir(tmp_path)
    assert resolve_suite_path("os") == Path("os")
    assert [t.id for t in load_tasks(["os"]).tasks] == ["local-task"]


def test_an_unknown_name_lists_the_builtin_suites_with_a_did_you_mean(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(TaskError) as err:
        load_tasks(["ofice"])
    msg = str(err.value)
    assert "did you mean `office`?" in msg
    assert "os_admin" in msg and "gmail" in msg
    with pytest.raises(TaskError, match="did you mean `os`"):
        load_tasks(["some/dir/oss"])


def test_validate_with_an_unknown_name_exits_2_naming_the_suites(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["validate", "oss", "--no-explore"])
    assert result.exit_code == 2
    out = " ".join(result.output.split())
    assert "did you mean `os`?" in out and "built-in suites:" in out


def test_suites_command_lists_every_suite_with_counts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    infos = {s.name: s for s in suite_infos()}
    assert infos["os_gui"].visual == infos["os_gui"].tasks > 0
    assert infos["gmail"].toolkits == {"google": infos["gmail"].tasks}
    assert infos["os"].tags["os"] == infos["os"].tasks
    result = CliRunner().invoke(app, ["suites"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    for name, info in infos.items():
        assert any(line.split("│")[1].strip() == name and line.split("│")[2].strip() == str(info.tasks)
                   for line in result.output.splitlines() if line.count("│") > 3), name
    assert f"{sum(i.tasks for i in infos.values())} tasks in {len(infos)} suites" in result.output


@pytest.mark.slow
def test_run_by_name_from_a_temp_cwd(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = subprocess.run(
        [str(DESKACT), "run", "os", "--model", "noop", "--tasks", "os-count-error-lines", "--workers", "1",
         "--out", str(out)],
        check=False, cwd=tmp_path, capture_output=True, text=True, timeout=240,
    )
    assert proc.returncode == 0, proc.stderr
    (line,) = (out / "results.jsonl").read_text().splitlines()
    result = json.loads(line)
    assert (result["task_id"], result["suite"], result["reward"]) == ("os-count-error-lines", "os", 0)
