"""AgentStudio tasks keep their meaning: every procedure and param is translated or reported, the
checks that were dropped or loosened before are kept (colour, reminders, cc, attachments, exact
bodies, "in", permanent deletes, app-start waits, limits), data files stay inside --files-root,
and a do-nothing agent fails every converted fixture task."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from deskact.runtime.importers import ImportOptions, ImportReport
from deskact.runtime.importers.agentstudio import Acc, convert, import_agentstudio, param_keys
from deskact.runtime.importers.agentstudio_procedures import DROPPED, PROCEDURES
from deskact.runtime.importers.common import SUITE_FILE, Untranslatable
from deskact.runtime.tasks.steps import StepContext, run_judge, run_reset

sys.path.insert(0, str(Path(__file__).parent))
from agentstudio_standins import make_standins

TASKS = Path(__file__).parent / "fixtures" / "agentstudio" / "tasks"
ON_SCREEN = {"apps.launch", "apps.gimp", "desktop.settle", "apps.kill"}
"""Reset steps that need the task's display (run by deskact validate, not here)."""


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ImportReport]:
    root = tmp_path_factory.mktemp("as-root")
    make_standins(TASKS, root)
    out = tmp_path_factory.mktemp("as-suite")
    return out, import_agentstudio(TASKS, ImportOptions(out=out, files_root=root))


def _tasks(out: Path) -> dict[str, dict[str, Any]]:
    return {t["id"]: t for t in yaml.safe_load((out / SUITE_FILE).read_text())["tasks"]}


def _source(uid: str) -> dict[str, Any]:
    (path,) = TASKS.rglob(f"{uid}*.json")
    return json.loads(path.read_text())


def test_every_procedure_and_param_is_translated_or_reported() -> None:
    walked = 0
    for path in TASKS.rglob("*.json"):
        raw = json.loads(path.read_text())
        for where in ("reset_procedure", "eval_procedure", "cleanup_procedure"):
            for item in raw.get(where) or []:
                key = (item["evaluator"], item["function"])
                assert key in PROCEDURES or key in DROPPED, f"{path.name}: {key} is in no table"
                known = DROPPED[key] if key in DROPPED else PROCEDURES[key].params
                proc = PROCEDURES.get(key)
                assert key in DROPPED or proc.translate is not None or proc.reason, key
                assert param_keys(item.get("params") or {}) <= known, (path.name, key)
                walked += 1
    assert walked > 100


def test_an_unknown_param_is_a_reason_not_dropped(tmp_path: Path) -> None:
    raw = _source("ab0b454a")
    raw["eval_procedure"][0]["params"]["event_info"]["transparency"] = "transparent"
    with pytest.raises(Untranslatable) as exc:
        convert(raw, "single_api/google_calendar/x.json", ImportOptions(out=tmp_path))
    assert exc.value.args[0] == ["google_calendar.check_event_exists: params ['event_info.transparency'] not translated"]
    raw = _source("1485713f")
    raw["surprise"] = 1
    with pytest.raises(Untranslatable, match="surprise"):
        convert(raw, "os/x.json", ImportOptions(out=tmp_path))


def test_calendar_colour_and_reminders_are_judged(suite: tuple[Path, ImportReport]) -> None:
    tasks = _tasks(suite[0])
    assert tasks["agentstudio-google-calendar-ab0b454a"]["judge"] == [{"google.event_match": {
        "summary": "End of Year Party", "start": "2024-12-20T18:00:00Z", "end": "2024-12-20T23:00:00Z",
        "color_id": "11", "exists": True}}]
    [reminded] = tasks["agentstudio-google-calendar-faa27d68"]["judge"]
    assert reminded["google.event_match"] | {} == {
        "summary": "Annual Strategy Meeting", "start": "2024-06-15T14:00:00Z", "end": "2024-06-15T16:00:00Z",
        "attendees": ["ceo@example.com"], "reminders": ["popup:30"], "reminders_use_default": False, "exists": True}


