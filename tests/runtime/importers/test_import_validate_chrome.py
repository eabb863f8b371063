"""Imported OSWorld chrome tasks, given hand-written references, validate in worlds: the reference
passes, doing nothing fails, each counterexample fails (Chromium really writes what the judges read).

The task files are written here in OSWorld's format (launch of google-chrome with its DevTools port,
the socat relay, a pkill before judging, public tabs); references use the browser pages' own APIs,
as the browser suite's do, and Ctrl+D on a public page that offline shows an error page."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from deskact.runtime.config import Config
from deskact.runtime.importers import ImportOptions
from deskact.runtime.importers.common import SUITE_FILE
from deskact.runtime.importers.osworld import import_osworld

sys.path.insert(0, str(Path(__file__).parent))
from imported_suite import assert_validates

LAUNCH = [{"type": "launch", "parameters": {"command": ["google-chrome", "--remote-debugging-port=1337"]}},
          {"type": "launch", "parameters": {"command": ["socat", "tcp-listen:9222,fork", "tcp:localhost:1337"]}}]
KILL = [{"type": "launch", "parameters": {"command": ["pkill", "chrome"]}}, LAUNCH[0]]


def _rule(rules: dict[str, Any]) -> dict[str, Any]:
    return {"type": "rule", "rules": rules}


SET_PREF = "new Promise(r => chrome.settingsPrivate.setPref('{}', {}, '', r))"
MARK_TAB = "import time\nkeyboard.hotkey('ctrl', 'd')\ntime.sleep(3)\nkeyboard.press('enter')\ntime.sleep(3)\n"
"""Ctrl+D on the shown tab, as a person bookmarks a page: offline, its error page's bookmark has the
address asked for, and goes to "Other bookmarks" (Chromium's default folder)."""
TO_BAR = ("browser.new_tab('chrome://bookmarks')\nbrowser.evaluate(\"new Promise(r => chrome.bookmarks.search("
          "{url: 'https://example.org/second/'}, found => chrome.bookmarks.move(found[0].id, {parentId: '1'}, r)))\")\n")
TASKS: dict[str, tuple[dict[str, Any], str, str]] = {
    # id: (task file, reference, counterexample)
    "dnt00000-0000-4000-8000-000000000001": (
        {"instruction": "Turn on the browser's Do Not Track request.", "config": LAUNCH,
         "evaluator": {"func": "exact_match", "result": {"type": "enable_do_not_track"},
                       "expected": _rule({"expected": "true"})}},
        f'browser.open("chrome://settings/cookies")\nassert browser.evaluate("{SET_PREF.format("enable_do_not_track", "true")}")\nexit()\n',
        f'browser.open("chrome://settings/security")\nbrowser.evaluate("{SET_PREF.format("safebrowsing.enhanced", "true")}")\nexit()\n'),
    "font0000-0000-4000-8000-000000000002": (
        {"instruction": "Make the browser's default font bigger than it is.", "config": LAUNCH,
         "evaluator": {"func": "check_font_size", "result": {"type": "chrome_font_size"}, "postconfig": KILL,
                       "expected": _rule({"type": "range", "min": 16, "max": 99999})}},
        f'browser.open("chrome://settings/fonts")\nassert browser.evaluate("{SET_PREF.format("webkit.webprefs.default_font_size", "20")}")\nexit()\n',
        f'browser.open("chrome://settings/fonts")\nbrowser.evaluate("{SET_PREF.format("webkit.webprefs.minimum_font_size", "20")}")\nexit()\n'),
    "fold0000-0000-4000-8000-000000000003": (
        {"instruction": "Add a folder called 'Favorites' to the bookmarks bar.", "config": LAUNCH,
         "evaluator": {"func": "is_expected_bookmarks", "result": {"type": "bookmarks"},
                       "expected": _rule({"type": "bookmark_bar_folders_names", "names": ["Favorites"]})}},
        ('browser.open("chrome://bookmarks")\n'
         'browser.evaluate("new Promise(r => chrome.bookmarks.create({parentId: \'1\', title: \'Favorites\'}, r))")\nexit()\n'),
        ('browser.open("chrome://bookmarks")\n'
         'browser.evaluate("new Promise(r => chrome.bookmarks.create({parentId: \'2\', title: \'Favorites\'}, r))")\nexit()\n')),
    # Offline, the tabs show Chromium's error page at the address asked for; bookmarked, it is that address.
    "mark0000-0000-4000-8000-000000000004": (
        {"instruction": "Save the page I am looking at to the bookmarks bar.", "config": [*LAUNCH, {
            "type": "chrome_open_tabs", "parameters": {"urls_to_open": ["https://example.org/first/",
                                                                         "https://example.org/second/"]}}],
         "evaluator": {"func": "is_expected_bookmarks", "result": {"type": "bookmarks"},
                       "expected": _rule({"type": "bookmark_bar_websites_urls", "urls": ["https://example.org/second/"]})}},
        MARK_TAB + TO_BAR + "exit()\n", MARK_TAB + "exit()\n"),
}


@pytest.mark.slow
def test_imported_chrome_tasks_with_references_validate(tmp_path: Path) -> None:
    from deskact.runtime.world.world import world_status

    if not world_status()[0]:
        pytest.skip("needs worlds: browser.open starts Chromium inside the task's world")
    src = tmp_path / "chrome"
    src.mkdir()
    for uid, (task, _, _) in TASKS.items():
        (src / f"{uid}.json").write_text(json.dumps({"id": uid, **task}))
    out = tmp_path / "suite"
    report = import_osworld(src, ImportOptions(out=out, fetch_gold=False))
    assert len(report.converted) == len(TASKS), [s.reasons for s in report.skipped]
    suite = yaml.safe_load((out / SUITE_FILE).read_text())
    written = {uid[:8]: (ref, wrong) for uid, (_, ref, wrong) in TASKS.items()}
    for task in suite["tasks"]:
        ref, wrong = written[task["id"].rsplit("-", 1)[1]]
        task.update(reference=ref, counterexamples=[{"note": "a neighbouring setting or folder", "code": wrong}])
    (out / SUITE_FILE).write_text(yaml.safe_dump(suite, sort_keys=False))
    config = Config()
    config.agent.step_timeout = 300  # chrome://settings can take long to load in a world on a loaded machine
    assert_validates(out, tmp_path, len(TASKS), workers=2, config=config)
