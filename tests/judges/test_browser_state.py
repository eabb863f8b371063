"""browser.bookmark_bar, browser.history_clear and browser.font_size: their checks on snapshots and
the judges on a host-mode profile's files (no browser runs, so the close before reading is a no-op)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from deskact.judges import browser_state as bs
from deskact.runtime.tasks.steps import StepContext, run_judge

BAR = {"bookmark_bar": {"children": [
    {"type": "folder", "name": "Favorites", "children": [{"type": "url", "name": "x", "url": "https://x.test/"}]},
    {"type": "url", "name": "Docs", "url": "https://docs.test/"}]}, "other": {"children": []}}


def test_bookmark_bar_is_compared_as_sets_at_its_top_level() -> None:
    assert bs.match_bookmark_bar(BAR, ["Favorites"], None).passed
    assert bs.match_bookmark_bar(BAR, ["Favorites", "Favorites"], ["https://docs.test/"]).passed
    assert not bs.match_bookmark_bar(BAR, ["Favorites", "Work"], None).passed
    assert not bs.match_bookmark_bar(BAR, None, ["https://x.test/"]).passed  # inside a folder: not on the bar
    assert not bs.match_bookmark_bar(BAR, None, ["https://docs.test"]).passed  # addresses as stored
    assert not bs.match_bookmark_bar(None, ["Favorites"], None).passed


def test_history_clear_reads_every_address() -> None:
    assert bs.match_history_clear(["https://a.test/", "https://b.test/"], ["youtube"]).passed
    failed = bs.match_history_clear(["https://www.youtube.com/watch?v=1", "https://b.test/"], ["youtube"])
    assert not failed.passed and "youtube.com" in failed.feedback


def test_font_size_defaults_to_chromium_s_16() -> None:
    assert not bs.match_font_size({}, None, 16, 100).passed  # 16 is not above 16
    assert bs.match_font_size({}, 16, None, None).passed
    assert bs.match_font_size({"webkit": {"webprefs": {"default_font_size": 20}}}, None, 16, 99999).passed
    assert not bs.match_font_size({"webkit": {"webprefs": {"default_font_size": 99999}}}, None, 16, 99999).passed
    assert not bs.match_font_size({"webkit": {"webprefs": {"minimum_font_size": 20}}}, None, 16, 99).passed


@pytest.fixture
def profile(chromium_profile: Path) -> Path:
    return chromium_profile


def _verdict(ctx: StepContext, name: str, **params: Any) -> bool:
    verdict = run_judge(name, params, ctx)
    assert not verdict.error, verdict.feedback
    return verdict.passed


def test_judges_read_the_profile_files(ctx: StepContext, profile: Path) -> None:
    (profile / "Bookmarks").write_text(json.dumps({"roots": BAR}))
    (profile / "Preferences").write_text(json.dumps({"webkit": {"webprefs": {"default_font_size": 24}}}))
    with sqlite3.connect(profile / "History") as db:
        db.execute("CREATE TABLE urls (id INTEGER PRIMARY KEY, url TEXT, title TEXT, hidden INTEGER)")
        db.execute("INSERT INTO urls (url, title, hidden) VALUES ('https://www.youtube.com/x', 'x', 1)")
    assert _verdict(ctx, "browser.bookmark_bar", folders=["Favorites"])
    assert not _verdict(ctx, "browser.bookmark_bar", urls=[])
    assert _verdict(ctx, "browser.font_size", above=16, below=99999)
    assert not _verdict(ctx, "browser.font_size", equals=16)
    assert not _verdict(ctx, "browser.history_clear", keywords=["youtube"])  # a hidden row counts
    assert _verdict(ctx, "browser.history_clear", keywords=["nytimes"])
