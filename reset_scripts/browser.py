"""browser.* reset steps: the task's Chromium, its profile and its tabs.

``browser.profile`` writes bookmarks, history and settings into the profile
before the browser starts (cookies are kept until it does); ``browser.open``
starts Chromium in the task's world on its display and opens the tabs;
``browser.close`` (a cleanup or a step between) closes it as a person would.
"""

from __future__ import annotations

import subprocess
import time
from typing import Any

from ..runtime.screen.drawn import wait_drawn
from ..runtime.tasks.helpers import fixture, step_path
from ..runtime.tasks.step_paths import StepPath
from ..runtime.tasks.steps import StepContext, StepFailed, reset_step
from ..toolkits.browser import profile as prof
from ..toolkits.browser import session
from ..toolkits.browser.cdp import CDPError, _socket_in
from . import _x11
from .apps.launcher import SETTLE_TIMEOUT_S
from .files import copy_in


@reset_step("browser.profile")
def browser_profile(
    ctx: StepContext,
    bookmarks: list[prof.Bookmark] | None = None,
    other_bookmarks: list[prof.Bookmark] | None = None,
    history: list[prof.Visit] | None = None,
    cookies: list[prof.Cookie] | None = None,
    homepage: str | None = None,
    search_engine: prof.SearchEngine | None = None,
    settings: dict[str, Any] | None = None,
) -> None:
    """Give the task's browser profile bookmarks (on the bar, or in "Other bookmarks"), history,
    cookies, a homepage, a default search engine and any preference by its dotted name
    (``settings: {"bookmark_bar.show_on_all_tabs": true}``). Runs before ``browser.open``."""
    where = session.ensure_profile(ctx)
    if session.running(where) is not None and (bookmarks or other_bookmarks or history or homepage
                                               or search_engine or settings):
        raise StepFailed("browser.profile: the browser already runs; put this step before browser.open")
    if bookmarks is not None or other_bookmarks is not None:
        prof.write_bookmarks(where.host_profile, bookmarks or [], other_bookmarks or [])
    if history:
        prof.write_history(where.host_profile, history)
    prefs: dict[str, Any] = {}
    if homepage is not None:
        prefs.update(prof.homepage_settings(homepage))
    if search_engine is not None:
        prefs.update(prof.search_engine_settings(search_engine))
    prefs.update(settings or {})
    if prefs:
        prof.write_settings(where.host_profile, prefs)
    if cookies:
        prof.save_pending_cookies(where.host_profile, cookies)
    if where.world is not None and isinstance(where.host_profile, StepPath):  # a world's profile
        agent = where.world.uid + where.world.agent_id
        for path in where.host_profile.rglob("*"):
            path.lchown(agent, agent)  # through descriptors in the world: links stay links


@reset_step("browser.open")
def browser_open(ctx: StepContext, urls: list[str] | None = None, active: int = 0, timeout: float = 30) -> None:
    """Start the task's Chromium on its display with a tab for each of ``urls`` (none: one blank tab),
    tab ``active`` shown, each loaded. Pages that reach outside the world fail fast (no network)."""
    urls = list(urls or [])
    if urls and not 0 <= active < len(urls):
        raise StepFailed(f"browser.open: active = {active} but there are {len(urls)} urls")
    where, tools = session.start(ctx, timeout)
    try:
        cookies = prof.take_pending_cookies(where.host_profile)
        if cookies:
            tools.call("Storage.setCookies", {"cookies": cookies})
        first = tools.targets()[0]["id"]
        ids = []
        for i, url in enumerate(urls):
            if i == 0:
                session.navigate(tools, first, url)
                ids.append(first)
            else:
                ids.append(tools.call("Target.createTarget", {"url": url})["targetId"])
        for target_id, url in zip(ids, urls):
            session.wait_loaded(tools, target_id, url, timeout)
        if ids:
            tools.call("Target.activateTarget", {"targetId": ids[active]})
    except CDPError as exc:
        raise StepFailed(f"browser.open: {exc}") from None
    finally:
        tools.close()
    # Loaded is not drawn: the first screenshot must show the page as a person would see it.
    window = _x11.find_window(ctx.display or "", "Chromium")
    if window is not None:
        wait_drawn(ctx.display or "", window.id, SETTLE_TIMEOUT_S)


@reset_step("browser.close", live=True)
def browser_close(ctx: StepContext, timeout: float = 15) -> None:
    """Close the task's browser as a person would (its profile is written); none running is fine."""
    session.stop(session.place(ctx), timeout)


@reset_step("browser.serve")
def browser_serve(ctx: StepContext, dir: str, port: int = 8000, timeout: float = 20) -> None:
    """Serve the suite's folder ``dir`` (static files) at ``http://127.0.0.1:PORT/`` inside the task's
    world (Python's http.server, as the world's root, gone with the world); waits until it answers."""
    if ctx.world is None:
        raise StepFailed(f"browser.serve needs a world (task {ctx.task_id or '?'} has none): a server on the"
                         " host's loopback would be every worker's")
    source = fixture(ctx, dir)  # inside the suite's folder, never a path the agent reaches
    if not source.is_dir():
        raise StepFailed(f"browser.serve: {dir!r} is not a folder of the suite's files ({ctx.files})")
    root = f"/srv/deskact-site-{port}"
    # Copied through descriptors inside the world (files.copy's way): a link there never leads out.
    copy_in(ctx, source, step_path(ctx, root, "browser.serve"))
    ctx.world.spawn(["python3", "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", root],
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + timeout
    while True:
        try:
            _socket_in(ctx.world.pid, port).close()
            return
        except CDPError:
            if time.monotonic() > deadline:
                raise StepFailed(f"browser.serve: nothing answered on port {port} within {timeout:g} s") from None
            time.sleep(0.02)
