"""browser.* judges: the task's Chromium, seen from the host.

Two sources, as in a person's browser:

- the live browser over DevTools (``browser.url``, ``browser.tabs``, ``browser.cookie``,
  ``browser.page``): the world is thawed for the question (judges run with it frozen);
- the profile's files (``browser.bookmark``, ``browser.history``, ``browser.setting``): the
  judge first closes the browser the way a person would, because Chromium writes these
  seconds after a change and all of them at exit. So list live judges before profile ones.

``browser.download`` looks for the file in the workspace (where downloads are saved).
The checks are pure functions of the state they read (``match_*``), tested without a browser.
"""

from __future__ import annotations

import fnmatch
import hashlib
import re
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any, Literal

from ..runtime.tasks.helpers import Regex, check_text
from ..runtime.tasks.steps import StepContext, Verdict, judge
from ..toolkits.browser import profile as prof
from ..toolkits.browser import session
from ..toolkits.browser.cdp import CDPError, DevTools
from ..toolkits.browser.chromium import get_pref

_TEXT = ("equals", "contains", "regex")


@contextmanager
def _live(ctx: StepContext) -> Iterator[DevTools]:
    """The running browser's DevTools, with the world running meanwhile."""
    with ctx.world.thawed() if ctx.world is not None else nullcontext():
        where = session.place(ctx)
        tools = session.running(where)
        if tools is None:
            closed = (where.host_profile / "Default" / "Preferences").exists()
            raise CDPError("the browser is not running" + (
                " (closed by the agent, or by an earlier profile judge: list browser.url/tabs/cookie/page"
                " judges before browser.bookmark/history/setting)" if closed else " (no browser.open in the reset?)"))
        try:
            yield tools
        finally:
            tools.close()


def _closed_profile(ctx: StepContext) -> Path:
    """The profile folder after the browser (if running) closed and wrote it."""
    where = session.place(ctx)
    with ctx.world.thawed() if ctx.world is not None else nullcontext():
        session.stop(where)
    return where.host_profile


def _url_check(what: str, url: str, equals: str | None, contains: str | None, regex: str | None) -> Verdict:
    if equals is not None and url.rstrip("/") == equals.rstrip("/"):
        return Verdict.ok(f"{what} is {url}")  # a trailing slash is the same page
    return check_text(what, url, equals, contains, regex)


def match_url(targets: list[dict[str, Any]], which: Literal["active", "any"], equals: str | None = None,
              contains: str | None = None, regex: str | None = None) -> Verdict:
    """The active tab's URL (the first listed) or any tab's matches."""
    if not targets:
        return Verdict.fail("the browser has no open tab")
    if which == "active":
        return _url_check("the active tab's URL", targets[0]["url"], equals, contains, regex)
    verdicts = [_url_check("a tab's URL", t["url"], equals, contains, regex) for t in targets]
    if any(v.passed for v in verdicts):
        return next(v for v in verdicts if v.passed)
    return Verdict.fail(f"no tab's URL matches; open tabs: {', '.join(t['url'] for t in targets)}",
                        urls=[t["url"] for t in targets])


@judge("browser.url", one_of=_TEXT)
def browser_url(ctx: StepContext, equals: str | None = None, contains: str | None = None,
                regex: Regex | None = None, tab: Literal["active", "any"] = "active") -> Verdict:
    """The URL of the active tab (``tab: any``: of some open tab) equals (a trailing slash aside),
    contains or matches."""
    with _live(ctx) as tools:
        return match_url(tools.targets(), tab, equals, contains, regex)


def match_tabs(urls: list[str], contains: list[str], count: int | None, exactly: bool) -> Verdict:
    missing = [want for want in contains if not any(want in url for url in urls)]
    if missing:
        return Verdict.fail(f"no open tab has {', '.join(missing)} in its URL; open tabs: {', '.join(urls)}", urls=urls)
    if exactly:
        extra = [url for url in urls if not any(want in url for want in contains)]
        if extra:
            return Verdict.fail(f"tabs other than the expected ones are open: {', '.join(extra)}", urls=urls)
    if count is not None and len(urls) != count:
        return Verdict.fail(f"{len(urls)} tabs are open, expected {count}: {', '.join(urls)}", urls=urls)
    return Verdict.ok(f"{len(urls)} tabs open: {', '.join(urls)}")


@judge("browser.tabs")
def browser_tabs(ctx: StepContext, contains: list[str] | None = None, count: int | None = None,
                 exactly: bool = False) -> Verdict:
    """Open tabs: one per entry of ``contains`` has it in its URL; ``exactly``: no other tab;
    ``count``: this many tabs."""
    with _live(ctx) as tools:
        urls = [t["url"] for t in tools.targets()]
    return match_tabs(urls, contains or [], count, exactly)


