"""OSWorld's chrome set-up and metrics -> browser steps (runtime/importers/osworld_chrome.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from deskact.runtime.importers.common import ImportOptions
from deskact.runtime.importers.osworld import import_osworld

LAUNCH = [{"type": "launch", "parameters": {"command": ["google-chrome", "--remote-debugging-port=1337"]}},
          {"type": "launch", "parameters": {"command": ["socat", "tcp-listen:9222,fork", "tcp:localhost:1337"]}}]
RELAUNCH = [{"type": "launch", "parameters": {"command": ["pkill", "chrome"]}}, LAUNCH[0]]
BOOKMARKED = {"func": "is_expected_bookmarks", "result": {"type": "bookmarks"},
              "expected": {"type": "rule", "rules": {"type": "bookmark_bar_websites_urls", "urls": ["https://a.test/"]}}}


def _import(tmp_path: Path, **tasks: dict[str, Any]) -> tuple[dict[str, dict[str, Any]], dict[str, list[str]]]:
    """Each task (config, evaluator) imported: converted tasks by source id, reasons by source id."""
    src = tmp_path / "chrome"
    src.mkdir()
    for uid, task in tasks.items():
        (src / f"{uid}.json").write_text(json.dumps({"id": uid, "instruction": "do it", **task}))
    report = import_osworld(src, ImportOptions(out=tmp_path / "out", fetch_gold=False))
    suite = yaml.safe_load((tmp_path / "out" / "imported.yaml").read_text()) if report.converted else {"tasks": []}
    converted = {t["imported_from"].rsplit("/", 1)[1]: t for t in suite["tasks"]}
    return converted, {s.source_id: s.reasons for s in report.skipped}


def test_launch_and_tabs_become_one_browser_open(tmp_path: Path) -> None:
    tabs = {"type": "chrome_open_tabs", "parameters": {"urls_to_open": ["https://a.test/", "https://b.test/x"]}}
    converted, reasons = _import(tmp_path, tabs={"config": [*LAUNCH, tabs], "evaluator": BOOKMARKED})
    assert reasons == {}
    task = converted["tabs"]
    assert task["toolkits"] == ["gui", "browser"] and task["visual"] is True
    assert {"browser.open": {"urls": ["https://a.test/", "https://b.test/x"], "active": 1}} in task["reset"]
    assert task["judge"] == [{"browser.bookmark_bar": {"urls": ["https://a.test/"]}}]


def test_history_before_the_launch_and_the_kill_before_judging(tmp_path: Path) -> None:
    history = {"type": "update_browse_history", "parameters": {"history": [
        {"url": "https://www.youtube.com/watch?v=1", "title": "v", "visit_time_from_now_in_seconds": 7200}]}}
    deleted = {"func": "check_history_deleted", "result": {"type": "history", "dest": "h.sqlite"},
               "expected": {"type": "rule", "rules": {"type": "keywords", "keywords": ["youtube"]}}}
    converted, reasons = _import(
        tmp_path, ok={"config": [history, *LAUNCH], "evaluator": {**deleted, "postconfig": RELAUNCH}},
        late={"config": [*LAUNCH, history], "evaluator": deleted})
    task = converted["ok"]
    assert task["reset"][1:] == [
        {"browser.profile": {"history": [{"url": "https://www.youtube.com/watch?v=1", "title": "v", "hours_ago": 2.0}]}},
        {"browser.open": {}}]
    assert task["before_judge"] == [{"browser.close": {}}]
    assert task["judge"] == [{"browser.history_clear": {"keywords": ["youtube"]}}]
    assert any("browser.profile writes history before browser.open" in r for r in reasons["late"])


def test_preference_getters_and_what_stays_reported(tmp_path: Path) -> None:
    def exact(kind: str, expected: str) -> dict[str, Any]:
        return {"func": "exact_match", "result": {"type": kind}, "expected": {"type": "rule", "rules": {"expected": expected}}}

    converted, reasons = _import(
        tmp_path,
        bing={"config": LAUNCH, "evaluator": exact("default_search_engine", "Bing")},
        dnt={"config": LAUNCH, "evaluator": exact("enable_do_not_track", "true")},
        google={"config": LAUNCH, "evaluator": exact("default_search_engine", "Google")},
        flags={"config": [{"type": "launch", "parameters": {"command": ["google-chrome", "--incognito"]}}],
               "evaluator": exact("enable_do_not_track", "true")},
        closed={"config": [*LAUNCH, {"type": "chrome_close_tabs", "parameters": {"urls_to_close": ["x"]}}],
                "evaluator": BOOKMARKED},
        live={"config": LAUNCH, "evaluator": {"func": "is_expected_active_tab", "result": {"type": "active_tab_info"},
                                              "expected": {"type": "rule", "rules": {"type": "url", "url": "https://a.test/"}}}})
    assert converted["bing"]["judge"] == [{"browser.setting": {
        "name": "default_search_provider_data.template_url_data.short_name", "equals": "Bing"}}]
    assert converted["dnt"]["judge"] == [{"browser.setting": {"name": "enable_do_not_track", "equals": True}}]
    assert set(converted) == {"bing", "dnt"}
    assert any("also gives unset" in r for r in reasons["google"])
    assert any("--incognito" in r for r in reasons["flags"])
    assert any("chrome_close_tabs" in r for r in reasons["closed"])
    assert any("live web page" in r for r in reasons["live"])


def test_public_tabs_with_a_judge_of_what_was_made_of_them_are_reported(tmp_path: Path) -> None:
    tabs = {"type": "chrome_open_tabs", "parameters": {"urls_to_open": ["https://blog.test/post"]}}
    saved = {"func": "exact_match", "result": {"type": "vm_command_line", "command": "ls ~/Desktop", "shell": True},
             "expected": {"type": "rule", "rules": {"expected": "post.pdf\n"}}}
    local = {"type": "chrome_open_tabs", "parameters": {"urls_to_open": ["chrome://settings/"]}}
    converted, reasons = _import(tmp_path, pdf={"config": [*LAUNCH, tabs], "evaluator": saved},
                                 settings={"config": [*LAUNCH, local], "evaluator": saved})
    assert set(converted) == {"settings"}
    assert any(r.startswith("live web pages: the tabs open https://blog.test/post") and "shell.output" in r
               for r in reasons["pdf"])
