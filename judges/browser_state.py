"""browser.* judges on a closed profile's state as a whole: the bookmarks bar's exact content, a
history clear of some addresses, the default font size. They close the browser first, as the
profile judges of ``judges/browser.py`` do (Chromium writes these files seconds after a change and
all of them at exit). The checks are pure functions of what is read, tested without a browser."""

from __future__ import annotations

import itertools
from typing import Any

from ..runtime.tasks.steps import StepContext, Verdict, judge
from ..toolkits.browser import profile as prof
from .browser import _closed_profile

DEFAULT_FONT_SIZE = 16
"""Chromium's default font size: its Preferences hold ``webkit.webprefs.default_font_size`` only once
a person changed it."""


def match_bookmark_bar(roots: dict[str, Any] | None, folders: list[str] | None, urls: list[str] | None) -> Verdict:
    """The bar's top level holds exactly these folder names and/or these bookmark URLs (as sets)."""
    if not roots:
        return Verdict.fail("the profile has no bookmarks file")
    bar = roots.get("bookmark_bar") or {}
    children = [c for c in bar.get("children", []) if isinstance(c, dict)]
    for kind, wanted, key in (("folder", folders, "name"), ("url", urls, "url")):
        if wanted is None:
            continue
        found = [str(c.get(key, "")) for c in children if c.get("type") == kind]
        if set(found) != set(wanted):
            what = "folders" if kind == "folder" else "bookmarks"
            return Verdict.fail(f"the bookmarks bar's {what} are {sorted(set(found))}, expected exactly"
                                f" {sorted(set(wanted))}", found=found)
    return Verdict.ok("the bookmarks bar holds " + " and ".join(
        f"{sorted(set(w))}" for w in (folders, urls) if w is not None))


@judge("browser.bookmark_bar")
def browser_bookmark_bar(ctx: StepContext, folders: list[str] | None = None, urls: list[str] | None = None) -> Verdict:
    """The bookmarks bar's top level holds exactly the folders named ``folders`` and/or exactly the
    bookmarks to ``urls`` (compared as sets, addresses as stored); anything inside folders is not
    looked at. Closes the browser first."""
    if folders is None and urls is None:
        raise ValueError("browser.bookmark_bar needs folders or urls")
    return match_bookmark_bar(prof.read_bookmark_roots(_closed_profile(ctx)), folders, urls)


def match_bookmark_folder(roots: dict[str, Any] | None, folder: str, urls: list[list[str]]) -> Verdict:
    """The bar's first top-level folder named ``folder`` holds bookmarks to one address of each list
    of ``urls``, as a set (OSWorld's liked_authors_websites_urls rule)."""
    if not roots:
        return Verdict.fail("the profile has no bookmarks file")
    children = [c for c in (roots.get("bookmark_bar") or {}).get("children", []) if isinstance(c, dict)]
    found = next((c for c in children if c.get("type") == "folder" and c.get("name") == folder), None)
    if found is None:
        return Verdict.fail(f"the bookmarks bar has no folder named {folder!r}",
                            folders=[c.get("name") for c in children if c.get("type") == "folder"])
    inside = {str(c.get("url")) for c in found.get("children", []) if isinstance(c, dict) and c.get("type") == "url"}
    if any(set(choice) == inside for choice in itertools.product(*urls)):
        return Verdict.ok(f"the folder {folder!r} holds one address of each expected page: {sorted(inside)}")
    return Verdict.fail(f"the folder {folder!r} holds {sorted(inside)}: not exactly one address of each of"
                        f" {len(urls)} expected pages ({urls})", found=sorted(inside))


@judge("browser.bookmark_folder")
def browser_bookmark_folder(ctx: StepContext, folder: str, urls: list[list[str]]) -> Verdict:
    """The first folder named ``folder`` at the top of the bookmarks bar holds, directly, bookmarks to
    exactly one address from each list of ``urls`` (compared as sets: a bookmark twice counts once;
    its subfolders are not looked at). Closes the browser first."""
    return match_bookmark_folder(prof.read_bookmark_roots(_closed_profile(ctx)), folder, urls)


def match_history_clear(urls: list[str], keywords: list[str]) -> Verdict:
    left = [url for url in urls if any(k in url for k in keywords)]
    if left:
        return Verdict.fail(f"the history still holds {len(left)} addresses with {keywords}: {', '.join(left[:5])}",
                            left=left)
    return Verdict.ok(f"no address in the history contains any of {keywords}")


@judge("browser.history_clear")
def browser_history_clear(ctx: StepContext, keywords: list[str]) -> Verdict:
    """No address in the history (every row of its ``urls`` table, hidden ones too) contains any of
    ``keywords``. Closes the browser first."""
    return match_history_clear(prof.read_history_urls(_closed_profile(ctx)), keywords)


def match_font_size(prefs: dict[str, Any], equals: float | None, above: float | None, below: float | None) -> Verdict:
    webprefs = (prefs.get("webkit") or {}).get("webprefs")
    size = DEFAULT_FONT_SIZE if webprefs is None else webprefs.get("default_font_size", DEFAULT_FONT_SIZE)
    if not isinstance(size, int | float):
        return Verdict.fail(f"the default font size is stored as {size!r}, not a number")
    wrong = ((equals is not None and size != equals) or (above is not None and not size > above)
             or (below is not None and not size < below))
    bounds = ", ".join(f"{k} {v:g}" for k, v in (("equal to", equals), ("above", above), ("below", below))
                       if v is not None)
    if wrong:
        return Verdict.fail(f"the default font size is {size:g}, expected {bounds}", actual=size)
    return Verdict.ok(f"the default font size is {size:g} ({bounds})")


@judge("browser.font_size")
def browser_font_size(ctx: StepContext, equals: float | None = None, above: float | None = None,
                      below: float | None = None) -> Verdict:
    """The default font size (Settings > Appearance; 16 until changed) equals ``equals`` and/or is
    strictly ``above`` / ``below`` a bound. Closes the browser first."""
    if equals is None and above is None and below is None:
        raise ValueError("browser.font_size needs equals, above or below")
    return match_font_size(prof.read_settings(_closed_profile(ctx)), equals, above, below)