def match_cookie(cookies: list[dict[str, Any]], name: str, domain: str | None, equals: str | None,
                 contains: str | None, regex: str | None, present: bool) -> Verdict:
    found = [c for c in cookies if c.get("name") == name
             and (domain is None or c.get("domain", "").lstrip(".") == domain.lstrip("."))]
    where = f" for {domain}" if domain else ""
    if not present:
        if found:
            return Verdict.fail(f"cookie {name}{where} should be gone but is set to {found[0].get('value')!r}")
        return Verdict.ok(f"no cookie {name}{where}")
    if not found:
        return Verdict.fail(f"there is no cookie {name}{where}; cookies: "
                            + (", ".join(f"{c['name']}@{c.get('domain')}" for c in cookies) or "none"))
    if equals is None and contains is None and regex is None:
        return Verdict.ok(f"cookie {name}{where} is set")
    return check_text(f"cookie {name}{where}", found[0].get("value", ""), equals, contains, regex)


@judge("browser.cookie")
def browser_cookie(ctx: StepContext, name: str, domain: str | None = None, equals: str | None = None,
                   contains: str | None = None, regex: Regex | None = None, present: bool = True) -> Verdict:
    """The browser holds cookie ``name`` (for ``domain``) whose value equals / contains / matches;
    ``present: false``: it holds no such cookie."""
    with _live(ctx) as tools:
        cookies = tools.call("Storage.getCookies").get("cookies", [])
    return match_cookie(cookies, name, domain, equals, contains, regex, present)


_PAGE_TEXT = "document.body ? document.body.innerText : ''"
_ELEMENTS = """(() => Array.from(document.querySelectorAll(%s)).map(e => ({
  text: (e.innerText || e.textContent || '').trim(), value: 'value' in e ? String(e.value) : null,
  checked: 'checked' in e ? e.checked : null})))()"""


def match_elements(selector: str, elements: list[dict[str, Any]], count: int | None, equals: str | None,
                   contains: str | None, regex: str | None, value: str | None, checked: bool | None) -> Verdict:
    if count is not None and len(elements) != count:
        return Verdict.fail(f"{len(elements)} elements match {selector!r}, expected {count}")
    if not elements:
        return Verdict.fail(f"no element on the page matches {selector!r}")
    first = elements[0]
    if value is not None and first.get("value") != value:
        return Verdict.fail(f"{selector!r} holds {first.get('value')!r}, expected {value!r}")
    if checked is not None and first.get("checked") is not checked:
        return Verdict.fail(f"{selector!r} is {'' if first.get('checked') else 'not '}checked")
    if equals is not None or contains is not None or regex is not None:
        return check_text(f"the text of {selector!r}", first.get("text", ""), equals, contains, regex)
    return Verdict.ok(f"{len(elements)} elements match {selector!r}")


@judge("browser.page")
def browser_page(ctx: StepContext, selector: str | None = None, equals: str | None = None,
                 contains: str | None = None, regex: Regex | None = None, count: int | None = None,
                 value: str | None = None, checked: bool | None = None,
                 url_contains: str | None = None) -> Verdict:
    """The live page in the active tab (or the first tab whose URL contains ``url_contains``):
    its text contains / equals / matches; or, with ``selector`` (CSS), the first matching
    element's text does, an input holds ``value``, a box is ``checked``, ``count`` elements match."""
    with _live(ctx) as tools:
        targets = tools.targets()
        if url_contains is not None:
            targets = [t for t in targets if url_contains in t["url"]]
        if not targets:
            return Verdict.fail(f"no tab's URL contains {url_contains!r}" if url_contains else "no open tab")
        target = targets[0]
        if selector is None:
            if equals is None and contains is None and regex is None:
                raise ValueError("browser.page needs selector, or one of equals, contains, regex for the page text")
            return check_text(f"the page {target['url']}", tools.evaluate(target["id"], _PAGE_TEXT) or "",
                              equals, contains, regex)
        import json

        elements = tools.evaluate(target["id"], _ELEMENTS % json.dumps(selector)) or []
    return match_elements(selector, elements, count, equals, contains, regex, value, checked)


def match_bookmark(marks: list[dict[str, Any]], url: str | None, name: str | None, folder: str | None,
                   present: bool) -> Verdict:
    def fits(m: dict[str, Any]) -> bool:
        return ((url is None or m["url"].rstrip("/") == url.rstrip("/"))
                and (name is None or m["name"] == name)
                and (folder is None or m["folder"] == folder or m["folder"].endswith("/" + folder)))

    what = " ".join(x for x in (f"named {name!r}" if name else "", f"to {url}" if url else "",
                                f"in {folder!r}" if folder else "") if x)
    found = [m for m in marks if fits(m)]
    listing = "; ".join(f"{m['name']!r} -> {m['url']} in {m['folder']!r}" for m in marks) or "none"
    if present and not found:
        return Verdict.fail(f"there is no bookmark {what}; bookmarks: {listing}", bookmarks=marks)
    if not present and found:
        return Verdict.fail(f"the bookmark {what} should be gone; bookmarks: {listing}", bookmarks=marks)
    return Verdict.ok(f"bookmark {what} {'exists' if present else 'is absent'}")


