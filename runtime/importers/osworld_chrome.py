"""OSWorld's chrome domain -> deskact browser steps: set-up types, Chrome launches, and the metrics
on Chrome's state (the tables ``osworld_setup`` and ``osworld_metrics`` take these in).

OSWorld starts ``google-chrome --remote-debugging-port=1337`` and relays DevTools to port 9222 with
socat for its host; deskact's ``browser.open`` starts the world's Chromium with DevTools on the
world's loopback, so the relay has no counterpart. ``chrome_open_tabs`` opens each URL in a new
tab and closes the start tab, the last one opened shown: the URLs of the ``browser.open`` step.
Offline, a tab at a public address shows Chromium's network error page at that address: only
metrics whose verdict reads no page content are translated (the address, the profile's files).

OSWorld's getters read the profile's files while Chrome runs (a ``pkill chrome`` in postconfig
flushes them first); deskact's profile judges close the browser as a person would, then read.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from .common import Untranslatable, escape, step
from .osworld_metrics_env import MetricEnv, Part, escaped, rules_of

if TYPE_CHECKING:
    from .osworld_setup import Setup

CHROME_BINARIES = frozenset({"google-chrome", "google-chrome-stable", "chromium", "chromium-browser"})
_KILL_CHROME = ({"pkill", "chrome"}, {"pkill", "google-chrome"}, {"pkill", "-f", "chrome"})
CHROMIUM_DEFAULT_FONT_SIZE = 16


def _argv(command: object) -> list[str]:
    if isinstance(command, str):
        try:
            return shlex.split(command)
        except ValueError:  # unbalanced quotes: not a Chrome command; the general translation reports it
            return []
    return [str(a) for a in command] if isinstance(command, list | tuple) else []


def _open_step(into: list[dict[str, Any]]) -> dict[str, Any] | None:
    return next((s["browser.open"] for s in reversed(into) if "browser.open" in s), None)


_PREFS_MERGE = re.compile(r"cd (?P<dir>/home/user/\.config/(?:google-chrome|chromium)/Default) && "
                          r"jq '\. \+ (?P<obj>\{[^']*\})' Preferences > (?P<tmp>[\w.]+) && mv (?P=tmp) Preferences")
"""jq merging an object into the profile's Preferences (``. + {...}``: each of its top-level keys
replaced whole), as OSWorld's set-up edits Chrome's settings before launching it."""


def _preferences_merge(setup: Setup, command: object, into: list[dict[str, Any]], where: str) -> bool:
    found = _PREFS_MERGE.fullmatch(command.strip()) if isinstance(command, str) else None
    if found is None:
        return False
    try:
        merged = json.loads(found.group("obj"))
    except ValueError as exc:
        raise Untranslatable(f"{where} jq edit of Chrome's Preferences: its object is not JSON ({exc})") from exc
    if where != "config" or _open_step(into) is not None or not isinstance(merged, dict) or not merged \
            or any("." in k for k in merged):
        raise Untranslatable(f"{where} jq edit of Chrome's Preferences: only top-level settings before Chrome starts")
    # browser.profile sets a dotted name; a top-level one replaces the key whole, as jq's `+` does.
    into.append(step("reset", "browser.profile", settings=escaped(merged)))
    setup.notes.append(f"{where}: jq's edit of Chrome's Preferences became browser.profile settings"
                       f" ({', '.join(merged)})")
    return True


def chrome_command(setup: Setup, command: object, into: list[dict[str, Any]], where: str) -> bool:
    """True when ``command`` (a launch or execute) starts, relays or stops Chrome, or edits its
    Preferences before it starts, and is translated here; False leaves it to the general translation."""
    if _preferences_merge(setup, command, into, where):
        return True
    argv = _argv(command)
    name = PurePosixPath(argv[0]).name if argv else ""
    if name == "socat" and any("9222" in a for a in argv):
        setup.notes.append(f"{where}: socat relaying Chrome's DevTools to port 9222 dropped (deskact's judges"
                           " reach DevTools inside the world)")
        return True
    if set(argv) in _KILL_CHROME:
        if where != "postconfig":
            raise Untranslatable("config pkill chrome: no browser runs before browser.open")
        # OSWorld kills Chrome so that it writes its profile files before the getters read them.
        if {"browser.close": {}} not in into:
            into.append(step("reset", "browser.close"))
        return True
    if name not in CHROME_BINARIES:
        return False
    flags = [a for a in argv[1:] if not a.startswith("--remote-debugging-port=")]
    if flags:
        raise Untranslatable(f"{where} launch of Chrome with {flags[:3]}: browser.open takes no Chrome flags")
    if where == "postconfig":
        setup.notes.append("postconfig relaunch of Chrome dropped (its getters needed a running Chrome;"
                           " deskact's profile judges read the closed profile)")
        return True
    if _open_step(into) is None:
        into.append(step("reset", "browser.open"))
    return True


def _open_tabs(setup: Setup, p: dict[str, Any], into: list[dict[str, Any]], where: str) -> None:
    urls = p.get("urls_to_open")
    if not isinstance(urls, list) or not urls or not all(isinstance(u, str) for u in urls):
        raise Untranslatable(f"chrome_open_tabs: urls_to_open {str(urls)[:60]!r} is not a list of URLs")
    opened = _open_step(into)
    if where != "config" or opened is None or "browser.open" not in into[-1]:
        raise Untranslatable("chrome_open_tabs: not right after Chrome's launch (browser.open opens the tabs)")
    if opened.get("urls"):
        raise Untranslatable("chrome_open_tabs twice: OSWorld's second call closes the first call's first tab")
    opened["urls"] = escaped(urls)
    opened["active"] = len(urls) - 1  # OSWorld's last new tab is the one shown
    public = [u for u in urls if not u.startswith(("chrome://", "about:", "file://"))]
    if public:
        setup.notes.append("offline, the tabs at public addresses show Chromium's network error page"
                           f" ({', '.join(public)[:200]}); the judges read no page content")


def _browse_history(setup: Setup, p: dict[str, Any], into: list[dict[str, Any]], where: str) -> None:
    items = p.get("history")
    if where != "config" or _open_step(into) is not None:
        raise Untranslatable("update_browse_history after Chrome's launch: browser.profile writes history"
                             " before browser.open")
    if not isinstance(items, list) or not all(isinstance(i, dict) and isinstance(i.get("url"), str) for i in items):
        raise Untranslatable("update_browse_history: history is not a list of {url, title, ...}")
    visits = [{"url": escaped(i["url"]), "title": escaped(str(i.get("title", ""))),
               "hours_ago": float(i.get("visit_time_from_now_in_seconds", 0)) / 3600} for i in items]
    into.append(step("reset", "browser.profile", history=visits))


CONTENT_FREE_JUDGES = frozenset({
    "browser.url", "browser.setting", "browser.bookmark", "browser.bookmark_bar", "browser.history",
    "browser.history_clear", "browser.font_size", "browser.startup_new_tab", "browser.content_setting_stored",
    "browser.extension_path", "answer.infeasible"})
"""Judges whose verdict reads no web page's content: addresses and the profile's files."""


def check_offline(reset: list[dict[str, Any]], judge: list[dict[str, Any]]) -> None:
    """A task whose tabs open public pages converts only when its judges read none of their content
    (offline those tabs show an error page: a download or a copy of the page would judge nothing real)."""
    public = [u for s in reset for u in (s.get("browser.open") or {}).get("urls", [])
              if not str(u).startswith(("chrome://", "about:", "file://"))]
    reading = sorted({name for s in judge for name in s} - CONTENT_FREE_JUDGES)
    if public and reading:
        raise Untranslatable(f"live web pages: the tabs open {', '.join(public)[:120]}, which this machine cannot"
                             f" reach, and the judges ({', '.join(reading)}) check what the agent makes of them")


SETUP_TYPES: dict[str, Callable[[Setup, dict[str, Any], list[dict[str, Any]], str], None]] = {
    "chrome_open_tabs": _open_tabs, "update_browse_history": _browse_history,
}
"""OSWorld's Chrome set-up types -> translation (merged into ``osworld_setup.SETUP_TYPES``)."""

