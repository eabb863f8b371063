"""Kernel side of the browser toolkit: the task's Chromium through Playwright over DevTools.

The task's Chromium (started by the ``browser.open`` reset step) listens on a
loopback port of the world that it writes into its profile's ``DevToolsActivePort``; Playwright connects to it with
``connect_over_cdp`` (no browser of its own is downloaded or started).

Playwright's sync API refuses to run where an asyncio loop is running, and
ipykernel runs every cell inside one; so one daemon thread owns Playwright and
every call is handed to it. Nothing starts at import: the kernel's set-up
starts the thread and the driver, the first call connects.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from . import chromium

EXPORTS = ["browser"]
ACTION_TIMEOUT_MS = 15_000
NAVIGATION_TIMEOUT_MS = 60_000
CONNECT_TIMEOUT_MS = 60_000


def _profile() -> Path:
    """The task's profile: in the world's /tmp, or (no world) the host's per-display one."""
    world = Path(chromium.PROFILE_IN_WORLD)
    if world.exists():
        return world
    return Path(chromium.host_mode_profile(os.environ.get("DISPLAY")))


def _download_folder() -> Path:
    """Where Chromium saves downloads: its setting (the task's profile sets ~/Downloads), else ~/Downloads."""
    try:
        prefs = json.loads((_profile() / "Default" / "Preferences").read_text())
        return Path(prefs["download"]["default_directory"])
    except (OSError, ValueError, KeyError, TypeError):
        return Path.home() / "Downloads"


class BrowserError(RuntimeError):
    """A browser call could not be done; the message says what was there instead."""


