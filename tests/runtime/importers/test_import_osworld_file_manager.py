"""OSWorld's launch of GNOME's Nautilus (alone or on a folder) becomes apps.files: the folder open in
Thunar, the VM's home the task's; options are reported, not dropped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from deskact.runtime.importers import ImportOptions
from deskact.runtime.importers.common import SUITE_FILE, Untranslatable
from deskact.runtime.importers.osworld import import_osworld
from deskact.runtime.importers.osworld_setup import nautilus_folder
from deskact.runtime.tasks.task import load_tasks


def test_nautilus_on_a_folder_opens_it_under_the_tasks_home() -> None:
    assert nautilus_folder(["nautilus", "/home/user/Documents/Finance"]) == {"path": "${HOME}/Documents/Finance"}
    assert nautilus_folder(["/usr/bin/nautilus", "/home/user/Documents/Novels/4th Year in Tsinghua"]) == {
        "path": "${HOME}/Documents/Novels/4th Year in Tsinghua"}
    assert nautilus_folder(["nautilus", "~/exam/"]) == {"path": "${HOME}/exam/"}
    assert nautilus_folder(["nautilus", "/tmp/outside"]) == {"path": "/tmp/outside"}


def test_nautilus_alone_opens_the_home_and_other_programs_are_not_its() -> None:
    assert nautilus_folder(["nautilus"]) == {}
    assert nautilus_folder(["thunar", "/home/user"]) is None
    assert nautilus_folder(["gimp"]) is None


@pytest.mark.parametrize("argv", [["nautilus", "--new-window", "/home/user"], ["nautilus", "/home/user/a", "/home/user/b"]])
def test_nautilus_with_options_or_two_folders_is_reported(argv: list[str]) -> None:
    with pytest.raises(Untranslatable, match="launch of Nautilus"):
        nautilus_folder(argv)


def test_a_task_that_opens_a_folder_converts_with_apps_files_and_a_note(tmp_path: Path) -> None:
    task = {
        "id": "00000000-0000-0000-0000-0000000000fa", "snapshot": "os", "instruction": "Sort the papers.",
        "config": [{"type": "execute", "parameters": {"command": ["mkdir", "-p", "/home/user/Documents/Papers"]}},
                   {"type": "launch", "parameters": {"command": ["nautilus", "/home/user/Documents/Papers"]}},
                   {"type": "launch", "parameters": {"command": "nautilus"}}],
        "evaluator": {"func": "check_include_exclude", "result": {"type": "vm_command_line",
                                                                  "command": "ls ~/Documents/Papers", "shell": True},
                      "expected": {"type": "rule", "rules": {"include": ["a.pdf"], "exclude": []}}},
    }
    src = tmp_path / "src" / "multi_apps"
    src.mkdir(parents=True)
    (src / f"{task['id']}.json").write_text(json.dumps(task))
    report = import_osworld(src.parent, ImportOptions(out=tmp_path / "suite"))
    assert not report.skipped, [s.reasons for s in report.skipped]
    load_tasks([tmp_path / "suite" / SUITE_FILE])  # apps.files and its params are this deskact's
    (converted,) = yaml.safe_load((tmp_path / "suite" / SUITE_FILE).read_text())["tasks"]
    steps = [s for s in converted["reset"] if "apps.files" in s]
    assert steps == [{"apps.files": {"path": "${HOME}/Documents/Papers"}}, {"apps.files": {}}]
    assert converted["visual"] is True
    assert "launch of OSWorld's Nautilus became apps.files: the folder open in Thunar" in (
        tmp_path / "suite" / "import-report.md").read_text()