SETUP_REASONS: dict[str, str] = {
    "chrome_close_tabs": "closes a tab over DevTools at set-up: no deskact reset step closes one tab",
}

# -- metrics ---------------------------------------------------------------------------------

PREFERENCE_GETTERS: dict[str, tuple[str, Any, bool]] = {
    "default_search_engine": ("default_search_provider_data.template_url_data.short_name", "Google", False),
    "profile_name": ("profile.name", None, False),
    "enable_do_not_track": ("enable_do_not_track", "false", True),
    "enable_enhanced_safety_browsing": ("safebrowsing.enhanced", "false", True),
}
"""Getter -> (the Preferences key it reads, what it returns when the key is unset, whether it
returns "true"/"false" for the value's truth)."""

FACT_GETTERS: dict[str, str] = {
    "new_startup_page": "browser.startup_new_tab", "data_delete_automacally": "browser.content_setting_stored"}
"""Getters giving "true" for a fact of the Preferences that is not one key's value -> the judge of that fact:
no session settings or restore_on_startup 5; profile.default_content_setting_values stored (in Chromium
since 2025 a fresh profile holds its has_migrated_* notes there, which the judge sets aside)."""

GETTER_KEYS: dict[str, set[str]] = {
    **{g: {"type"} for g in PREFERENCE_GETTERS}, **{g: {"type"} for g in FACT_GETTERS},
    "find_unpacked_extension_path": {"type"},
    "bookmarks": {"type"}, "chrome_font_size": {"type"}, "history": {"type", "dest"},
    "active_url_from_accessTree": {"type", "goto_prefix"},
}
"""Getters the translations below read, with the keys they honour."""


