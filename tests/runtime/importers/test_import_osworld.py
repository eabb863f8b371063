"""deskact import osworld over real OSWorld task files (tests/runtime/importers/fixtures/osworld)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from deskact.runtime.importers import ImportOptions, ImportReport
from deskact.runtime.importers.common import REPORT_JSON, REPORT_MD, SUITE_FILE, ImportError_
from deskact.runtime.importers.osworld import import_osworld, shell_text, vm_path
from deskact.runtime.tasks.task import load_tasks

EXAMPLES = Path(__file__).parent / "fixtures" / "osworld" / "examples"
NETINCOME_GOLD = "1J94ijzCqrop6eoKAelatAEP98FvbsrTU"


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory, file_host: Any) -> tuple[Path, ImportReport]:
    file_host.served[NETINCOME_GOLD] = file_host.workbook({"Sheet1": [["Revenue"], [10]], "Sheet2": [["Revenue"], [10]]})
    out = tmp_path_factory.mktemp("osworld-suite")
    return out, import_osworld(EXAMPLES, ImportOptions(out=out, mirrors=file_host.mirrors))


def _tasks(out: Path) -> dict[str, dict]:
    return {t["id"]: t for t in yaml.safe_load((out / SUITE_FILE).read_text())["tasks"]}


def test_fixture_set_covers_the_four_domains() -> None:
    counts = {d.name: len(list(d.glob("*.json"))) for d in EXAMPLES.iterdir()}
    assert set(counts) == {"os", "libreoffice_calc", "libreoffice_writer", "libreoffice_impress"}
    assert sum(counts.values()) >= 20 and all(n >= 4 for n in counts.values())


def test_every_task_is_converted_or_reported_with_reasons(imported: tuple[Path, ImportReport]) -> None:
    out, report = imported
    assert len(report.converted) + len(report.skipped) == len(list(EXAMPLES.rglob("*.json")))
    assert len(report.converted) >= 20
    converted_domains = {c.file.split("/")[0] for c in report.converted}
    assert {"os", "libreoffice_calc"} <= converted_domains
    assert all(s.reasons for s in report.skipped)
    saved = ImportReport.model_validate_json((out / REPORT_JSON).read_text())
    assert saved == report
    md = (out / REPORT_MD).read_text()
    for s in report.skipped:
        assert s.file in md


def test_converted_suite_loads_and_is_marked_without_reference(imported: tuple[Path, ImportReport]) -> None:
    out, report = imported
    loaded = load_tasks([out])
    assert not loaded.invalid, [str(i) for i in loaded.invalid]
    assert {t.id for t in loaded.tasks} == {c.task_id for c in report.converted}
    for task in loaded.tasks:
        assert task.imported_from and task.imported_from.startswith("osworld:") and task.reference is None


def test_shell_task_sudo_dropped_home_mapped_exit_code_free(imported: tuple[Path, ImportReport]) -> None:
    task = _tasks(imported[0])["osworld-os-7688b85f"]
    assert task["reset"][0] == {"world.require": {}}
    cmds = [s["shell.run"]["cmd"] for s in task["reset"] if "shell.run" in s]
    assert cmds[0] == "touch ~/Desktop/todo.txt && mkdir ~/Desktop/done"
    assert "sudo" not in " ".join(cmds) and "pyautogui" not in json.dumps(task)
    (judge,) = task["judge"]
    assert judge["shell.output"]["equals"] == "File exists.\n" and judge["shell.output"]["exit_code"] is None
    assert "visual" not in task  # nothing is opened on screen: code can do it


def test_download_becomes_files_download_through_the_mirror(imported: tuple[Path, ImportReport],
                                                            file_host: Any) -> None:
    task = _tasks(imported[0])["osworld-os-5ea617a3"]
    (download,) = [s["files.download"] for s in task["reset"] if "files.download" in s]
    assert download["path"] == "${HOME}/Desktop/poster_party_night.webp"
    assert download["url"].startswith(file_host.mirrors["https://drive.usercontent.google.com/"])


def test_calc_compare_table_uses_xlsx_compare_with_fetched_gold(imported: tuple[Path, ImportReport],
                                                                file_host: Any) -> None:
    out, _ = imported
    task = _tasks(out)["osworld-libreoffice-calc-1273e544"]
    assert task["visual"] is True and task["toolkits"] == ["gui"]
    assert task["reset"][-1] == {"apps.open": {"path": "${HOME}/NetIncome.xlsx"}}
    assert task["before_judge"] == [{"apps.save": {}}]
    (judge,) = task["judge"]
    params = judge["xlsx.compare"]
    assert params["path"] == "${HOME}/NetIncome.xlsx" and params["sheets"] == ["Sheet2"]
    gold = out / "gold" / params["gold"]
    assert gold.is_file() and gold.read_bytes() == file_host.served[NETINCOME_GOLD]
    assert task["cleanup"] == [{"apps.kill": {"name": "soffice"}}]


def test_terminal_output_is_read_from_a_terminal_the_reset_opens(imported: tuple[Path, ImportReport]) -> None:
    task = _tasks(imported[0])["osworld-os-4127319a"]
    assert {"apps.terminal": {}} in task["reset"] and task["visual"] is True
    assert task["judge"] == [{"terminal.text": {"contains": "54\n"}}]


def test_reasons_name_the_func_or_type(imported: tuple[Path, ImportReport]) -> None:
    reasons = {s.source_id[:8]: s.reasons for s in imported[1].skipped}
    assert any("func infeasible" in r for r in reasons["4783cc41"])
    assert any("func empty" in r for r in reasons["765d2b74"])
    assert any("expected type calc_insensitive_md5" in r for r in reasons["0b35aee5"])
    assert any(r.startswith("func is_utc_0: no deskact judge") for r in reasons["b6781586"])
    assert any("rule types ['chart']" in r for r in reasons["0326d92d"])
    impress = [s for s in imported[1].skipped if s.file.startswith("libreoffice_impress/")]
    assert impress and all(s.reasons for s in impress)


def test_without_gold_fetching_calc_tasks_are_skipped(tmp_path: Path) -> None:
    report = import_osworld(EXAMPLES / "libreoffice_calc", ImportOptions(out=tmp_path, fetch_gold=False))
    assert "osworld-libreoffice-calc-1273e544" not in {c.task_id for c in report.converted}
    assert any(r.startswith("gold file:") and "--no-fetch-gold" in r for s in report.skipped for r in s.reasons)


def test_paths_and_commands() -> None:
    assert vm_path("/home/user/a b.txt") == "${HOME}/a b.txt"
    assert vm_path("~/x") == "${HOME}/x" and vm_path("setup.sh") == "${HOME}/setup.sh"
    assert vm_path("/etc/hosts") == "/etc/hosts"
    assert shell_text("echo password | sudo -S apt-get install -y x") == "apt-get install -y x"
    assert shell_text(["ls", "/home/user/$dir"]) == "ls '${HOME}/$$dir'"


def test_bad_input_names_the_path(tmp_path: Path) -> None:
    with pytest.raises(ImportError_, match="no such file or folder"):
        import_osworld(tmp_path / "nope", ImportOptions(out=tmp_path / "o"))
    (tmp_path / "broken.json").write_text("{not json")
    with pytest.raises(ImportError_, match=r"broken.json: not a JSON task file"):
        import_osworld(tmp_path, ImportOptions(out=tmp_path / "o"))


def test_cli_import_osworld(tmp_path: Path) -> None:
    from deskact.runtime.ui.cli import app
    from typer.testing import CliRunner

    res = CliRunner().invoke(app, ["import", "osworld", str(EXAMPLES / "os"), "--out", str(tmp_path / "s")])
    assert res.exit_code == 0, res.output
    assert "tasks converted" in res.output and (tmp_path / "s" / SUITE_FILE).is_file()
    res = CliRunner().invoke(app, ["import", "osworld", str(tmp_path / "missing"), "--out", str(tmp_path / "t")])
    assert res.exit_code == 2 and "missing: no such file or folder" in " ".join(res.output.split())
    res = CliRunner().invoke(app, ["import", "osworld", str(EXAMPLES), "--out", str(tmp_path / "u"), "--mirror", "x"])
    assert res.exit_code == 2 and "PREFIX=URL" in res.output


def test_only_web_urls_are_imported(tmp_path: Path) -> None:
    """A task file naming file:///etc/shadow must not become a step that copies it into the world."""
    task = {"id": "evil-0000", "instruction": "x", "config": [
        {"type": "download", "parameters": {"files": [{"url": "file:///etc/shadow", "path": "/home/user/s"}]}}],
        "evaluator": {"func": "exact_match", "result": {"type": "vm_command_line", "command": "true"},
                      "expected": {"type": "rule", "rules": {"expected": ""}}}}
    (tmp_path / "os").mkdir()
    (tmp_path / "os" / "evil.json").write_text(json.dumps(task))
    report = import_osworld(tmp_path, ImportOptions(out=tmp_path / "out", mirrors={"file:///": "http://x/"}))
    assert not report.converted
    assert report.skipped[0].reasons == ["download url: 'file:///etc/shadow' is not http(s); only web URLs are imported"]
