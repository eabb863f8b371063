"""deskact import osworld over real OSWorld task files (tests/runtime/importers/fixtures/osworld)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from deskact.runtime.importers import ImportOptions, ImportReport
from deskact.runtime.importers.common import REPORT_JSON, REPORT_MD, SUITE_FILE, ImportError_
from deskact.runtime.importers.osworld import command_line, import_osworld, vm_path
from deskact.runtime.importers.osworld_pyautogui import kind as pyautogui_kind
from deskact.runtime.importers.osworld_pyautogui import xdotool
from deskact.runtime.tasks.task import load_tasks

EXAMPLES = Path(__file__).parent / "fixtures" / "osworld" / "examples"
NETINCOME_GOLD = "1J94ijzCqrop6eoKAelatAEP98FvbsrTU"


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory, file_host: Any) -> tuple[Path, ImportReport]:
    file_host.served[NETINCOME_GOLD] = file_host.workbook({"Sheet1": [["Revenue"], [10]], "Sheet2": [["Revenue"], [10]]})
    out = tmp_path_factory.mktemp("osworld-suite")
    mirror = file_host.mirror(EXAMPLES, tmp_path_factory.mktemp("mirror") / "mirror.json")
    return out, import_osworld(EXAMPLES, ImportOptions(out=out, mirror=mirror))


def _tasks(out: Path) -> dict[str, dict]:
    return {t["id"]: t for t in yaml.safe_load((out / SUITE_FILE).read_text())["tasks"]}


def test_fixture_set_covers_the_domains() -> None:
    counts = {d.name: len(list(d.glob("*.json"))) for d in EXAMPLES.iterdir() if d.is_dir()}
    assert {"os", "libreoffice_calc", "libreoffice_writer", "libreoffice_impress", "multi_apps"} <= set(counts)
    assert sum(counts.values()) >= 40 and all(n >= 4 for d, n in counts.items() if d not in ("vlc", "Windows"))


def test_every_task_is_converted_or_reported_and_template_ignored(imported: tuple[Path, ImportReport]) -> None:
    out, report = imported
    assert report.ignored == ["template.json"]
    assert len(report.converted) + len(report.skipped) == len(list(EXAMPLES.rglob("*.json"))) - 1
    assert len(report.converted) >= 20
    converted_domains = {c.file.split("/")[0] for c in report.converted}
    assert {"os", "libreoffice_calc", "multi_apps"} <= converted_domains
    assert all(s.reasons for s in report.skipped)
    saved = ImportReport.model_validate_json((out / REPORT_JSON).read_text())
    assert saved == report
    md = (out / REPORT_MD).read_text()
    for s in report.skipped:
        assert s.file in md
    assert "template.json" in md


def test_windows_tasks_are_reported_and_ids_unique(imported: tuple[Path, ImportReport]) -> None:
    out, report = imported
    (win,) = [s for s in report.skipped if s.file.startswith("Windows/")]
    assert win.reasons[0].startswith("windows: a Windows task")
    ids = [c.task_id for c in report.converted]
    assert len(ids) == len(set(ids))
    assert not list((out / "gold").glob("*-550ce7e7*")) or any("550ce7e7" in i for i in ids)


def test_evaluator_that_is_not_an_object_is_reported(imported: tuple[Path, ImportReport]) -> None:
    (vlc,) = [s for s in imported[1].skipped if s.file.startswith("vlc/")]
    assert any("evaluator 'evaluation_dir': not an evaluator object" in r for r in vlc.reasons)


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
    # OSWorld runs a shell string under /bin/sh and ignores the exit code.
    assert cmds[0] == "/bin/sh -c 'touch ~/Desktop/todo.txt && mkdir ~/Desktop/done' || true"
    assert "sudo" not in " ".join(cmds) and "pyautogui" not in json.dumps(task)
    (judge,) = task["judge"]
    regex = judge["shell.output"]["regex"]
    assert re.search(regex, "File exists.\n") and not re.search(regex, "File exists.\nmore\n")
    assert judge["shell.output"]["exit_code"] is None
    assert "visual" not in task  # nothing is opened on screen: code can do it


def test_download_becomes_files_download_through_the_mirror(imported: tuple[Path, ImportReport],
                                                            file_host: Any) -> None:
    task = _tasks(imported[0])["osworld-os-5ea617a3"]
    (download,) = [s["files.download"] for s in task["reset"] if "files.download" in s]
    assert download["path"] == "${HOME}/Desktop/poster_party_night.webp"
    source = json.loads((EXAMPLES / "os" / "5ea617a3-0e86-4ba6-aab2-dac9aa2e8d57.json").read_text())
    assert download["url"] == file_host.url_for(source["config"][0]["parameters"]["files"][0]["url"])


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
    assert any("func empty" in r for r in reasons["765d2b74"])
    assert any("expected type calc_insensitive_md5" in r for r in reasons["0b35aee5"])
    assert any(r.startswith("func is_utc_0: a GNOME desktop setting") for r in reasons["b6781586"])
    assert "osworld-libreoffice-calc-0326d92d" in _tasks(imported[0])  # its chart rule translates now
    impress = [s for s in imported[1].skipped if s.file.startswith("libreoffice_impress/")]
    assert all(s.reasons for s in impress)
    # impress-550ce7e7's set-up double-clicks at (200, 650): xdotool's at the same point, with a note
    task = _tasks(imported[0])["osworld-libreoffice-impress-550ce7e7"]
    clicks = [s["shell.run"]["cmd"] for s in task["reset"] if "xdotool" in str(s)]
    assert clicks == [("sleep 4 && xdotool mousemove 200 650 click --repeat 2 --delay 80 1 && sleep 0.5"
                      " && xdotool mousedown 1 && xdotool mouseup 1 && sleep 0.5 || true")]


def test_setup_runs_under_bin_sh_as_in_osworld(imported: tuple[Path, ImportReport]) -> None:
    """os-cc9d4f34 passed for a do-nothing agent when bash ran its set-up: bash's echo -e wrote a
    #!/bin/bash script, so the process never showed as '/bin/sh ./my_process.sh'."""
    task = _tasks(imported[0])["osworld-os-cc9d4f34"]
    run, started = [s["shell.run"] for s in task["reset"] if "shell.run" in s]
    assert run["cmd"].startswith("/bin/sh -c 'echo -e") and run["cmd"].endswith(" || true")
    assert run["timeout"] == 120
    # The judge only excludes: the reset then checks the process is there to be ended, so a world
    # where the set-up did not start it errors instead of passing a do-nothing agent.
    assert started["cmd"] == ("out=$$(/bin/sh -c 'ps -ef | grep my_process.sh' 2>&1); "
                              "printf '%s' \"$$out\" | grep -qF -e '/bin/sh ./my_process.sh'")
    (judge,) = task["judge"]
    assert judge["shell.output"]["cmd"] == "/bin/sh -c 'ps -ef | grep my_process.sh'"
    assert re.escape("/bin/sh ./my_process.sh") in judge["shell.output"]["regex"]


