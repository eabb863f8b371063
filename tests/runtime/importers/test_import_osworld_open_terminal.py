"""deskact import osworld over the official tasks of fixtures/osworld_open_terminal: check_moved_jpgs,
run_sqlite3, the GNOME terminal killed before judging, a PDF opened, Liked Authors bookmarks, a check
script downloaded after the episode. Each converts but the one that installs from PyPI, with the steps
that keep OSWorld's verdict."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from deskact.runtime.importers import ImportOptions, ImportReport
from deskact.runtime.importers.common import SUITE_FILE
from deskact.runtime.importers.osworld import import_osworld
from deskact.runtime.tasks.task import load_tasks

EXAMPLES = Path(__file__).parent / "fixtures" / "osworld_open_terminal" / "examples"


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory, file_host: Any) -> tuple[dict[str, dict[str, Any]], ImportReport]:
    out = tmp_path_factory.mktemp("suite")
    mirror = file_host.mirror(EXAMPLES, tmp_path_factory.mktemp("mirror") / "mirror.json")
    report = import_osworld(EXAMPLES, ImportOptions(out=out, mirror=mirror))
    load_tasks([out / SUITE_FILE])  # every step and param is one this deskact has
    return {t["id"]: t for t in yaml.safe_load((out / SUITE_FILE).read_text())["tasks"]}, report


def test_every_task_converts_but_the_one_that_installs_from_pypi(
        imported: tuple[dict[str, dict[str, Any]], ImportReport]) -> None:
    """multi_apps-9f3bb592's check script needs pysrt, which its postconfig installs with pip: offline,
    never (and Debian's python3-pysrt 1.0.1 fails on Python 3.11), so every agent would fail."""
    tasks, report = imported
    assert len(tasks) == 7
    (skipped,) = report.skipped
    assert skipped.file.endswith("9f3bb592-209d-43bc-bb47-d77d9df56504.json")
    assert skipped.reasons == [("postconfig command runs pip install pysrt: worlds have no network, so the package is"
                               " never installed")]


def test_check_moved_jpgs_becomes_files_names(imported: tuple[dict[str, dict[str, Any]], ImportReport]) -> None:
    (judge,) = imported[0]["osworld-os-23393935"]["judge"]
    assert judge == {"files.names": {"dir": "${HOME}/Desktop/cpjpg", "names": [
        "emnlp2023.jpg", "hk_group_photo.jpg", "hong-kong-china.jpg",
        "monk252520thailand252520wat252520arun252520scaled25255B225255D.jpg"]}}


def test_run_sqlite3_becomes_sqlite_value(imported: tuple[dict[str, dict[str, Any]], ImportReport]) -> None:
    (judge,) = imported[0]["osworld-thunderbird-3d1682a7"]["judge"]
    assert judge["sqlite.value"]["path"] == "${HOME}/.thunderbird/t5q2a5hp.default-release/global-messages-db.sqlite"
    assert judge["sqlite.value"]["sql"].startswith("select sum(1) > 0 from messageAttributes where attributeID = 58")


def test_liked_authors_becomes_browser_bookmark_folder(imported: tuple[dict[str, dict[str, Any]], ImportReport]) -> None:
    task = imported[0]["osworld-multi-apps-a82b78bb"]
    (judge,) = task["judge"]
    assert judge["browser.bookmark_folder"]["folder"] == "Liked Authors"
    assert [len(u) for u in judge["browser.bookmark_folder"]["urls"]] == [2, 2, 4, 2]
    steps = [next(iter(s)) for s in task["reset"]]
    assert steps.index("browser.open") < steps.index("apps.open")  # the paper opens over the browser


def test_compare_pdfs_over_lists_pairs_each_form_with_its_gold(
        imported: tuple[dict[str, dict[str, Any]], ImportReport]) -> None:
    judges = imported[0]["osworld-multi-apps-185f29bd"]["judge"]
    assert [j["pdf.same_text"]["path"] for j in judges][:2] == ["${HOME}/Desktop/Alex Lee.pdf",
                                                                "${HOME}/Desktop/David Wilson.pdf"]
    assert len(judges) == 7 and all("Gold" in j["pdf.same_text"]["reference"] for j in judges)


def test_a_pdf_opens_with_apps_open(imported: tuple[dict[str, dict[str, Any]], ImportReport]) -> None:
    task = imported[0]["osworld-multi-apps-5df7b33a"]
    assert {"apps.open": {"path": "${HOME}/Desktop/book/Spectral Graph Theory.pdf"}} in task["reset"]
    assert task["visual"] is True


def test_a_downloaded_check_script_gets_the_task_home(tmp_path: Path) -> None:
    """A script downloaded before judging names /home/user; after its copy, sed makes that the task's
    home (the word only: /home/username stays)."""
    task = {"id": "0000beef-2", "snapshot": "os", "instruction": "Do it.", "config": [],
            "evaluator": {"postconfig": [{"type": "download", "parameters": {"files": [
                {"url": "https://example.org/check.py", "path": "/home/user/Desktop/check.py"}]}}],
                "func": "exact_match", "expected": {"type": "rule", "rules": {"expected": "true\n"}},
                "result": {"type": "vm_command_line", "command": "python /home/user/Desktop/check.py", "shell": True}}}
    (tmp_path / "src" / "os").mkdir(parents=True)
    (tmp_path / "src" / "os" / "t.json").write_text(json.dumps(task))
    import_osworld(tmp_path / "src", ImportOptions(out=tmp_path / "out"))
    (converted,) = yaml.safe_load((tmp_path / "out" / SUITE_FILE).read_text())["tasks"]
    before = converted["before_judge"]
    assert "files.download" in before[0]
    sed = before[1]["shell.run"]["cmd"]
    script = tmp_path / "check.py"
    script.write_text("open('/home/user/subtitles.srt'); open('/home/user'); open('/home/username/x')\n")
    home = tmp_path / "home dir"
    cmd = sed.replace("${HOME}/Desktop/check.py", str(script)).replace("${HOME}", str(home))
    subprocess.run(["/bin/sh", "-c", cmd], check=True)
    assert script.read_text() == f"open('{home}/subtitles.srt'); open('{home}'); open('/home/username/x')\n"


def test_the_gnome_terminal_keeps_ubuntu_history_and_is_closed_before_judging(
        imported: tuple[dict[str, dict[str, Any]], ImportReport]) -> None:
    task = imported[0]["osworld-multi-apps-2b9493d7"]
    steps = [next(iter(s)) for s in task["reset"]]
    # OSWorld's order: the document opened, the history emptied, then the terminal opened in the home.
    assert steps.index("apps.open") < steps.index("apps.terminal")
    assert {"apps.terminal": {"ubuntu_history": True}} in task["reset"]
    (close,) = task["before_judge"]
    assert close["shell.run"]["cmd"].startswith("shells=''; for x in $$(pgrep -x xterm)")


@pytest.mark.parametrize(("package", "converts"), [("cssselect", True), ("pygame", False)])
def test_pip_install_converts_only_for_what_the_world_python_has(tmp_path: Path, package: str, converts: bool) -> None:
    task = {"id": "0000beef-3", "snapshot": "os", "instruction": "Do it.", "config": [],
            "evaluator": {"postconfig": [{"type": "execute", "parameters": {"command": ["pip", "install", package]}}],
                          "func": "exact_match", "expected": {"type": "rule", "rules": {"expected": "ok\n"}},
                          "result": {"type": "vm_command_line", "command": "echo ok", "shell": True}}}
    (tmp_path / "src" / "os").mkdir(parents=True)
    (tmp_path / "src" / "os" / "t.json").write_text(json.dumps(task))
    report = import_osworld(tmp_path / "src", ImportOptions(out=tmp_path / "out"))
    if converts:
        assert not report.skipped
        (converted,) = yaml.safe_load((tmp_path / "out" / SUITE_FILE).read_text())["tasks"]
        assert "before_judge" not in converted  # the install is dropped: python3-cssselect is in the world
    else:
        assert report.skipped[0].reasons == [(f"postconfig command runs pip install {package}: worlds have no network,"
                                             " so the package is never installed")]