def _exact_match(env: MetricEnv, part: Part, otherwise: Callable[[MetricEnv, Part], None]) -> None:
    """``getter == expected`` on a Preferences getter; other getters go to ``otherwise``."""
    kind = (part.get("result") or {}).get("type")
    if kind in FACT_GETTERS:
        if rules_of(part).get("expected") != "true":
            raise Untranslatable(f"exact_match of {kind} to {rules_of(part).get('expected')!r}: only 'true' is translated")
        env.judge(FACT_GETTERS[kind])
        return
    if kind not in PREFERENCE_GETTERS:
        otherwise(env, part)
        return
    name, unset, as_truth = PREFERENCE_GETTERS[kind]
    expected = rules_of(part).get("expected")
    if as_truth:
        if expected != "true":
            raise Untranslatable(f"exact_match of {kind} to {expected!r}: only 'true' (the setting on) is translated")
        _setting(env, name, True)
        return
    if not isinstance(expected, str) or expected == unset or expected.endswith("/"):
        # browser.setting fails an unset preference (the getter would give its default) and takes a
        # trailing slash as the same address.
        raise Untranslatable(f"exact_match of {kind} to {expected!r}: a value the getter also gives unset")
    _setting(env, name, escaped(expected))


def _setting(env: MetricEnv, name: str, equals: Any) -> None:
    # ``name`` is a param of browser.setting, not MetricEnv.judge's own.
    env.out.judge.append(step("judge", "browser.setting", name=name, equals=equals))


LIKED_AUTHORS = "Liked Authors"
"""The folder name OSWorld's liked_authors_websites_urls rule looks for (fixed in its code)."""


def _is_expected_bookmarks(env: MetricEnv, part: Part) -> None:
    _only_getter(part, "bookmarks")
    rules = rules_of(part)
    kind = rules.get("type")
    if kind == "bookmark_bar_folders_names" and isinstance(rules.get("names"), list):
        env.judge("browser.bookmark_bar", folders=escaped([str(n) for n in rules["names"]]))
    elif kind == "bookmark_bar_websites_urls" and isinstance(rules.get("urls"), list):
        env.judge("browser.bookmark_bar", urls=escaped([str(u) for u in rules["urls"]]))
    elif kind == "liked_authors_websites_urls" and isinstance(rules.get("urls"), list):
        # OSWorld's metric looks for a folder named "Liked Authors" whatever the rule's names say.
        choices = [[str(u)] if isinstance(u, str) else [str(v) for v in u] for u in rules["urls"]]
        env.judge("browser.bookmark_folder", folder=LIKED_AUTHORS, urls=escaped(choices))
        if rules.get("names") not in (None, [LIKED_AUTHORS]):
            env.out.notes.append(f"is_expected_bookmarks: the rule's names {rules.get('names')} are not read by"
                                 f" OSWorld's metric either (it looks for {LIKED_AUTHORS!r})")
    else:
        raise Untranslatable(f"is_expected_bookmarks rule type {kind}: only the bar's folder names or URLs, or a"
                             " folder's URLs")


