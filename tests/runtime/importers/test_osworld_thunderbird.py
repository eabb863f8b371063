"""OSWorld's Thunderbird tasks: close_window by class or exact title, prefs.js and filter rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from deskact.runtime.importers import ImportOptions
from deskact.runtime.importers.osworld import import_osworld
from deskact.runtime.tasks.steps import lookup

PROFILE = "/home/user/.thunderbird/t5q2a5hp.default-release"
SETUP = [
    {"type": "download", "parameters": {"files": [{"url": "https://example.org/thunderbird-profile.tar.gz",
                                                   "path": "/home/user/thunderbird-profile.tar.gz"}]}},
    {"type": "execute", "parameters": {"command": ["tar", "-xzv", "--recursive-unlink", "-f",
                                                   "/home/user/thunderbird-profile.tar.gz", "-C", "/home/user/"]}},
    {"type": "launch", "parameters": {"command": ["/usr/bin/thunderbird"]}},
]
# thunderbird-030eeff7 and thunderbird-35253b65's evaluators (OSWorld, evaluation_examples/examples/thunderbird)
QUOTE = {"postconfig": [{"type": "close_window", "parameters": {"window_name": "Mail.thunderbird", "strict": True,
                                                                  "by_class": True}},
                         {"type": "sleep", "parameters": {"seconds": 0.5}}],
         "func": "check_thunderbird_prefs", "result": {"type": "vm_file", "path": f"{PROFILE}/prefs.js"},
         "expected": {"type": "rule", "rules": {"expect": {"mail.identity.id1.auto_quote": {"method": "eq", "ref": False}}}}}
FORWARD = {"postconfig": [{"type": "close_window", "parameters": {"window_name": "Message Filters", "strict": True}}],
           "func": "check_thunderbird_filter",
           "result": {"type": "vm_file", "path": f"{PROFILE}/ImapMail/outlook.office365.com/msgFilterRules.dat"},
           "expected": {"type": "rule", "rules": {"expect": [{"enabled": "yes", "action": "Forward",
                                                              "actionValue": "anonym-x2024@gmail.com", "condition": ["ALL"]}]}}}


def _import(tmp_path: Path, evaluators: dict[str, dict[str, Any]]) -> dict[str, Any]:
    folder = tmp_path / "examples" / "thunderbird"
    folder.mkdir(parents=True)
    for uid, evaluator in evaluators.items():
        (folder / f"{uid}.json").write_text(json.dumps({"id": uid, "instruction": "Do it in Thunderbird.",
                                                        "config": SETUP, "evaluator": evaluator}))
    report = import_osworld(tmp_path / "examples", ImportOptions(out=tmp_path / "out", fetch_gold=False))
    assert not report.skipped, [s.reasons for s in report.skipped]
    return {t["id"]: t for t in yaml.safe_load((tmp_path / "out" / "imported.yaml").read_text())["tasks"]}


def test_close_window_by_class_and_exact_title_run_osworlds_wmctrl(tmp_path: Path) -> None:
    tasks = _import(tmp_path, {"030eeff7-0000-0000-0000-000000000000": QUOTE,
                               "35253b65-0000-0000-0000-000000000000": FORWARD})
    quote, forward = tasks["osworld-thunderbird-030eeff7"], tasks["osworld-thunderbird-35253b65"]
    (close,) = [s["shell.run"]["cmd"] for s in quote["before_judge"] if "shell.run" in s]
    # OSWorld's server: wmctrl -xFc Mail.thunderbird; this Thunderbird's class is Mail.thunderbird-default
    assert close.startswith("ids=$$(wmctrl -lx | awk -v n=Mail.thunderbird '$$3 == n || index($$3, n \"-\") == 1")
    assert "wmctrl -ic $$id" in close and close.endswith("; true")
    (close,) = [s["shell.run"]["cmd"] for s in forward["before_judge"] if "shell.run" in s]
    assert close.startswith("ids=$$(wmctrl -l | awk -v n='Message Filters' ") and "t == n {print $$1}" in close
    assert [t["reset"][-1] for t in (quote, forward)] == [
        {"apps.launch": {"cmd": "/usr/bin/thunderbird", "window": "Thunderbird", "timeout": 120}}] * 2
    assert quote["judge"] == [{"thunderbird.prefs": {
        "path": "${HOME}/.thunderbird/t5q2a5hp.default-release/prefs.js",
        "expect": {"mail.identity.id1.auto_quote": {"method": "eq", "ref": False}}}}]
    assert forward["judge"][0]["thunderbird.filters"]["expect"][0]["condition"] == ["ALL"]
    for task in (quote, forward):
        for kind in ("reset", "before_judge", "judge"):
            for s in task.get(kind, []):
                name, params = next(iter(s.items()))
                lookup("reset" if kind != "judge" else "judge", name).validate(params)


def test_close_window_without_strict_stays_apps_close(tmp_path: Path) -> None:
    loose = {**QUOTE, "postconfig": [{"type": "close_window", "parameters": {"window_name": "Thunderbird"}}]}
    task = _import(tmp_path, {"11111111-0000-0000-0000-000000000000": loose})["osworld-thunderbird-11111111"]
    assert {"apps.close": {"window": "Thunderbird"}} in task["before_judge"]