def test_command_error_result_reads_stderr(imported: tuple[Path, ImportReport]) -> None:
    task = _tasks(imported[0])["osworld-multi-apps-69acbb55"]
    (judge,) = task["judge"]
    assert judge["shell.output"]["cmd"] == (
        "/bin/sh -c '{ python3 -c '\"'\"'from InstructorEmbedding import INSTRUCTOR;'\"'\"' ; } 2>&1 >/dev/null'")
    assert "Error" in judge["shell.output"]["regex"]


def test_gnome_settings_are_reported(imported: tuple[Path, ImportReport]) -> None:
    """os-a4d98375 asks for the screen lock; GNOME's default here already said true, so a
    do-nothing agent passed. deskact's desktop is not GNOME: such commands are reasons."""
    reasons = {s.source_id[:8]: s.reasons for s in imported[1].skipped}
    assert "GNOME: result command runs gsettings; deskact's desktop is not GNOME" in reasons["a4d98375"]
    # Its terminal is opened as apps.terminal; killing gnome-terminal-server before judging closes it.
    assert "2b9493d7" not in reasons


def test_killing_the_gnome_terminal_before_judging_closes_the_xterms(imported: tuple[Path, ImportReport]) -> None:
    """multi_apps-2b9493d7 reads ~/.bash_history after OSWorld's `killall gnome-terminal-server`: its
    terminal keeps Ubuntu's history settings, and the xterms are closed (shells waited for) first."""
    task = _tasks(imported[0])["osworld-multi-apps-2b9493d7"]
    assert {"apps.terminal": {"ubuntu_history": True}} in task["reset"]
    (close,) = task["before_judge"]
    assert "pkill -x xterm" in close["shell.run"]["cmd"] and "kill -0" in close["shell.run"]["cmd"]
    assert any("bash_history" in str(j) for j in task["judge"])


