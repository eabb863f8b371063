"""OSWorld's getters of single facts of Chrome's Preferences (new_startup_page and
data_delete_automacally under exact_match, find_unpacked_extension_path under is_in_list) agree with
the browser judges the importer writes for them (judges/browser_prefs.py), on the same files.

desktop-env's own getter runs here (its controller answered from local files: the getter asks the VM
for the Preferences path and reads the file there), then its own metric on what the getter returned;
deskact's judge reads the same file as the task's profile's Preferences."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.conformance

VM_PREFS = "/home/user/.config/google-chrome/Default/Preferences"
HELLO = "/home/user/Desktop/helloExtension"
PDF = {"path": "/usr/lib/chromium/resources/pdf", "location": 5, "manifest": {"name": "Chromium PDF Viewer"}}


def _rule(rules: dict[str, Any]) -> dict[str, Any]:
    return {"type": "rule", "rules": rules}


def _write(profile: Path, content: Any) -> None:
    path = profile / "Preferences"
    if content is None:
        path.unlink(missing_ok=True)
    else:
        path.write_text(content if isinstance(content, str) else json.dumps(content))


def _theirs(desktop_env: Any, profile: Path, getter: str, metric: str, expected: str) -> bool:
    value = desktop_env.getter("chrome", f"get_{getter}", VM_PREFS, {VM_PREFS: profile / "Preferences"})
    return bool(desktop_env.passes("general", metric, value, {"expected": expected}))


STARTUP = [
    ({"session": {"restore_on_startup": 5, "startup_urls": ["http://funbrain.com/"]}}, True),
    ({"session": {"restore_on_startup": 5.0}}, True),
    ({"browser": {"show_home_button": True}}, True),  # no session key: a fresh profile's state
    ({"session": {"restore_on_startup": 4, "startup_urls": ["http://funbrain.com/"]}}, False),
    ({"session": {"restore_on_startup": 1}}, False),  # continue where you left off
    ({"session": {"startup_urls": []}}, False),
    ({"session": {"restore_on_startup": True}}, False),
    ({"session": {"restore_on_startup": "5"}}, False),
    ({"session": None}, False),
    ("[1, 2]", False),
    ('{"session": ', False),
    (None, False),  # no Preferences file
]


@pytest.mark.parametrize(("prefs", "verdict"), STARTUP)
def test_new_startup_page(desktop_env: Any, deskact: Any, chromium_profile: Path, prefs: Any, verdict: bool) -> None:
    _write(chromium_profile, prefs)
    theirs = _theirs(desktop_env, chromium_profile, "new_startup_page", "exact_match", "true")
    ours = deskact.passes({"func": "exact_match", "result": {"type": "new_startup_page"},
                           "expected": _rule({"expected": "true"})})
    assert ours == theirs == verdict, deskact.feedback


DELETE = [
    ({"profile": {"default_content_setting_values": {"cookies": 4}}}, True),
    ({"profile": {"default_content_setting_values": {"cookies": 2}}}, True),  # any stored default passes
    ({"profile": {"default_content_setting_values": {}}}, True),
    ({"profile": {"name": "Person 1"}}, False),
    ({"profile": {"default_content_setting_values": None}}, False),
    ({"profile": {"content_settings": {"exceptions": {"cookies": {"[*.]example.org,*": {"setting": 4}}}}}}, False),
    ({"cookie_controls_mode": 1}, False),  # third-party cookies blocked: not a content type's default
    ({"profile": "x"}, False),
    ('{"profile": ', False),
    (None, False),
]


@pytest.mark.parametrize(("prefs", "verdict"), DELETE)
def test_data_delete_automacally(desktop_env: Any, deskact: Any, chromium_profile: Path, prefs: Any,
                                 verdict: bool) -> None:
    _write(chromium_profile, prefs)
    theirs = _theirs(desktop_env, chromium_profile, "data_delete_automacally", "exact_match", "true")
    ours = deskact.passes({"func": "exact_match", "result": {"type": "data_delete_automacally"},
                           "expected": _rule({"expected": "true"})})
    assert ours == theirs == verdict, deskact.feedback


MARKER = {"has_migrated_local_network_access": True}


@pytest.mark.parametrize(("defaults", "verdict"), [({}, False), ({"cookies": 4}, True), ({"popups": 2}, True)])
def test_data_delete_automacally_sets_chromiums_migration_notes_aside(
        desktop_env: Any, deskact: Any, chromium_profile: Path, defaults: dict[str, Any], verdict: bool) -> None:
    """Chromium since 2025 writes has_migrated_* notes among the defaults at every start (this
    machine's fresh profile holds one); OSWorld's Chrome wrote none. deskact's verdict on a file
    with the note is desktop-env's on the same file without it: the state OSWorld's Chrome left."""
    stored = {"profile": {"default_content_setting_values": {**defaults, **MARKER}}}
    _write(chromium_profile, {"profile": {"default_content_setting_values": defaults}} if defaults else {"profile": {}})
    theirs = _theirs(desktop_env, chromium_profile, "data_delete_automacally", "exact_match", "true")
    _write(chromium_profile, stored)
    ours = deskact.passes({"func": "exact_match", "result": {"type": "data_delete_automacally"},
                           "expected": _rule({"expected": "true"})})
    assert ours == theirs == verdict, deskact.feedback


def _extensions(*entries: Any) -> dict[str, Any]:
    return {"extensions": {"settings": {f"id{i}": e for i, e in enumerate(entries)}}}


EXTENSIONS = [
    (_extensions(PDF, {"path": HELLO, "location": 4}), True),
    (_extensions({"path": HELLO + "/", "location": 4}), False),
    (_extensions(PDF, {"path": "/home/user/Desktop", "location": 4}), False),
    (_extensions(PDF, {"path": "/home/user/Desktop/helloExtension.zip", "location": 4}), False),
    (_extensions(PDF), False),
    (_extensions({"location": 1}, {"path": HELLO, "location": 4}), False),  # an entry without its folder
    (_extensions("x", {"path": HELLO}), False),
    ({"extensions": {"alerts": {"initialized": True}}}, False),
    ({"extensions": {"settings": [HELLO]}}, False),
    ({}, False),
    (None, False),
]


@pytest.mark.parametrize(("prefs", "verdict"), EXTENSIONS)
def test_find_unpacked_extension_path(desktop_env: Any, deskact: Any, chromium_profile: Path, ctx: Any,
                                      prefs: Any, verdict: bool) -> None:
    _write(chromium_profile, prefs)
    theirs = _theirs(desktop_env, chromium_profile, "find_unpacked_extension_path", "is_in_list", HELLO)
    # The task's home is deskact's ${HOME}: the same folders, there.
    home = str(ctx.home).rstrip("/") + "/"
    _write(chromium_profile, None if prefs is None else json.loads(json.dumps(prefs).replace("/home/user/", home)))
    ours = deskact.passes({"func": "is_in_list", "result": {"type": "find_unpacked_extension_path"},
                           "expected": _rule({"expected": HELLO})})
    assert ours == theirs == verdict, deskact.feedback


def test_other_expectations_are_reported() -> None:
    from deskact.runtime.importers.osworld_metrics import translate_evaluator

    for func, kind, expected in (("exact_match", "new_startup_page", "false"),
                                 ("exact_match", "data_delete_automacally", "false"),
                                 ("is_in_list", "find_unpacked_extension_path", "oo"),
                                 ("is_in_list", "find_unpacked_extension_path", "helloExtension")):
        out = translate_evaluator({"func": func, "result": {"type": kind}, "expected": _rule({"expected": expected})},
                                  lambda u, n: n, str, str)
        assert out.reasons and not out.judge, (kind, expected, out)