def _check_history_deleted(env: MetricEnv, part: Part) -> None:
    _only_getter(part, "history")
    rules = rules_of(part)
    if rules.get("type") != "keywords" or not isinstance(rules.get("keywords"), list):
        raise Untranslatable(f"check_history_deleted rule type {rules.get('type')}: only keywords")
    env.judge("browser.history_clear", keywords=escaped([str(k) for k in rules["keywords"]]))


def _check_font_size(env: MetricEnv, part: Part) -> None:
    _only_getter(part, "chrome_font_size")
    rules = rules_of(part)
    if rules.get("type") == "value" and isinstance(rules.get("value"), int | float):
        bounds = {"equals": rules["value"]}
        default_passes = rules["value"] == CHROMIUM_DEFAULT_FONT_SIZE
    elif rules.get("type") == "range" and all(isinstance(rules.get(k), int | float) for k in ("min", "max")):
        bounds = {"above": rules["min"], "below": rules["max"]}
        default_passes = rules["min"] < CHROMIUM_DEFAULT_FONT_SIZE < rules["max"]
    else:
        raise Untranslatable(f"check_font_size rule {str(rules)[:60]}: only a value or a min-max range")
    if default_passes:
        # With webkit.webprefs stored but no default_font_size in it, the metric fails (KeyError)
        # where deskact reads Chromium's default; the two agree only when the default fails too.
        raise Untranslatable("check_font_size: a rule Chromium's default size (16) meets")
    env.judge("browser.font_size", **bounds)


def _is_expected_active_tab(env: MetricEnv, part: Part) -> None:
    result, rules = part.get("result") or {}, rules_of(part)
    url = rules.get("url")
    if (result.get("type") != "active_url_from_accessTree" or result.get("goto_prefix", "https://www.") != ""
            or rules.get("type") != "url" or not isinstance(url, str) or not url.startswith("chrome://")):
        raise Untranslatable("is_expected_active_tab: only a browser page (chrome://) read from the address bar;"
                             " a web page's address needs the live site")
    # compare_urls keeps the path as it is, a lone "/" aside, and lower-cases scheme and host
    # (DevTools lists a browser page's URL in that canonical form).
    scheme_host, _, path = url.partition("://")[2].partition("/")
    base = "chrome://" + scheme_host.lower()
    pattern = re.escape(base) + ("/?" if path == "" else re.escape("/" + path))
    env.judge("browser.url", regex=escape(rf"\A{pattern}\Z"))


def _is_in_list(env: MetricEnv, part: Part, otherwise: Callable[[MetricEnv, Part], None]) -> None:
    """``expected in getter`` on the unpacked extensions' folders; other getters go to ``otherwise``."""
    if (part.get("result") or {}).get("type") != "find_unpacked_extension_path":
        otherwise(env, part)
        return
    expected = rules_of(part).get("expected")
    # The getter gives the string "Google" when it cannot read the list, and `in` then looks for a substring.
    if not isinstance(expected, str) or not expected.startswith("/") or expected in "Google":
        raise Untranslatable(f"is_in_list of find_unpacked_extension_path for {str(expected)[:60]!r}: only an absolute folder")
    env.judge("browser.extension_path", path=env.agent_path(expected))


def _only_getter(part: Part, kind: str) -> None:
    got = (part.get("result") or {}).get("type")
    if got != kind:
        raise Untranslatable(f"result type {got}: {part['func']} is translated for the {kind} getter")


def metrics(exact_match: Callable[[MetricEnv, Part], None],
            is_in_list: Callable[[MetricEnv, Part], None]) -> dict[str, Callable[[MetricEnv, Part], None]]:
    """The chrome metrics, given the table's general ``exact_match`` and ``is_in_list`` (for getters
    not Chrome's)."""
    return {
        "exact_match": lambda env, part: _exact_match(env, part, exact_match),
        "is_in_list": lambda env, part: _is_in_list(env, part, is_in_list),
        "is_expected_bookmarks": _is_expected_bookmarks, "check_history_deleted": _check_history_deleted,
        "check_font_size": _check_font_size, "is_expected_active_tab": _is_expected_active_tab,
    }
