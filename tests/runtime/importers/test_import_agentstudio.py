"""deskact import agentstudio over real AgentStudio task files (tests/runtime/importers/fixtures/agentstudio)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from deskact.runtime.importers import ImportOptions, ImportReport
from deskact.runtime.importers.agentstudio import RECIPIENT, import_agentstudio, text
from deskact.runtime.importers.common import SUITE_FILE, ImportError_, Untranslatable
from deskact.runtime.tasks.task import load_tasks

TASKS = Path(__file__).parent / "fixtures" / "agentstudio" / "tasks"


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ImportReport]:
    out = tmp_path_factory.mktemp("agentstudio-suite")
    return out, import_agentstudio(TASKS, ImportOptions(out=out))


def _tasks(out: Path) -> dict[str, dict]:
    return {t["id"]: t for t in yaml.safe_load((out / SUITE_FILE).read_text())["tasks"]}


def test_fixture_set_has_ten_or_more_tasks() -> None:
    assert len(list(TASKS.rglob("*.json"))) >= 10


def test_every_task_converted_or_reported(imported: tuple[Path, ImportReport]) -> None:
    out, report = imported
    assert len(report.converted) + len(report.skipped) == len(list(TASKS.rglob("*.json")))
    assert len(report.converted) >= 8 and all(s.reasons for s in report.skipped)
    loaded = load_tasks([out])
    assert not loaded.invalid, [str(i) for i in loaded.invalid]
    assert all(t.imported_from and t.imported_from.startswith("agentstudio:") and not t.reference
               for t in loaded.tasks)


def test_filesystem_task_translation(imported: tuple[Path, ImportReport]) -> None:
    task = _tasks(imported[0])["agentstudio-os-1485713f"]
    assert task["instruction"] == "Increment the number in 'count.txt' in '${WORKSPACE}/tmp/data/' by 1."
    assert task["reset"][-1] == {"files.write": {"path": "${WORKSPACE}/tmp/data/count.txt", "content": "1"}}
    # exact, as AgentStudio's content_check (files.content equals would ignore trailing whitespace)
    assert task["judge"] == [{"files.content": {"path": "${WORKSPACE}/tmp/data/count.txt", "regex": r"\A2\Z"}}]
    assert task["cleanup"] == [{"files.remove": {"path": "${WORKSPACE}/tmp"}}]
    size = _tasks(imported[0])["agentstudio-os-0d5f7fef"]["judge"]
    assert size == [{"files.stat": {"path": "${WORKSPACE}/tmp/reports/summary.txt", "size": 1024}}]


def test_calendar_task_starts_from_an_empty_account(imported: tuple[Path, ImportReport]) -> None:
    out, report = imported
    task = _tasks(out)["agentstudio-google-calendar-2dc4cf42"]
    assert task["toolkits"] == ["google"] and task["reset"][0] == {"google.reset": {}}
    assert task["reset"][1]["google.calendar_events"]["events"][0]["start"] == "2024-02-15T15:00:00Z"
    assert task["judge"][0]["google.event_match"]["description"] == "Please prepare the Q1 reports"
    notes = {c.task_id: c.notes for c in report.converted}[task["id"]]
    assert any("clear_calendar dropped" in n for n in notes)


def test_reasons(imported: tuple[Path, ImportReport]) -> None:
    reasons = {s.source_id[:8]: s.reasons for s in imported[1].skipped}
    assert reasons["2edfcc5d"] == [
        "google_docs.create_document with a hyperlink: google.document writes plain paragraphs",
        ("google_docs.hyperlink_match: exists false passes when the document or the text is gone too;"
        " google.doc_link needs both")]
    link = _tasks(imported[0])["agentstudio-google-docs-3ca6dd01"]["judge"]
    assert link == [{"google.doc_link": {"title": "Hyperlink Guide", "text": "Click Here", "url": "https://www.example.com"}}]
    assert "2af3ec73" not in reasons  # a sent mail matched without a recipient, as AgentStudio does
    vscode = reasons["083bee5b"]
    assert "vscode.install_extension: VS Code is not installed here (no deskact step drives its extensions)" in vscode
    assert any(r.startswith("process.create_process of VS Code: ") for r in vscode)


def test_placeholders() -> None:
    assert text("${AS_ROOT}/a $x") == "${WORKSPACE}/a $$x"
    assert text("${AS_HOME}/.config") == "${HOME}/.config"
    assert text("to ${AS_GMAIL_RECIPIENT}") == f"to {RECIPIENT}"
    with pytest.raises(Untranslatable, match="AS_UNKNOWN"):
        text("${AS_UNKNOWN}")


def test_jsonl_input(tmp_path: Path) -> None:
    rows = [json.loads(p.read_text()) for p in sorted((TASKS / "single_api" / "os").glob("*.json"))[:3]]
    src = tmp_path / "tasks.jsonl"
    src.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    report = import_agentstudio(src, ImportOptions(out=tmp_path / "out"))
    assert len(report.converted) + len(report.skipped) == 3
    assert report.converted[0].file == "tasks.jsonl:1"
    src.write_text("{broken\n")
    with pytest.raises(ImportError_, match=r"tasks.jsonl:1: not a JSON line"):
        import_agentstudio(src, ImportOptions(out=tmp_path / "out2"))


def test_data_files_come_from_files_root(tmp_path: Path) -> None:
    uid = "01b269ae-2111-4a07-81fd-3fcd711993b0"
    src = TASKS / "single_gui" / "sheets"
    report = import_agentstudio(src, ImportOptions(out=tmp_path / "without"))
    assert any(r.startswith(f"data file: data/{uid}/") and "--files-root" in r for r in report.skipped[0].reasons)
    root = tmp_path / "as_root"
    (root / "data" / uid).mkdir(parents=True)
    for name in ("Student_Level_Fill_Blank.xlsx", "Student_Level_Fill_Blank_gold.xlsx"):
        (root / "data" / uid / name).write_bytes(name.encode())
    out = tmp_path / "with"
    report = import_agentstudio(src, ImportOptions(out=out, files_root=root))
    assert not report.skipped, report.skipped
    task = _tasks(out)[f"agentstudio-tasks-{uid[:8]}"]  # a bare folder: no group in the path
    assert task["visual"] is True and task["toolkits"] == ["gui"]
    assert {"files.copy": {"src": f"data/{uid}/Student_Level_Fill_Blank.xlsx",
                           "dst": "${WORKSPACE}/sheets/Student_Level_Fill_Blank.xlsx"}} in task["reset"]
    # quoted whole: deskact expands ${WORKSPACE} before the shell sees it; the launch waits for the
    # window (AgentStudio waits for the process), then the screen settles for the source's 5 s
    assert task["reset"][-2:] == [
        {"apps.launch": {"cmd": "libreoffice '${WORKSPACE}/sheets/Student_Level_Fill_Blank.xlsx'",
                         "window": "LibreOffice", "timeout": 120}},
        {"desktop.settle": {"quiet": 5.0, "timeout": 15.0}}]
    [compare] = task["judge"]
    assert compare["xlsx.compare"]["path"] == "${WORKSPACE}/sheets/Student_Level_Fill_Blank.xlsx"
    assert compare["xlsx.compare"]["gold"] == f"data/{uid}/Student_Level_Fill_Blank_gold.xlsx"
    assert (task["max_steps"], task["max_time"]) == (30, 60.0)
    assert {"apps.kill": {"name": "soffice"}} in task["cleanup"]
    assert (out / "files" / "data" / uid / "Student_Level_Fill_Blank.xlsx").is_file()
    assert (out / "gold" / "data" / uid / "Student_Level_Fill_Blank_gold.xlsx").is_file()
    assert not load_tasks([out]).invalid
