"""OSWorld's chrome metrics (exact_match on Preferences getters, is_expected_bookmarks,
check_history_deleted, check_font_size, is_expected_active_tab) agree with the browser judges the
importer writes for them, on the same profile files.

desktop-env's getters need its VM controller, so each test gives the metric what the getter would
return from the same file, read as the getter reads it (quoted beside each): the Preferences' key
with the getter's default, the Bookmarks file's ``roots``, every row of History's ``urls`` table."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.conformance


@pytest.fixture
def profile(chromium_profile: Path) -> Path:
    return chromium_profile


def _rule(rules: dict[str, Any]) -> dict[str, Any]:
    return {"type": "rule", "rules": rules}


def _pref_getter(kind: str, prefs: dict[str, Any]) -> Any:
    # desktop_env/evaluators/getters/chrome.py, get_<kind>: the key read and the default returned
    if kind == "default_search_engine":
        return prefs.get("default_search_provider_data", {}).get("template_url_data", {}).get("short_name", "Google")
    if kind == "profile_name":
        return prefs.get("profile", {}).get("name", None)
    if kind == "enable_do_not_track":
        return "true" if prefs.get("enable_do_not_track", {}) else "false"
    return "true" if prefs.get("safebrowsing", {}).get("enhanced", {}) else "false"


@pytest.mark.parametrize(("kind", "expected", "prefs", "verdict"), [
    ("default_search_engine", "Bing", {"default_search_provider_data": {"template_url_data": {"short_name": "Bing"}}},
     True),
    ("default_search_engine", "Bing", {"default_search_provider_data": {"template_url_data": {"short_name": "bing"}}},
     False),
    ("default_search_engine", "Bing", {}, False),
    ("profile_name", "Thomas", {"profile": {"name": "Thomas"}}, True),
    ("profile_name", "Thomas", {"profile": {"name": "Thomas "}}, False),
    ("profile_name", "Thomas", {"profile": {}}, False),
    ("enable_do_not_track", "true", {"enable_do_not_track": True}, True),
    ("enable_do_not_track", "true", {"enable_do_not_track": False}, False),
    ("enable_do_not_track", "true", {}, False),
    ("enable_enhanced_safety_browsing", "true", {"safebrowsing": {"enhanced": True}}, True),
    ("enable_enhanced_safety_browsing", "true", {"safebrowsing": {"enabled": True}}, False),
])
def test_exact_match_on_preferences(desktop_env: Any, deskact: Any, profile: Path, kind: str, expected: str,
                                    prefs: dict[str, Any], verdict: bool) -> None:
    (profile / "Preferences").write_text(json.dumps(prefs))
    theirs = desktop_env.passes("general", "exact_match", _pref_getter(kind, prefs), {"expected": expected})
    ours = deskact.passes({"func": "exact_match", "result": {"type": kind}, "expected": _rule({"expected": expected})})
    assert ours == theirs == verdict, deskact.feedback


def _bookmarks(bar: list[dict[str, Any]]) -> dict[str, Any]:
    return {"bookmark_bar": {"type": "folder", "name": "Bookmarks bar", "children": bar},
            "other": {"type": "folder", "name": "Other bookmarks", "children": []}}


FOLDER = {"type": "folder", "name": "Favorites", "children": []}
PAGE = {"type": "url", "name": "Transformer", "url": "https://jalammar.github.io/illustrated-transformer/"}


@pytest.mark.parametrize(("rules", "bar", "verdict"), [
    ({"type": "bookmark_bar_folders_names", "names": ["Favorites"]}, [FOLDER, PAGE], True),
    ({"type": "bookmark_bar_folders_names", "names": ["Favorites"]}, [{**FOLDER, "name": "Favorite"}], False),
    ({"type": "bookmark_bar_folders_names", "names": ["Favorites"]}, [FOLDER, {**FOLDER, "name": "Work"}], False),
    ({"type": "bookmark_bar_websites_urls", "urls": [PAGE["url"]]}, [PAGE, FOLDER], True),
    ({"type": "bookmark_bar_websites_urls", "urls": [PAGE["url"]]}, [{**FOLDER, "children": [PAGE]}], False),
    ({"type": "bookmark_bar_websites_urls", "urls": [PAGE["url"]]}, [{**PAGE, "url": PAGE["url"][:-1]}], False),
])
def test_is_expected_bookmarks(desktop_env: Any, deskact: Any, profile: Path, rules: dict[str, Any],
                               bar: list[dict[str, Any]], verdict: bool) -> None:
    roots = _bookmarks(bar)
    (profile / "Bookmarks").write_text(json.dumps({"roots": roots, "version": 1}))
    theirs = desktop_env.passes("chrome", "is_expected_bookmarks", roots, rules)  # get_bookmarks: data['roots']
    ours = deskact.passes({"func": "is_expected_bookmarks", "result": {"type": "bookmarks"}, "expected": _rule(rules)})
    assert ours == theirs == verdict, deskact.feedback


@pytest.mark.parametrize(("urls", "verdict"), [
    (["https://www.nytimes.com/", "https://www.bbc.co.uk/"], True),
    (["https://www.nytimes.com/", "https://www.youtube.com/watch?v=9bZkp7q19f0"], False),
    (["https://m.youtube.com/"], False),
    ([], True),
])
def test_check_history_deleted(desktop_env: Any, deskact: Any, profile: Path, urls: list[str], verdict: bool) -> None:
    with sqlite3.connect(profile / "History") as db:
        db.execute("CREATE TABLE urls (id INTEGER PRIMARY KEY, url TEXT, title TEXT, last_visit_time INTEGER,"
                   " hidden INTEGER)")
        db.executemany("INSERT INTO urls (url, title, last_visit_time, hidden) VALUES (?, 't', 1, 0)",
                       [(u,) for u in urls])
        rows = [list(r) for r in db.execute("SELECT url, title, last_visit_time FROM urls")]  # get_history's query
    rules = {"type": "keywords", "keywords": ["youtube"]}
    theirs = desktop_env.passes("chrome", "check_history_deleted", rows, rules)
    ours = deskact.passes({"func": "check_history_deleted", "result": {"type": "history", "dest": "history.sqlite"},
                           "expected": _rule(rules)})
    assert ours == theirs == verdict, deskact.feedback


@pytest.mark.parametrize(("rules", "prefs", "verdict"), [
    ({"type": "range", "min": 16, "max": 99999}, {"webkit": {"webprefs": {"default_font_size": 20}}}, True),
    ({"type": "range", "min": 16, "max": 99999}, {"webkit": {"webprefs": {"default_font_size": 16}}}, False),
    ({"type": "range", "min": 16, "max": 99999}, {}, False),
    ({"type": "range", "min": 16, "max": 99999}, {"webkit": {"webprefs": {"minimum_font_size": 20}}}, False),
    ({"type": "value", "value": 20}, {"webkit": {"webprefs": {"default_font_size": 20}}}, True),
    ({"type": "value", "value": 20}, {"webkit": {"webprefs": {"default_font_size": 22}}}, False),
])
def test_check_font_size(desktop_env: Any, deskact: Any, profile: Path, rules: dict[str, Any],
                         prefs: dict[str, Any], verdict: bool) -> None:
    (profile / "Preferences").write_text(json.dumps(prefs))
    # get_chrome_font_size: data['webkit']['webprefs'] or its default {16, 13, 13}
    got = prefs.get("webkit", {}).get("webprefs", {"default_fixed_font_size": 13, "default_font_size": 16,
                                                   "minimum_font_size": 13})
    theirs = desktop_env.passes("chrome", "check_font_size", got, rules)
    ours = deskact.passes({"func": "check_font_size", "result": {"type": "chrome_font_size"},
                           "expected": _rule(rules)}, errors_fail=True)
    assert ours == theirs == verdict, deskact.feedback


def test_rules_the_default_meets_are_reported() -> None:
    from deskact.runtime.importers.osworld_metrics import translate_evaluator

    for kind, rules in (("chrome_font_size", {"type": "range", "min": 10, "max": 20}),
                        ("default_search_engine", {"expected": "Google"}),
                        ("enable_do_not_track", {"expected": "false"})):
        func = "check_font_size" if kind == "chrome_font_size" else "exact_match"
        out = translate_evaluator({"func": func, "result": {"type": kind}, "expected": _rule(rules)},
                                  lambda u, n: n, str, str)
        assert out.reasons and not out.judge, (kind, out)


@pytest.mark.parametrize(("active", "verdict"), [
    ("chrome://password-manager/passwords", True),
    ("chrome://password-manager/passwords/", False),  # compare_urls keeps a path's trailing slash
    ("chrome://password-manager/passwords?q=etsy", False),
    ("chrome://password-manager/settings", False),
    ("chrome://settings/passwords", False),
])
def test_is_expected_active_tab_on_a_browser_page(desktop_env: Any, active: str, verdict: bool) -> None:
    from deskact.judges.browser import match_url
    from deskact.runtime.importers.osworld_metrics import translate_evaluator

    rules = {"type": "url", "url": "chrome://password-manager/passwords"}
    out = translate_evaluator({"func": "is_expected_active_tab", "expected": _rule(rules),
                               "result": {"type": "active_url_from_accessTree", "goto_prefix": ""}},
                              lambda u, n: n, str, str)
    [(name, params)] = [next(iter(s.items())) for s in out.judge]
    assert name == "browser.url"
    # the live judge's check on the tab DevTools lists first (the active one)
    ours = match_url([{"url": active}], "active", regex=params["regex"]).passed
    theirs = desktop_env.passes("chrome", "is_expected_active_tab", active, rules)
    assert ours == theirs == verdict
