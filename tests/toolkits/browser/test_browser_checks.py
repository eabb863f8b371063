"""The browser judges' checks on state snapshots (no browser), and the profile files they read."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from deskact.judges import browser as jb
from deskact.toolkits.browser import chromium
from deskact.toolkits.browser import profile as prof

TABS = [{"url": "http://127.0.0.1:8000/team.html"}, {"url": "http://127.0.0.1:8000/index.html"}]


def test_url_active_and_any_tab() -> None:
    assert jb.match_url(TABS, "active", equals="http://127.0.0.1:8000/team.html/").passed
    near = jb.match_url(TABS, "active", equals="http://127.0.0.1:8000/index.html")
    assert not near.passed and "team.html" in near.feedback
    assert jb.match_url(TABS, "any", contains="/index.html").passed
    assert not jb.match_url(TABS, "any", contains="/docs.html").passed
    assert not jb.match_url([], "active", contains="x").passed


def test_tabs_contains_exactly_count() -> None:
    urls = [t["url"] for t in TABS]
    assert jb.match_tabs(urls, ["team", "index"], 2, True).passed
    assert not jb.match_tabs(urls, ["team"], None, True).passed  # another tab is open
    assert not jb.match_tabs(urls, ["team", "docs"], None, False).passed
    assert not jb.match_tabs(urls, [], 3, False).passed


def test_cookie_value_domain_presence() -> None:
    jar = [{"name": "lang", "value": "de", "domain": "127.0.0.1"}, {"name": "sid", "value": "x", "domain": ".a.test"}]
    assert jb.match_cookie(jar, "lang", "127.0.0.1", "de", None, None, True).passed
    assert not jb.match_cookie(jar, "lang", "127.0.0.1", "en", None, None, True).passed
    assert not jb.match_cookie(jar, "lang", "a.test", None, None, None, True).passed
    assert jb.match_cookie(jar, "sid", "a.test", None, None, None, True).passed
    assert not jb.match_cookie(jar, "sid", None, None, None, None, False).passed
    assert jb.match_cookie(jar, "gone", None, None, None, None, False).passed


def test_elements_text_value_checked_count() -> None:
    els = [{"text": "Saved: de, compact", "value": None, "checked": None}]
    assert jb.match_elements("#s", els, None, "Saved: de, compact", None, None, None, None).passed
    assert not jb.match_elements("#s", els, None, "Saved: de, full", None, None, None, None).passed
    assert not jb.match_elements("#s", [], None, None, None, None, None, None).passed
    box = [{"text": "", "value": "on", "checked": False}]
    assert not jb.match_elements("#c", box, None, None, None, None, None, True).passed
    assert jb.match_elements("#c", box, 1, None, None, None, "on", False).passed


def test_bookmark_url_name_folder() -> None:
    marks = [{"name": "Docs", "url": "http://h/docs.html", "folder": "Bookmarks bar"},
             {"name": "Desk", "url": "http://h/desk.html", "folder": "Bookmarks bar/Products"}]
    assert jb.match_bookmark(marks, "http://h/desk.html", None, "Products", True).passed
    assert not jb.match_bookmark(marks, "http://h/desk.html", None, "Bookmarks bar", True).passed
    assert not jb.match_bookmark(marks, "http://h/docs.htm", None, None, True).passed
    assert not jb.match_bookmark(marks, None, "Docs", None, False).passed
    assert jb.match_bookmark(marks, None, "Old", None, False).passed


def test_history_and_setting() -> None:
    pages = [{"url": "http://h/changelog.html", "title": "", "visits": 1}]
    assert jb.match_history(pages, "/changelog", True).passed
    assert not jb.match_history(pages, "/docs", True).passed
    assert not jb.match_history(pages, "/changelog", False).passed
    prefs = {"homepage": "http://h/start.html", "webkit": {"webprefs": {"default_font_size": 20}}}
    assert jb.match_setting(prefs, "webkit.webprefs.default_font_size", 20).passed
    assert not jb.match_setting(prefs, "webkit.webprefs.default_font_size", 16).passed
    assert not jb.match_setting(prefs, "browser.show_home_button", True).passed  # default: unset
    assert jb.match_setting(prefs, "homepage", "http://h/start.html/").passed


def test_download_name_content_partial(tmp_path: Path) -> None:
    (tmp_path / "report-q3.csv").write_text("north,1430\n")
    (tmp_path / "tool.txt.crdownload").write_text("partial")
    assert jb.match_download(tmp_path, "report-q3.csv", None, "1430").passed
    assert not jb.match_download(tmp_path, "report-q3.csv", None, "1200").passed
    assert not jb.match_download(tmp_path, "report-q2.csv", None, None).passed
    unfinished = jb.match_download(tmp_path, "tool.txt*", None, None)
    assert not unfinished.passed and "still downloading" in unfinished.feedback
    assert not jb.match_download(tmp_path / "missing", "*", None, None).passed


def test_bookmarks_file_round_trip(tmp_path: Path) -> None:
    (tmp_path / "Default").mkdir()
    prof.write_bookmarks(tmp_path, [prof.Bookmark(name="Docs", url="http://h/docs"),
                                    prof.Bookmark(name="Work", children=[prof.Bookmark(name="CRM", url="http://crm")])],
                         [prof.Bookmark(name="Later", url="http://h/later")])
    assert prof.read_bookmarks(tmp_path) == [
        {"name": "Docs", "url": "http://h/docs", "folder": "Bookmarks bar"},
        {"name": "CRM", "url": "http://crm", "folder": "Bookmarks bar/Work"},
        {"name": "Later", "url": "http://h/later", "folder": "Other bookmarks"},
    ]
    with pytest.raises(ValueError, match="exactly one of url"):
        prof.Bookmark(name="both", url="http://x", children=[])


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Chromium is not installed")
def test_history_written_into_the_template_database(tmp_path: Path) -> None:
    shutil.copytree(chromium.template_profile(), tmp_path / "p")
    prof.write_history(tmp_path / "p", [prof.Visit(url="http://h/old", hours_ago=48),
                                        prof.Visit(url="http://h/new", title="New", visits=3, typed=1)])
    pages = prof.read_history(tmp_path / "p")
    assert [p["url"] for p in pages] == ["http://h/new", "http://h/old"]
    assert pages[0]["visits"] == 3


def test_pref_paths() -> None:
    prefs: dict = {}
    chromium.set_pref(prefs, "a.b.c", 1)
    assert chromium.get_pref(prefs, "a.b.c") == 1
    with pytest.raises(KeyError):
        chromium.get_pref(prefs, "a.x")
