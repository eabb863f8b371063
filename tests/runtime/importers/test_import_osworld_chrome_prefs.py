"""The importer translates OSWorld's Preferences-fact getters (new_startup_page, data_delete_automacally,
find_unpacked_extension_path) and the set-up's jq edit of Chrome's Preferences, and reports what it
cannot write faithfully. Task files in OSWorld's format, converted whole."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from deskact.runtime.importers import ImportOptions
from deskact.runtime.importers.common import SUITE_FILE
from deskact.runtime.importers.osworld import import_osworld

LAUNCH = [{"type": "launch", "parameters": {"command": ["google-chrome", "--remote-debugging-port=1337"]}},
          {"type": "launch", "parameters": {"command": ["socat", "tcp-listen:9222,fork", "tcp:localhost:1337"]}}]
JQ = ("cd /home/user/.config/google-chrome/Default && jq '. + {\"session\":{\"restore_on_startup\":4,"
      " \"startup_urls\":[\"http://funbrain.com/\"]}}' Preferences > temp && mv temp Preferences")


def _task(config: list[dict[str, Any]], result: str, func: str = "exact_match", expected: str = "true") -> dict[str, Any]:
    return {"id": "a0000000-0000-4000-8000-000000000001", "instruction": "Do it.", "config": config,
            "evaluator": {"func": func, "result": {"type": result}, "expected": {"type": "rule", "rules": {"expected": expected}}}}


def _convert(tmp_path: Path, task: dict[str, Any]) -> tuple[dict[str, Any] | None, list[str]]:
    src = tmp_path / "chrome"
    src.mkdir()
    (src / "t.json").write_text(json.dumps(task))
    report = import_osworld(src, ImportOptions(out=tmp_path / "out", fetch_gold=False))
    if report.skipped:
        return None, [str(r) for s in report.skipped for r in s.reasons]
    return yaml.safe_load((tmp_path / "out" / SUITE_FILE).read_text())["tasks"][0], []


def test_startup_page_task_sets_the_startup_pages_and_judges_the_new_tab_page(tmp_path: Path) -> None:
    config = [{"type": "execute", "parameters": {"command": JQ, "shell": True}}, *LAUNCH]
    task, reasons = _convert(tmp_path, _task(config, "new_startup_page"))
    assert task is not None, reasons
    steps = [next(iter(s)) for s in task["reset"]]
    assert steps.index("browser.profile") < steps.index("browser.open")
    [profile] = [s["browser.profile"] for s in task["reset"] if "browser.profile" in s]
    assert profile == {"settings": {"session": {"restore_on_startup": 4, "startup_urls": ["http://funbrain.com/"]}}}
    assert task["judge"] == [{"browser.startup_new_tab": {}}]


def test_extension_folder_is_the_tasks_home(tmp_path: Path) -> None:
    task, reasons = _convert(tmp_path, {**_task(LAUNCH, "find_unpacked_extension_path", "is_in_list",
                                                "/home/user/Desktop/helloExtension")})
    assert task is not None, reasons
    assert task["judge"] == [{"browser.extension_path": {"path": "${HOME}/Desktop/helloExtension"}}]


def test_site_data_default_after_chrome_is_closed(tmp_path: Path) -> None:
    ev = _task(LAUNCH, "data_delete_automacally")
    ev["evaluator"]["postconfig"] = [{"type": "execute", "parameters": {"command": "pkill chrome", "shell": "true"}}]
    task, reasons = _convert(tmp_path, ev)
    assert task is not None, reasons
    assert task["before_judge"] == [{"browser.close": {}}]
    assert task["judge"] == [{"browser.content_setting_stored": {}}]


@pytest.mark.parametrize(("config", "result", "func", "expected", "reason"), [
    ([*LAUNCH, {"type": "execute", "parameters": {"command": JQ, "shell": True}}], "new_startup_page", "exact_match",
     "true", "only top-level settings before Chrome starts"),
    ([{"type": "execute", "parameters": {"command": JQ.replace("session", "a.b"), "shell": True}}, *LAUNCH],
     "new_startup_page", "exact_match", "true", "only top-level settings"),
    (LAUNCH, "new_startup_page", "exact_match", "false", "only 'true' is translated"),
    (LAUNCH, "find_unpacked_extension_path", "is_in_list", "Desktop", "only an absolute folder"),
])
def test_reported(tmp_path: Path, config: list[dict[str, Any]], result: str, func: str, expected: str,
                  reason: str) -> None:
    task, reasons = _convert(tmp_path, _task(config, result, func, expected))
    assert task is None and any(reason in r for r in reasons), reasons
