"""A Chromium profile's state as files: bookmarks, history, preferences (read and written).

Written before the browser starts (``browser.profile``) and read after it closed
(judges close it first: Chromium writes bookmarks ~2.5 s and history ~10 s
after a change, and everything at exit). The formats are Chromium's own:
``Default/Bookmarks`` (JSON), ``Default/History`` (SQLite), ``Default/Preferences`` (JSON).
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...runtime.tasks.step_paths import StepPath
from . import chromium

ROOTS = {"bookmark_bar": ("1", "Bookmarks bar"), "other": ("2", "Other bookmarks"), "synced": ("3", "Mobile bookmarks")}
_EPOCH_DELTA_US = 11_644_473_600_000_000  # 1601-01-01 (Chromium's epoch) to 1970-01-01, in microseconds
PENDING_COOKIES = "deskact-cookies.json"
"""Cookies a step gave before the browser ran; set over DevTools once it starts."""


class Bookmark(BaseModel):
    """A bookmark (``url``) or a folder (``children``)."""

    model_config = ConfigDict(extra="forbid")
    name: str
    url: str | None = None
    children: list[Bookmark] | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> Bookmark:
        if (self.url is None) == (self.children is None):
            raise ValueError(f"bookmark {self.name!r} needs exactly one of url (a bookmark) or children (a folder)")
        return self


class Visit(BaseModel):
    """A page in the history."""

    model_config = ConfigDict(extra="forbid")
    url: str
    title: str = ""
    visits: int = Field(1, ge=1)
    typed: int = Field(0, ge=0)
    """How many of the visits were typed in the address bar (they rank in its suggestions)."""
    hours_ago: float = Field(1.0, ge=0)
    """When the last visit was."""


class Cookie(BaseModel):
    """A cookie, as DevTools' ``Network.CookieParam`` (``url`` or ``domain`` + ``path``)."""

    model_config = ConfigDict(extra="forbid")
    name: str
    value: str
    url: str | None = None
    domain: str | None = None
    path: str = "/"
    secure: bool = False
    httpOnly: bool = False
    expires_in_days: float | None = None

    def param(self) -> dict[str, Any]:
        data = self.model_dump(exclude_none=True, exclude={"expires_in_days"})
        if self.expires_in_days is not None:
            data["expires"] = time.time() + self.expires_in_days * 86400
        return data


class SearchEngine(BaseModel):
    """The default search engine: its name, its address-bar keyword, its URL with ``{searchTerms}``."""

    model_config = ConfigDict(extra="forbid")
    name: str
    keyword: str
    url: str


def chrome_time(unix: float) -> int:
    return int(unix * 1_000_000) + _EPOCH_DELTA_US


# -- bookmarks ---------------------------------------------------------------------------

def _node(mark: Bookmark, ids: list[int]) -> dict[str, Any]:
    ids[0] += 1
    node: dict[str, Any] = {"id": str(ids[0]), "guid": str(uuid.uuid4()), "name": mark.name,
                            "date_added": str(chrome_time(time.time())), "date_last_used": "0"}
    if mark.url is not None:
        node.update(type="url", url=mark.url)
    else:
        node.update(type="folder", date_modified="0", children=[_node(c, ids) for c in mark.children or []])
    return node


def write_bookmarks(profile: Path | StepPath, bar: list[Bookmark], other: list[Bookmark]) -> None:
    """Replace the profile's bookmarks. Chromium recomputes the checksum it finds missing."""
    ids = [len(ROOTS) + 1]
    roots = {}
    for key, (node_id, name) in ROOTS.items():
        marks = bar if key == "bookmark_bar" else other if key == "other" else []
        roots[key] = {"id": node_id, "guid": str(uuid.uuid4()), "name": name, "type": "folder",
                      "date_added": str(chrome_time(time.time())), "date_modified": "0",
                      "children": [_node(m, ids) for m in marks]}
    (profile / "Default" / "Bookmarks").write_text(json.dumps({"roots": roots, "version": 1}, indent=1))


def read_bookmarks(profile: Path | StepPath) -> list[dict[str, Any]]:
    """Every bookmark as ``{"name", "url", "folder"}`` (folder: the path of folder names, the root's first)."""
    path = profile / "Default" / "Bookmarks"
    if not path.exists():
        return []
    found: list[dict[str, Any]] = []

    def walk(node: dict[str, Any], trail: list[str]) -> None:
        if node.get("type") == "url":
            found.append({"name": node.get("name", ""), "url": node.get("url", ""), "folder": "/".join(trail)})
        for child in node.get("children", []):
            walk(child, [*trail, node.get("name", "")] if node.get("type") == "folder" else trail)

    for root in json.loads(path.read_text()).get("roots", {}).values():
        if isinstance(root, dict):
            for child in root.get("children", []):
                walk(child, [root.get("name", "")])
    return found


# -- history -----------------------------------------------------------------------------

TYPED_CHAIN = 0x30000001  # PAGE_TRANSITION_TYPED | CHAIN_START | CHAIN_END
LINK_CHAIN = 0x30000000


