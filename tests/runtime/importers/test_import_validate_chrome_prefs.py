"""Imported OSWorld chrome tasks judged on facts of the Preferences (browser.startup_new_tab,
browser.content_setting_stored), given hand-written references, validate in worlds: the reference
passes, doing nothing fails, a neighbouring setting fails (Chromium really writes what the judges read).

The task files are OSWorld's (chrome/3299584d and chrome/99146c54) without the set-up's apt-get of
jq, and chrome/6766f2b8 with its extension folder written by the set-up instead of downloaded (and a
second one beside it); references use the settings pages' own APIs, as the browser suite's do, and
"Load unpacked" with the folder typed into the file chooser."""

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
JQ = ("cd /home/user/.config/google-chrome/Default && jq '. + {\"session\":{\"restore_on_startup\":4,"
      " \"startup_urls\":[\"http://funbrain.com/\"]}}' Preferences > temp && mv temp Preferences")
TRUE = {"type": "rule", "rules": {"expected": "true"}}
SET_PREF = "new Promise(r => chrome.settingsPrivate.setPref('{}', {}, '', r))"
SITE_DATA = ("browser.open('chrome://settings/content/siteData')\n"
             "browser.evaluate(\"chrome.send('setDefaultValueForContentType', ['cookies', '{}']), true\")\n"
             "import time\ntime.sleep(2)\nexit()\n")

MANIFEST = '{"manifest_version": 3, "name": "Hello Extensions", "version": "1.0"}'
MAKE_EXTENSIONS = ("for d in helloExtension helloExtension2; do mkdir -p /home/user/Desktop/$d &&"
                   f" printf '%s' '{MANIFEST}' > /home/user/Desktop/$d/manifest.json; done")
LOAD_UNPACKED = """import os, time
browser.open("chrome://extensions")
browser.click("#devMode")
browser.click("#loadUnpacked")
windows.wait_for("Select the extension directory")
keyboard.hotkey("ctrl", "l")
time.sleep(1)
keyboard.type(os.path.expanduser("~/Desktop/{}/"))
time.sleep(1)
keyboard.hotkey("alt", "o")
windows.wait_closed("Select the extension directory")
time.sleep(3)
exit()
"""
"""Load unpacked, as a person does: developer mode on, the button, the folder typed into the file
chooser's location (Ctrl+L), Open (Alt+O; Enter there cancels the choice)."""

TASKS: dict[str, tuple[dict[str, Any], str, str]] = {
    # id: (task file, reference, counterexample)
    "3299584d-8f11-4457-bf4c-ce98f7600250": (
        {"instruction": "On my surface pro whenever I launch Chrome it always opens \"funbrain.com.\" I don't want"
                        " this. I cleared my cache but it still happens. What should I do?",
         "config": [{"type": "execute", "parameters": {"command": JQ, "shell": True}}, *LAUNCH],
         "evaluator": {"func": "exact_match", "result": {"type": "new_startup_page"}, "expected": TRUE}},
        f'browser.open("chrome://settings/onStartup")\nassert browser.evaluate("{SET_PREF.format("session.restore_on_startup", 5)}")\nexit()\n',
        # continue where you left off: not the New Tab page
        f'browser.open("chrome://settings/onStartup")\nbrowser.evaluate("{SET_PREF.format("session.restore_on_startup", 1)}")\nexit()\n'),
    "99146c54-4f37-4ab8-9327-5f3291665e1e": (
        {"instruction": "Please help me set Chrome to delete my browsing data automatically every time I close the"
                        " browser.", "config": LAUNCH,
         "evaluator": {"postconfig": [{"type": "execute", "parameters": {"command": "pkill chrome", "shell": "true"}}],
                       "func": "exact_match", "result": {"type": "data_delete_automacally"}, "expected": TRUE}},
        SITE_DATA.format("session_only"),
        # third-party cookies blocked: a cookie setting, not a site-data default
        f'browser.open("chrome://settings/cookies")\nbrowser.evaluate("{SET_PREF.format("profile.cookie_controls_mode", 1)}")\nexit()\n'),
    "6766f2b8-8a72-417f-a9e5-56fcaa735837": (
        {"instruction": "Could you help me install the unpacked extension at /home/user/Desktop/helloExtension in"
                        " Chrome?",
         "config": [{"type": "execute", "parameters": {"command": MAKE_EXTENSIONS, "shell": True}}, *LAUNCH],
         "evaluator": {"func": "is_in_list", "result": {"type": "find_unpacked_extension_path"},
                       "expected": {"type": "rule", "rules": {"expected": "/home/user/Desktop/helloExtension"}}}},
        LOAD_UNPACKED.format("helloExtension"),
        LOAD_UNPACKED.format("helloExtension2")),  # another folder's extension
}


@pytest.mark.slow
@pytest.mark.display
@pytest.mark.bwrap
def test_imported_chrome_preference_tasks_validate(tmp_path: Path) -> None:
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
        task.update(reference=ref, counterexamples=[{"note": "a neighbouring setting", "code": wrong}])
    (out / SUITE_FILE).write_text(yaml.safe_dump(suite, sort_keys=False))
    config = Config()
    config.agent.step_timeout = 300  # chrome://settings can take long to load in a world on a loaded machine
    assert_validates(out, tmp_path, len(TASKS), workers=1, config=config)