def test_gmail_fields_are_exact_and_in_is_kept(suite: tuple[Path, ImportReport]) -> None:
    tasks = _tasks(suite[0])
    assert tasks["agentstudio-gmail-76406d27"]["judge"] == [{"google.message_match": {
        "subject": "Automated draft", "recipient": "gduser@workspacesamples.dev", "body": "This is automated draft mail",
        "cc": "gduser1@workspacesamples.dev", "attachment": "attachment.txt", "source": "drafts", "exists": True}}]
    sent = {"subject": "Automated draft", "recipient": "recipient@example.com", "body": "This is automated draft mail"}
    assert tasks["agentstudio-gmail-729b3221"]["judge"] == [
        {"google.message_match": {**sent, "folder": "sent", "exists": True}},
        {"google.message_match": {**sent, "folder": "draft", "exists": False}}]
    assert tasks["agentstudio-gmail-64fc9208"]["judge"] == [{"google.message_match": {
        "subject": "Automated Email", "body": "This is automatically sent email", "exists": True}}]


def test_permanent_delete_is_not_satisfied_by_the_trash(suite: tuple[Path, ImportReport], g: StepContext) -> None:
    task = _tasks(suite[0])["agentstudio-google-docs-acf13dbb"]
    for item in task["reset"]:
        run_reset(*next(iter(item.items())), g)

    def passes() -> bool:
        return all(run_judge(*next(iter(j.items())), g).passed for j in task["judge"])

    drive = g.services["google"]["clients"].drive
    [doc] = drive.files().list(q="name = 'Sample Document'").execute()["files"]
    assert not passes()
    drive.files().update(fileId=doc["id"], body={"trashed": True}).execute()
    assert not passes()
    drive.files().delete(fileId=doc["id"]).execute()
    assert passes()


def test_app_start_waits_and_limits_are_kept(suite: tuple[Path, ImportReport]) -> None:
    task = _tasks(suite[0])["agentstudio-slides-08aced46"]
    launch, settle = task["reset"][-2:]
    # the launch waits for the app's window: a missing app fails the reset (an error), not the task
    assert launch["apps.launch"]["window"] == "LibreOffice" and settle == {"desktop.settle": {"quiet": 5.0, "timeout": 15.0}}
    assert (task["max_steps"], task["max_time"]) == (30, 60.0)
    assert task["judge"][0]["pptx.compare"]["tolerance"] == 0  # AgentStudio compares positions exactly
    notes = {c.task_id: c.notes for c in suite[1].converted}["agentstudio-slides-08aced46"]
    assert any("stricter than AgentStudio's copy" in n for n in notes)  # the deviation is on record


def test_missing_app_is_an_error(ctx: StepContext, xdisplay: Any) -> None:
    from dataclasses import replace

    from deskact.runtime.tasks.steps import StepFailed

    with pytest.raises(StepFailed, match="no-such-office"):
        run_reset("apps.launch", {"cmd": "no-such-office --calc", "window": "LibreOffice", "timeout": 20},
                  replace(ctx, display=xdisplay.name))


def test_data_files_never_come_from_outside_files_root(tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text("x")
    root = tmp_path / "root"
    (root / "data").mkdir(parents=True)
    acc = Acc(ImportOptions(out=tmp_path / "out", files_root=root))
    with pytest.raises(Untranslatable, match="leads out of"):
        acc.data_file("${AS_ROOT}/data/../../secret.txt", "files")
    with pytest.raises(Untranslatable, match="leads out of"):
        acc.data_file("data/../../../x", "gold")
    (root / "data" / "link").symlink_to(tmp_path / "secret.txt")
    with pytest.raises(Untranslatable, match="leads out of"):
        acc.data_file("data/link", "files")
    assert not (tmp_path / "out").exists()


def test_noop_scores_zero_on_every_converted_task(suite: tuple[Path, ImportReport], g: StepContext) -> None:
    out, report = suite
    assert len(report.converted) >= 20
    checked = 0
    for task_id, task in _tasks(out).items():
        g.workspace.mkdir(exist_ok=True)
        for kind in ("files", "gold"):
            if (out / kind).is_dir():
                shutil.copytree(out / kind, getattr(g, kind), dirs_exist_ok=True)
        if "google.reset" in str(task["reset"]):
            run_reset("google.reset", {}, g)
        for item in task["reset"]:
            name, params = next(iter(item.items()))
            if name not in ON_SCREEN and name != "google.reset":
                run_reset(name, params, g)
        verdicts = [run_judge(*next(iter(j.items())), g) for j in task["judge"]]
        assert not all(v.passed for v in verdicts), f"{task_id} passes with nothing done"
        assert not any(v.error for v in verdicts), [v.feedback for v in verdicts if v.error]
        shutil.rmtree(g.workspace)
        checked += 1
    assert checked == len(report.converted)