def test_a_terminal_opened_for_the_agent_becomes_apps_terminal_in_its_folder(imported: tuple[Path, ImportReport]) -> None:
    task = _tasks(imported[0])["osworld-multi-apps-2c9fc0de"]
    assert {"apps.terminal": {"ubuntu_history": True}} in task["reset"] and task["visual"] is True
    typed = [s["shell.run"]["cmd"] for s in task["reset"] if "xdotool" in str(s)]
    # A leading space: with Ubuntu's HISTCONTROL=ignoreboth the cd stays out of ~/.bash_history.
    assert typed == ["xdotool type --delay 20 ' cd ${HOME}/projects/binder && clear' && xdotool key Return || true"]


def test_pyautogui_scripts_are_translated_or_reported(imported: tuple[Path, ImportReport]) -> None:
    """A terminal typed into after the episode measured os-13584542's answer: reported, not dropped."""
    reasons = {s.source_id[:8]: s.reasons for s in imported[1].skipped}
    assert any(r.startswith("pyautogui script: postconfig drags, calls what xdotool is not given, or types") and "write('stty size')" in r
               for r in reasons["13584542"])
    script = "import pyautogui; import time; {} time.sleep(0.5);"
    assert pyautogui_kind(["python", "-c", script.format("pyautogui.click(960, 540);")]) == "focus"
    assert pyautogui_kind(["python", "-c", script.format("")]) == "focus"
    assert pyautogui_kind(["python", "-c", script.format("pyautogui.hotkey('ctrl', 's');")]) == "save"
    assert pyautogui_kind(["python", "-c", script.format('pyautogui.hotkey("ctrl", "alt", "t");')]) == "terminal"
    # Clicks at a point, button presses and wheel scrolls: xdotool's at the same points (impress-21760ecb,
    # writer-66399b0d); drags, other buttons and click counts are not read, so reported.
    clicks = script.format("pyautogui.doubleClick(x=200, y=650); pyautogui.mouseDown(); pyautogui.mouseUp();"
                           " pyautogui.click(500, 500); pyautogui.press('down', presses=8); pyautogui.scroll(-2);"
                           " pyautogui.scroll(3);")
    assert pyautogui_kind(["python", "-c", clicks]) == "keys"
    assert xdotool(["python", "-c", clicks]) == (
        "xdotool mousemove 200 650 click --repeat 2 --delay 80 1 && xdotool mousedown 1 && xdotool mouseup 1"
        " && xdotool mousemove 500 500 click 1 && xdotool key --repeat 8 --delay 10 Down"
        " && xdotool click --repeat 2 --delay 50 5 && xdotool click --repeat 3 --delay 50 4 && sleep 0.5")
    for other in ("pyautogui.dragTo(500, 500);", "pyautogui.click(500, 500, button='right');",
                  "pyautogui.click(clicks=2);", "pyautogui.mouseDown(button='right');", "pyautogui.scroll(0);"):
        assert pyautogui_kind(["python", "-c", script.format(other)]) == "other", other
    typed = script.format("pyautogui.hotkey('ctrl', 's'); pyautogui.press('enter', presses=3); pyautogui.write('a b');")
    assert pyautogui_kind(["python", "-c", typed]) == "keys"
    assert xdotool(["python", "-c", typed]) == ("xdotool key ctrl+s && xdotool key --repeat 3 --delay 10 Return"
                                                 " && xdotool type --delay 20 'a b' && sleep 0.5")
    # Text typed into the terminal ctrl+alt+t opens on Ubuntu: openbox opens none.
    assert pyautogui_kind(["python", "-c", script.format("pyautogui.hotkey('ctrl', 'alt', 't'); pyautogui.write('ls');")]) == "other"
    assert pyautogui_kind(["ls", "-l"]) is None


def test_command_output_saved_for_a_cache_file_result(imported: tuple[Path, ImportReport]) -> None:
    # The postconfig saves diff's output; check_list reads it there (no line at all: the same file).
    task = _tasks(imported[0])["osworld-multi-apps-415ef462"]
    assert any("/tmp/osworld-cache/diff.out" in s["shell.run"]["cmd"] for s in task["before_judge"] if "shell.run" in s)
    assert {"files.lines": {"path": "/tmp/osworld-cache/diff.out", "expect": [], "unexpect": [".+"]}} in task["judge"]


