"""The Preferences-fact checks of judges/browser_prefs.py on the files Chromium writes (their
agreement with desktop-env's getters: tests/runtime/importers/osworld_conformance/
test_conformance_chrome_prefs.py)."""

from __future__ import annotations

import json

from deskact.judges.browser_prefs import match_content_setting_stored, match_extension_path, match_startup_new_tab


def test_startup_page() -> None:
    assert match_startup_new_tab(json.dumps({"session": {"restore_on_startup": 5}})).passed
    assert match_startup_new_tab(b"{}").passed  # no startup settings at all
    assert not match_startup_new_tab(json.dumps({"session": {"restore_on_startup": 4}})).passed
    assert not match_startup_new_tab(json.dumps({"session": {"restore_on_startup": True}})).passed
    assert not match_startup_new_tab(None).passed
    assert not match_startup_new_tab(b"\xff{").passed


def test_content_setting_stored_sets_chromiums_notes_aside() -> None:
    fresh = {"profile": {"default_content_setting_values": {"has_migrated_local_network_access": True}}}
    assert not match_content_setting_stored(json.dumps(fresh)).passed
    fresh["profile"]["default_content_setting_values"]["cookies"] = 4
    assert match_content_setting_stored(json.dumps(fresh)).passed
    assert not match_content_setting_stored(json.dumps({"profile": {}})).passed
    assert not match_content_setting_stored(json.dumps({})).passed


def test_extension_path() -> None:
    prefs = {"extensions": {"settings": {"a": {"path": "/usr/lib/chromium/resources/pdf"}, "b": {"path": "/h/ext"}}}}
    assert match_extension_path(json.dumps(prefs), "/h/ext").passed
    assert not match_extension_path(json.dumps(prefs), "/h/ext/").passed
    prefs["extensions"]["settings"]["c"] = {"location": 1}
    verdict = match_extension_path(json.dumps(prefs), "/h/ext")
    assert not verdict.passed and "names no folder" in verdict.feedback