@judge("browser.bookmark")
def browser_bookmark(ctx: StepContext, url: str | None = None, name: str | None = None,
                     folder: str | None = None, present: bool = True) -> Verdict:
    """A bookmark with this ``url`` (a trailing slash aside) and/or ``name`` exists (in ``folder``:
    e.g. "Bookmarks bar", "Other bookmarks" or a folder's name); ``present: false``: none does.
    Closes the browser first (it writes its bookmarks at exit)."""
    if url is None and name is None:
        raise ValueError("browser.bookmark needs url or name")
    return match_bookmark(prof.read_bookmarks(_closed_profile(ctx)), url, name, folder, present)


def match_history(pages: list[dict[str, Any]], contains: str, visited: bool) -> Verdict:
    found = [p for p in pages if contains in p["url"]]
    recent = ", ".join(p["url"] for p in pages[:8]) or "nothing"
    if visited and not found:
        return Verdict.fail(f"no page whose URL contains {contains!r} is in the history; latest: {recent}")
    if not visited and found:
        return Verdict.fail(f"{found[0]['url']} is still in the history")
    return Verdict.ok(f"{contains!r} {'is' if visited else 'is not'} in the history")


@judge("browser.history")
def browser_history(ctx: StepContext, contains: str, visited: bool = True) -> Verdict:
    """A page whose URL contains ``contains`` is in the history (``visited: false``: none is, e.g.
    after the agent cleared it). Closes the browser first (it writes its history at exit)."""
    return match_history(prof.read_history(_closed_profile(ctx)), contains, visited)


def match_setting(prefs: dict[str, Any], name: str, equals: Any) -> Verdict:
    try:
        actual = get_pref(prefs, name)
    except KeyError:
        return Verdict.fail(f"the browser setting {name} is not set (it has its default), expected {equals!r}")
    if actual == equals or (isinstance(actual, str) and isinstance(equals, str)
                            and actual.rstrip("/") == equals.rstrip("/")):
        return Verdict.ok(f"{name} = {actual!r}")
    return Verdict.fail(f"the browser setting {name} is {actual!r}, expected {equals!r}", actual=actual)


@judge("browser.setting")
def browser_setting(ctx: StepContext, name: str, equals: Any) -> Verdict:
    """The preference ``name`` (dotted, as in the profile's Preferences file: ``homepage``,
    ``browser.show_home_button``, ``default_search_provider_data.template_url_data.keyword``)
    equals ``equals``. Closes the browser first (it writes its preferences at exit)."""
    return match_setting(prof.read_settings(_closed_profile(ctx)), name, equals)


def match_download(folder: Path, pattern: str, sha256: str | None, contains: str | None) -> Verdict:
    files = sorted(p for p in folder.glob("*") if p.is_file()) if folder.is_dir() else []
    names = [p.name for p in files]
    found = [p for p in files if fnmatch.fnmatch(p.name, pattern) and not p.name.endswith(".crdownload")]
    if not found:
        partial = [n for n in names if n.endswith(".crdownload")]
        return Verdict.fail(f"no downloaded file named {pattern!r} in {folder}"
                            + (f" (still downloading: {', '.join(partial)})" if partial else "")
                            + f"; there: {', '.join(names) or 'nothing'}")
    for path in found:
        data = path.read_bytes()
        if sha256 is not None and hashlib.sha256(data).hexdigest() != sha256.lower():
            continue
        if contains is not None and contains not in data.decode("utf-8", "replace"):
            continue
        return Verdict.ok(f"{path.name} was downloaded ({len(data)} bytes)")
    return Verdict.fail(f"{', '.join(p.name for p in found)} was downloaded but not with the expected content")


@judge("browser.download")
def browser_download(ctx: StepContext, name: str, folder: str = "Downloads", sha256: str | None = None,
                     contains: str | None = None) -> Verdict:
    """A finished download whose file name matches ``name`` (a glob) is in ``folder`` of the
    workspace (Chromium's download folder), optionally with this ``sha256`` or text."""
    if re.search(r"(^|/)\.\.(/|$)", folder):
        raise ValueError(f"browser.download: folder {folder!r} leaves the workspace")
    return match_download(ctx.path(folder), name, sha256, contains)