@contextmanager
def _database_copy(path: Path | StepPath, write: bool) -> Iterator[sqlite3.Connection]:
    """``path`` opened as a private copy (written back if ``write``). SQLite resolves symlinks in a
    path, and a world's files are reached through /proc/PID/root, a link to "/" as the host sees it:
    opened in place, the host's own /tmp would be searched."""
    with tempfile.TemporaryDirectory(prefix="deskact-history-") as tmp:
        copy = Path(tmp) / path.name
        copy.write_bytes(path.read_bytes())  # a StepPath reads through descriptors inside the world
        db = sqlite3.connect(copy)
        try:
            yield db
            db.commit()
        finally:
            db.close()
        if write:
            path.write_bytes(copy.read_bytes())  # into the existing file: it keeps its owner


def write_history(profile: Path | StepPath, entries: list[Visit]) -> None:
    """Add pages to the profile's History database (it exists in the template profile)."""
    with _database_copy(profile / "Default" / "History", write=True) as db:
        for entry in entries:
            last = chrome_time(time.time() - entry.hours_ago * 3600)
            cur = db.execute("INSERT INTO urls(url, title, visit_count, typed_count, last_visit_time, hidden)"
                             " VALUES (?, ?, ?, ?, ?, 0)", (entry.url, entry.title, entry.visits, entry.typed, last))
            for i in range(entry.visits):
                transition = TYPED_CHAIN if i < entry.typed else LINK_CHAIN
                db.execute("INSERT INTO visits(url, visit_time, transition) VALUES (?, ?, ?)",
                           (cur.lastrowid, last - i * 60_000_000, transition))


def read_history(profile: Path | StepPath) -> list[dict[str, Any]]:
    """Visited pages as ``{"url", "title", "visits"}``, most recent first (a closed browser's file)."""
    path = profile / "Default" / "History"
    if not path.exists():
        return []
    with _database_copy(path, write=False) as db:
        rows = db.execute("SELECT url, title, visit_count FROM urls WHERE hidden = 0 ORDER BY last_visit_time DESC")
        return [{"url": u, "title": t, "visits": n} for u, t, n in rows]


def read_history_urls(profile: Path | StepPath) -> list[str]:
    """Every URL of the history's ``urls`` table, hidden ones too (subframes, redirects): what a
    "history is clear of X" check must see."""
    path = profile / "Default" / "History"
    if not path.exists():
        return []
    with _database_copy(path, write=False) as db:
        return [str(url) for (url,) in db.execute("SELECT url FROM urls")]


def read_bookmark_roots(profile: Path | StepPath) -> dict[str, Any] | None:
    """The Bookmarks file's ``roots`` (bookmark_bar, other, synced) as stored, None without a file."""
    path = profile / "Default" / "Bookmarks"
    if not path.exists():
        return None
    roots = json.loads(path.read_text()).get("roots")
    return roots if isinstance(roots, dict) else {}


# -- preferences -------------------------------------------------------------------------

def preferences_path(profile: Path | StepPath) -> Path | StepPath:
    return profile / "Default" / "Preferences"


def write_settings(profile: Path | StepPath, settings: dict[str, Any]) -> None:
    """Set preferences by dotted name (``homepage``, ``browser.show_home_button``, ...)."""
    def change(prefs: dict[str, Any]) -> None:
        for name, value in settings.items():
            chromium.set_pref(prefs, name, value)

    chromium.edit_json(preferences_path(profile), change)


def read_settings(profile: Path | StepPath) -> dict[str, Any]:
    path = preferences_path(profile)
    return json.loads(path.read_text()) if path.exists() else {}


def search_engine_settings(engine: SearchEngine) -> dict[str, Any]:
    """Preferences that make ``engine`` the default search engine (as choosing it in settings does)."""
    return {"default_search_provider_data.template_url_data": {
        "short_name": engine.name, "keyword": engine.keyword, "url": engine.url,
        "id": "1000", "prepopulate_id": 0, "safe_for_autoreplace": False,
        "date_created": str(chrome_time(time.time())), "last_modified": str(chrome_time(time.time())),
        "favicon_url": "", "input_encodings": [], "synced_guid": str(uuid.uuid4()),
    }}


def homepage_settings(url: str) -> dict[str, Any]:
    """The home button shows and opens ``url``; the browser starts on it."""
    return {"homepage": url, "homepage_is_newtabpage": False, "browser.show_home_button": True,
            "session.restore_on_startup": 4, "session.startup_urls": [url]}


def save_pending_cookies(profile: Path | StepPath, cookies: list[Cookie]) -> None:
    path = profile / PENDING_COOKIES
    old = json.loads(path.read_text()) if path.exists() else []
    path.write_text(json.dumps(old + [c.param() for c in cookies]))


def take_pending_cookies(profile: Path | StepPath) -> list[dict[str, Any]]:
    path = profile / PENDING_COOKIES
    if not path.exists():
        return []
    cookies = json.loads(path.read_text())
    path.unlink()
    return cookies