def test_without_gold_fetching_calc_tasks_are_skipped(tmp_path: Path) -> None:
    report = import_osworld(EXAMPLES / "libreoffice_calc", ImportOptions(out=tmp_path, fetch_gold=False))
    assert "osworld-libreoffice-calc-1273e544" not in {c.task_id for c in report.converted}
    assert any(r.startswith("gold file:") and "--no-fetch-gold" in r for s in report.skipped for r in s.reasons)


def test_paths_and_commands() -> None:
    assert vm_path("/home/user/a b.txt") == "${HOME}/a b.txt"
    assert vm_path("~/x") == "${HOME}/x" and vm_path("setup.sh") == "${HOME}/setup.sh"
    assert vm_path("/etc/hosts") == "/etc/hosts"
    assert command_line("echo password | sudo -S apt-get install -y x", shell=True) == "/bin/sh -c 'apt-get install -y x'"
    assert command_line(["ls", "/home/user/$dir"]) == "ls '${HOME}/$$dir'"
    assert command_line(["sudo", "-n", "ls", "~/x"]) == "ls ${HOME}/x"
    assert command_line("ls -l /home/user") == "ls -l ${HOME}"
    assert command_line(["echo $0 $1", "a", "b"], shell=True) == "/bin/sh -c 'echo $$0 $$1' a b"
    # OSWorld's Ubuntu has `python` (Python 3); Debian's worlds only python3.
    assert command_line(["python", "-c", "print(1)"]) == "python3 -c 'print(1)'"
    assert command_line("cd x && python run.py", shell=True) == "/bin/sh -c 'cd x && python3 run.py'"


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
    assert res.exit_code == 2 and "x: not a readable mirror file" in " ".join(res.output.split())


def test_only_web_urls_are_imported(tmp_path: Path) -> None:
    """A task file naming file:///etc/shadow must not become a step that copies it into the world."""
    task = {"id": "evil-0000", "instruction": "x", "config": [
        {"type": "download", "parameters": {"files": [{"url": "file:///etc/shadow", "path": "/home/user/s"}]}}],
        "evaluator": {"func": "exact_match", "result": {"type": "vm_command_line", "command": "true"},
                      "expected": {"type": "rule", "rules": {"expected": ""}}}}
    (tmp_path / "os").mkdir()
    (tmp_path / "os" / "evil.json").write_text(json.dumps(task))
    report = import_osworld(tmp_path, ImportOptions(out=tmp_path / "out"))
    assert not report.converted
    assert report.skipped[0].reasons == ["download url: 'file:///etc/shadow' is not http(s); only web URLs are imported"]


def test_opening_a_file_no_deskact_app_opens_is_reported(tmp_path: Path) -> None:
    """OSWorld's xdg-open picks GIMP for an image; apps.open has no app for it and would fail at reset.
    A video (VLC) and a PDF (Chromium's viewer) are opened."""
    task = {"id": "0000beef-1", "snapshot": "vlc", "instruction": "Play it.",
            "config": [{"type": "open", "parameters": {"path": "/home/user/video.mp4"}},
                       {"type": "open", "parameters": {"path": "/home/user/notes.pdf"}}],
            "evaluator": {"func": "infeasible"}}
    (tmp_path / "vlc").mkdir()
    (tmp_path / "vlc" / "t.json").write_text(json.dumps(task))
    report = import_osworld(tmp_path, ImportOptions(out=tmp_path / "out"))
    assert not report.skipped
    (converted,) = _tasks(tmp_path / "out").values()
    assert [s for s in converted["reset"] if "apps.open" in s] == [
        {"apps.open": {"path": "${HOME}/video.mp4"}}, {"apps.open": {"path": "${HOME}/notes.pdf"}}]
    assert converted["visual"] is True
    task["config"] = [{"type": "open", "parameters": {"path": "/home/user/pic.xcf"}}]
    (tmp_path / "vlc" / "t.json").write_text(json.dumps(task))
    (skipped,) = import_osworld(tmp_path, ImportOptions(out=tmp_path / "out2")).skipped
    assert skipped.reasons == ["open: no deskact app opens .xcf files (apps.open knows text, office, PDF and media files)"]
