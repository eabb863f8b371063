"""browser.* judges on single facts of a closed profile's Preferences file that are not one setting's
value: the startup page left at the New Tab page, a site-data default stored, an extension loaded
from a folder. Each reads ``Default/Preferences`` as JSON after closing the browser (Chromium writes
its preferences at exit), and each check is a pure function of the file's text, tested without a
browser.

A Preferences file that is missing, is not JSON or is shaped other than Chromium writes it fails the
check (it names why): nothing about the setting can be read from it.
"""

from __future__ import annotations

import json
from typing import Any

from ..runtime.tasks.helpers import clip
from ..runtime.tasks.steps import StepContext, Verdict, judge
from ..toolkits.browser import profile as prof
from .browser import _closed_profile

NEW_TAB_PAGE = 5
"""``session.restore_on_startup`` for "Open the New Tab page" (1: continue where you left off,
4: open a specific set of pages)."""

MIGRATION_MARKER = "has_migrated_"
"""Chromium (since 2025) stores booleans named ``has_migrated_*`` among the content settings'
defaults on every start, in a fresh profile too: a note of its own, not a default a person set."""


Text = str | bytes | None
"""The Preferences file's content (bytes as read: json detects their encoding), None when absent."""


def _prefs(text: Text) -> tuple[dict[str, Any] | None, str]:
    if text is None:
        return None, "the profile has no Preferences file"
    try:
        data = json.loads(text)
    except ValueError as exc:  # UnicodeDecodeError too
        return None, f"the Preferences file is not JSON ({clip(str(exc), 80)})"
    if not isinstance(data, dict):
        return None, f"the Preferences file holds a {type(data).__name__}, not an object"
    return data, ""


def match_startup_new_tab(text: Text) -> Verdict:
    """The browser starts on the New Tab page: no ``session`` settings are stored at all (a fresh
    profile's state), or ``session.restore_on_startup`` is 5."""
    prefs, why = _prefs(text)
    if prefs is None:
        return Verdict.fail(why)
    if "session" not in prefs:
        return Verdict.ok("no startup settings are stored: the browser starts on the New Tab page")
    session = prefs["session"]
    if not isinstance(session, dict):
        return Verdict.fail(f"the startup settings (session) are stored as {clip(repr(session), 60)}, not an object")
    value = session.get("restore_on_startup")
    # JSON numbers compare as numbers (5.0 is 5); true is not 5.
    if isinstance(value, int | float) and not isinstance(value, bool) and value == NEW_TAB_PAGE:
        return Verdict.ok("the browser starts on the New Tab page (restore_on_startup 5)")
    pages = session.get("startup_urls")
    return Verdict.fail(f"on startup the browser does not open the New Tab page: restore_on_startup is"
                        f" {clip(repr(value), 40) if 'restore_on_startup' in session else 'unset'}"
                        + (f", startup pages {clip(repr(pages), 120)}" if pages else ""), actual=value)


def match_content_setting_stored(text: Text) -> Verdict:
    """A default of some kind of site data is stored (``profile.default_content_setting_values``,
    Chromium's migration markers aside): e.g. cookies 4, "delete data sites saved when all windows
    close"."""
    prefs, why = _prefs(text)
    if prefs is None:
        return Verdict.fail(why)
    if "profile" not in prefs:
        return Verdict.fail("the Preferences hold no profile settings")
    profile = prefs["profile"]
    if not isinstance(profile, dict):
        return Verdict.fail(f"the profile settings are stored as {clip(repr(profile), 60)}, not an object")
    values = profile.get("default_content_setting_values")
    if values is None:
        return Verdict.fail("no site-data default is stored (every kind of site data has its default)")
    if isinstance(values, dict) and values and all(str(k).startswith(MIGRATION_MARKER) for k in values):
        return Verdict.fail("no site-data default is stored, only Chromium's migration notes"
                            f" ({', '.join(sorted(values))})")
    return Verdict.ok(f"site-data defaults are stored: {clip(json.dumps(values, sort_keys=True), 160)}")


def match_extension_path(text: Text, path: str) -> Verdict:
    """An extension is installed from the folder ``path`` (the profile's ``extensions.settings`` lists
    it, as "Load unpacked" does). Every entry there must name its folder: one without a ``path``
    makes the list unreadable."""
    prefs, why = _prefs(text)
    if prefs is None:
        return Verdict.fail(why)
    extensions = prefs.get("extensions", {})
    settings = extensions.get("settings", {}) if isinstance(extensions, dict) else None
    if not isinstance(settings, dict):
        return Verdict.fail("the Preferences' extension settings are not an object")
    paths = []
    for ext_id, entry in settings.items():
        if not isinstance(entry, dict) or "path" not in entry:
            return Verdict.fail(f"the extension entry {clip(str(ext_id), 40)} names no folder (path): the list of"
                                " installed extensions cannot be read")
        paths.append(entry["path"])
    if path in paths:
        return Verdict.ok(f"an extension is installed from {path}")
    return Verdict.fail(f"no extension is installed from {path}; installed from: "
                        f"{clip(', '.join(str(p) for p in paths), 300) or 'nothing'}", paths=paths)


def _preferences_text(ctx: StepContext) -> bytes | None:
    path = prof.preferences_path(_closed_profile(ctx))
    return path.read_bytes() if path.exists() else None


@judge("browser.startup_new_tab")
def browser_startup_new_tab(ctx: StepContext) -> Verdict:
    """On startup the browser opens the New Tab page: ``session.restore_on_startup`` is 5, or no
    startup settings are stored at all. Closes the browser first."""
    return match_startup_new_tab(_preferences_text(ctx))


@judge("browser.content_setting_stored")
def browser_content_setting_stored(ctx: StepContext) -> Verdict:
    """Some kind of site data has a default other than Chromium's own (Settings > Privacy > Site
    settings, e.g. "delete data sites saved when you close all windows"): the profile stores
    ``profile.default_content_setting_values``, Chromium's ``has_migrated_*`` notes aside. Closes the
    browser first."""
    return match_content_setting_stored(_preferences_text(ctx))


@judge("browser.extension_path")
def browser_extension_path(ctx: StepContext, path: str) -> Verdict:
    """An extension is installed from the folder ``path`` (an absolute path in the world, as "Load
    unpacked" stores it), and every installed extension's entry names its folder. Closes the browser
    first."""
    return match_extension_path(_preferences_text(ctx), path)