class Browser:
    """The Chromium window on the screen, driven through the page (DOM) instead of pixels.

    Tabs are numbered from 0 as ``browser.tabs()`` lists them (a stable order, not always the
    window's left to right); calls act on the active tab (the one shown). Selectors are CSS (``"#id"``, ``"button.primary"``) or Playwright
    selectors (``"text=Save"``, ``"role=button[name='OK']"``); they see inside shadow DOM.
    Actions wait up to 15 s for their element (page loads up to 60 s) and raise
    ``BrowserError`` if it never comes.
    The gui toolkit (mouse, keyboard, screen) works on the same window.
    """

    def __init__(self) -> None:
        self._pool: ThreadPoolExecutor | None = None
        self._pw: Any = None
        self._browser: Any = None
        self._devtools_port = 0
        self._target_ids: dict[Any, str] = {}

    # -- plumbing: everything Playwright runs on its own thread ------------------------

    def _run(self, fn: Any, *args: Any) -> Any:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="deskact-browser")
        return self._pool.submit(self._guarded, fn, *args).result()

    def _warm_up(self) -> None:
        """Start Playwright's driver on its thread without waiting (the kernel's set-up, before the
        task): the agent's first call then only connects to the browser."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="deskact-browser")
        self._pool.submit(self._start_driver)

    def _start_driver(self) -> None:
        if self._pw is None:
            from playwright.sync_api import sync_playwright

            self._pw = sync_playwright().start()

    def _guarded(self, fn: Any, *args: Any) -> Any:
        from playwright.sync_api import Error as PlaywrightError

        try:
            return fn(*args)
        except PlaywrightError as exc:
            message = str(exc).split("\nCall log:", 1)[0].strip()
            raise BrowserError(message) from None

    def _connect(self) -> Any:
        if self._browser is not None and self._browser.is_connected():
            return self._browser
        port = self._port()
        if port is None:
            # Not started from here: the kernel's address-space limit (soft = hard) is too small for
            # Chromium, which reserves tens of GB of address space; a reset step starts it outside.
            raise BrowserError("no browser is running in this task (the task starts one when it needs it;"
                               " it may have been closed)")
        self._start_driver()
        self._browser = self._pw.chromium.connect_over_cdp(f"http://127.0.0.1:{port}", timeout=CONNECT_TIMEOUT_MS)
        self._devtools_port = port
        self._target_ids.clear()
        # Playwright takes downloads over (into its own folder, under made-up names); give them back
        # to Chromium, so a download started by a click, by code or by the mouse lands where the
        # browser's settings say (the workspace's Downloads) under its own name.
        cdp = self._browser.new_browser_cdp_session()
        cdp.send("Browser.setDownloadBehavior", {"behavior": "default"})
        cdp.detach()
        return self._browser

    @staticmethod
    def _port() -> int | None:
        try:
            port = int((_profile() / chromium.PORT_FILE).read_text().split("\n", 1)[0])
            urllib.request.urlopen(f"http://127.0.0.1:{port}/json/version", timeout=5).read()
            return port
        except (OSError, ValueError):
            return None

    def _pages(self) -> list[Any]:
        browser = self._connect()
        pages = [p for ctx in browser.contexts for p in ctx.pages]
        if not pages:
            raise BrowserError("the browser has no open tab; open one with browser.new_tab(url)")
        return pages

    def _target_id(self, page: Any) -> str:
        if page not in self._target_ids:
            cdp = page.context.new_cdp_session(page)
            self._target_ids[page] = cdp.send("Target.getTargetInfo")["targetInfo"]["targetId"]
            cdp.detach()
        return self._target_ids[page]

    def _page(self) -> Any:
        """The tab shown in the window (the user may have switched with the mouse). Every tab of a
        window reports itself visible here, but DevTools lists tabs most recently activated first."""
        pages = self._pages()
        url = f"http://127.0.0.1:{self._devtools_port}/json/list"
        listed = json.loads(urllib.request.urlopen(url, timeout=10).read())
        active = next((t["id"] for t in listed if t.get("type") == "page"), None)
        for page in pages:
            if self._target_id(page) == active:
                return self._ready(page)
        return self._ready(pages[-1])

    @staticmethod
    def _ready(page: Any) -> Any:
        page.set_default_timeout(ACTION_TIMEOUT_MS)
        page.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
        return page

    def _locator(self, page: Any, selector: str | None, text: str | None, label: str | None = None,
                 exact: bool = False) -> Any:
        given = [k for k, v in (("selector", selector), ("text", text), ("label", label)) if v is not None]
        if len(given) != 1:
            raise BrowserError(f"give exactly one of selector, text or label (got {given or 'none'})")
        if selector is not None:
            loc = page.locator(selector)
        elif text is not None:
            loc = page.get_by_text(text, exact=exact)
        else:
            loc = page.get_by_label(label, exact=exact)
        count = loc.count()
        if count == 0:
            loc.first.wait_for(state="attached")  # waits, then raises with Playwright's reason
            return loc.first
        return loc.first if count > 1 else loc

    # -- navigation and tabs ----------------------------------------------------------

    def open(self, url: str) -> str:
        """Load ``url`` in the active tab and wait for it; returns the page title."""
        def go() -> str:
            page = self._page()
            page.goto(url, wait_until="load")
            return page.title()
        return self._run(go)

    def new_tab(self, url: str = "about:blank") -> int:
        """Open ``url`` in a new tab, make it the active one; returns its tab number."""
        def go() -> int:
            pages = self._pages()
            page = self._ready(pages[0].context.new_page())
            if url != "about:blank":
                page.goto(url, wait_until="load")
            page.bring_to_front()
            return self._pages().index(page)
        return self._run(go)

    def tabs(self) -> list[dict[str, Any]]:
        """Every tab as ``{"index", "title", "url", "active"}``."""
        def look() -> list[dict[str, Any]]:
            pages = self._pages()
            active = self._page()
            return [{"index": i, "title": p.title(), "url": p.url, "active": p is active} for i, p in enumerate(pages)]
        return self._run(look)

    def switch(self, tab: int | str) -> dict[str, Any]:
        """Make a tab the active one: by number, or the first whose title or URL contains ``tab``."""
        def go() -> dict[str, Any]:
            pages = self._pages()
            if isinstance(tab, int):
                if not 0 <= tab < len(pages):
                    raise BrowserError(f"there is no tab {tab}; tabs are 0..{len(pages) - 1}")
                page = pages[tab]
            else:
                found = [p for p in pages if tab.lower() in p.title().lower() or tab.lower() in p.url.lower()]
                if not found:
                    raise BrowserError(f"no tab's title or URL contains {tab!r}; tabs: "
                                       + "; ".join(f"{i}: {p.title()} <{p.url}>" for i, p in enumerate(pages)))
                page = found[0]
            page.bring_to_front()
            return {"index": pages.index(page), "title": page.title(), "url": page.url}
        return self._run(go)

    def close_tab(self, tab: int | None = None) -> None:
        """Close tab number ``tab`` (default: the active one)."""
        def go() -> None:
            pages = self._pages()
            page = self._page() if tab is None else pages[tab]
            page.close()
        self._run(go)

    def back(self) -> str:
        """Go back in the active tab's history; returns the URL now shown."""
        def go() -> str:
            page = self._page()
            page.go_back(wait_until="commit")
            with contextlib.suppress(Exception):  # a page restored from cache sends no load event
                page.wait_for_load_state("load", timeout=ACTION_TIMEOUT_MS)
            return page.url
        return self._run(go)

    def reload(self) -> None:
        """Reload the active tab."""
        self._run(lambda: self._page().reload())

    @property
    def url(self) -> str:
        """The active tab's URL."""
        return self._run(lambda: self._page().url)

    @property
    def title(self) -> str:
        """The active tab's title."""
        return self._run(lambda: self._page().title())

    # -- reading ----------------------------------------------------------------------

    def text(self, selector: str | None = None) -> str:
        """The visible text of the page (or of the first element matching ``selector``)."""
        return self._run(lambda: self._page().locator(selector or "body").first.inner_text())

    def accessibility(self, selector: str | None = None) -> str:
        """The accessibility tree of the page (or of an element) as indented YAML: roles, names,
        values and states, e.g. ``- button "Save"`` or ``- textbox "Email": a@b.c``."""
        return self._run(lambda: self._page().locator(selector or "body").first.aria_snapshot())

    def query(self, selector: str, limit: int = 50) -> list[dict[str, Any]]:
        """Elements matching a CSS selector: ``{"tag", "text", "attrs", "value", "checked", "visible"}``."""
        script = """(els, limit) => els.slice(0, limit).map(e => ({
            tag: e.tagName.toLowerCase(), text: (e.innerText || e.textContent || '').trim().slice(0, 300),
            attrs: Object.fromEntries([...e.attributes].map(a => [a.name, a.value])),
            value: 'value' in e ? e.value : null, checked: 'checked' in e ? e.checked : null,
            visible: !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length)}))"""
        return self._run(lambda: self._page().locator(selector).evaluate_all(script, limit))

    def evaluate(self, script: str) -> Any:
        """Run JavaScript in the active tab and return its (JSON) value, e.g. ``"document.title"``.
        Waits until the tab's document is parsed: a click's navigation has only committed when
        ``click`` returns, and a script run then would see a half-built page."""
        def go() -> Any:
            page = self._page()
            page.wait_for_load_state("domcontentloaded")
            return page.evaluate(script)
        return self._run(go)

    def screenshot(self, full_page: bool = False) -> Any:
        """A PIL image of the active tab's page (not the window around it)."""
        from PIL import Image

        data = self._run(lambda: self._page().screenshot(full_page=full_page))
        return Image.open(io.BytesIO(data))

    # -- acting -----------------------------------------------------------------------

    def click(self, selector: str | None = None, *, text: str | None = None, exact: bool = False) -> None:
        """Click the element matching ``selector``, or the one whose text contains ``text``
        (``exact=True``: equals it); waits for navigation it starts to commit."""
        self._run(lambda: self._locator(self._page(), selector, text, exact=exact).click())

    def fill(self, value: str, selector: str | None = None, *, label: str | None = None,
             exact: bool = False) -> None:
        """Type ``value`` into the input matching ``selector`` or labelled ``label`` (replacing its text)."""
        self._run(lambda: self._locator(self._page(), selector, None, label, exact).fill(value))

    def select(self, option: str, selector: str | None = None, *, label: str | None = None) -> None:
        """Choose ``option`` (its value or visible text) in a ``<select>``."""
        self._run(lambda: self._locator(self._page(), selector, None, label).select_option(option))

    def check(self, selector: str | None = None, *, label: str | None = None, checked: bool = True) -> None:
        """Tick (or with ``checked=False`` untick) a checkbox or radio button."""
        self._run(lambda: self._locator(self._page(), selector, None, label).set_checked(checked))

    def press(self, key: str) -> None:
        """Press a key in the page, e.g. ``"Enter"``, ``"Control+A"``."""
        self._run(lambda: self._page().keyboard.press(key))

    def wait_for(self, text: str | None = None, selector: str | None = None, timeout: float = 10) -> None:
        """Wait until ``text`` or an element matching ``selector`` is visible in the active tab."""
        def go() -> None:
            loc = self._locator(self._page(), selector, text)
            loc.wait_for(state="visible", timeout=timeout * 1000)
        self._run(go)

    def download(self, selector: str | None = None, *, text: str | None = None, to: str | None = None,
                 timeout: float = 30) -> str:
        """Click a link or button that downloads a file and wait until Chromium saved it (in its
        download folder, ``~/Downloads``); with ``to``, move it there. Returns the file's path."""
        folder = _download_folder()
        before = set(folder.iterdir()) if folder.is_dir() else set()
        self._run(lambda: self._locator(self._page(), selector, text).click())
        deadline = time.monotonic() + timeout
        while True:
            new = set(folder.iterdir()) - before if folder.is_dir() else set()
            done = [p for p in new if not p.name.endswith(".crdownload") and p.is_file()]
            if done and not any(p.name.endswith(".crdownload") for p in new):
                break
            if time.monotonic() > deadline:
                raise BrowserError(f"no download finished in {folder} within {timeout:g} s of the click")
            time.sleep(0.05)
        saved = done[0]
        if to is not None:
            target = Path(to).expanduser()
            target.parent.mkdir(parents=True, exist_ok=True)
            saved = Path(shutil.move(saved, target))
        return str(saved)

    def __repr__(self) -> str:
        return "<browser: the task's Chromium (browser.tabs(), browser.text(), browser.click(...))>"


browser = Browser()

__all__ = ["Browser", "BrowserError", "browser"]
