"""The task's Chromium as host code sees it: where its profile is, start it, reach it, stop it.

One browser per task: in the task's world when it has one (profile at
``PROFILE_IN_WORLD`` in the world's /tmp), else on the host for that display
(profile ``/tmp/deskact-chromium-UID-DISPLAY``; no sandbox, for notebooks and
tests). Everything is found again from the profile folder (its
``DevToolsActivePort``), so judges need no state kept by the reset step.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...runtime.tasks.step_paths import StepPath
from ...runtime.tasks.steps import StepContext, StepFailed
from ..gui.app_env import GUI_APP_ENV, app_env
from . import chromium
from .cdp import CDPError, DevTools


@dataclass
class BrowserPlace:
    """Where the task's browser lives: its profile as the browser sees it and as the host reaches it."""

    profile: str
    host_profile: Path | StepPath
    """The profile as the host reaches it: in a world a ``StepPath`` (opened by descriptors inside
    it, so the agent's ``Default -> /root/...`` link leads to the world's own /root)."""
    world: Any = None

    @property
    def netns_pid(self) -> int | None:
        return self.world.pid if self.world is not None else None


def place(ctx: StepContext) -> BrowserPlace:
    if ctx.world is not None:
        return BrowserPlace(chromium.PROFILE_IN_WORLD, ctx.path(chromium.PROFILE_IN_WORLD), ctx.world)
    profile = chromium.host_mode_profile(ctx.display)
    return BrowserPlace(profile, Path(profile))


def ensure_profile(ctx: StepContext) -> BrowserPlace:
    """The task's profile, copied from the template the first time a step asks for it."""
    where = place(ctx)
    if (where.host_profile / "Default" / "Preferences").exists():
        return where
    if running(where) is not None:
        raise StepFailed("a browser is running with an unfinished profile")
    if isinstance(where.host_profile, StepPath):
        where.host_profile.remove()  # whatever the agent left there, links removed, never followed
    else:
        shutil.rmtree(where.host_profile, ignore_errors=True)  # host mode: the last task's profile
    owner = where.world.uid + where.world.agent_id if where.world is not None else None
    chromium.copy_template(where.host_profile, owner)
    downloads = str(ctx.workspace / "Downloads")

    def set_downloads(prefs: dict[str, Any]) -> None:
        # Downloads land in the workspace without a dialog (judges look for them there).
        chromium.set_pref(prefs, "download.default_directory", downloads)
        chromium.set_pref(prefs, "download.prompt_for_download", False)
        chromium.set_pref(prefs, "savefile.default_directory", downloads)

    chromium.edit_json(where.host_profile / "Default" / "Preferences", set_downloads)  # keeps its owner
    return where


def port(where: BrowserPlace) -> int | None:
    try:
        text = (where.host_profile / chromium.PORT_FILE).read_text()
        return int(text.split("\n", 1)[0])
    except (OSError, ValueError):
        return None


def running(where: BrowserPlace) -> DevTools | None:
    """A DevTools client of the task's browser, or None when none answers."""
    found = port(where)
    if found is None:
        return None
    tools = DevTools(found, where.netns_pid)
    try:
        tools.http("/json/version")
    except CDPError:
        return None
    return tools


def start(ctx: StepContext, timeout: float = 30) -> tuple[BrowserPlace, DevTools]:
    """Start the task's Chromium on its display (on about:blank) and wait until DevTools answers
    and its window is mapped."""
    if not ctx.display:
        raise StepFailed(f"browser.open needs a display, but task {ctx.task_id or '?'} has none (set visual: true)")
    where = ensure_profile(ctx)
    if running(where) is not None:
        raise StepFailed("browser.open: the task's browser is already running")
    chromium.scrub(where.host_profile)
    width, height = _screen(ctx)
    argv = chromium.argv(where.profile, ["about:blank"], width, height)
    err = tempfile.TemporaryFile()  # noqa: SIM115 - Chromium keeps writing to it
    try:
        if ctx.world is not None:
            proc = ctx.world.spawn(argv, env={**GUI_APP_ENV, **chromium.env(where.profile)}, user=ctx.world.agent_id,
                                   stdout=subprocess.DEVNULL, stderr=err)
        else:
            env = app_env(ctx.env())
            env["DISPLAY"] = ctx.display
            env.update(chromium.env(where.profile))
            proc = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                    stderr=err, start_new_session=True)
        try:
            chromium._wait_port(where.host_profile, proc, timeout)
        except (RuntimeError, TimeoutError) as exc:
            err.seek(0)
            tail = err.read().decode("utf-8", "replace").strip()[-600:]
            raise StepFailed(f"browser.open: {exc}: {tail or '(no stderr)'}") from None
    finally:
        err.close()
    tools = DevTools(port(where) or 0, where.netns_pid)
    _wait_for(lambda: tools.targets(), timeout, "browser.open: Chromium opened no tab")
    from ...reset_scripts import _x11

    try:
        _x11.wait_for_window(ctx.display, "Chromium", timeout)
    except (TimeoutError, RuntimeError, ConnectionError) as exc:
        raise StepFailed(f"browser.open: {exc}") from None
    return where, tools


def _screen(ctx: StepContext) -> tuple[int, int]:
    cfg = getattr(ctx.config, "display", None)
    return (cfg.width, cfg.height) if cfg is not None else (1280, 800)


def _wait_for(check: Any, timeout: float, message: str) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        try:
            found = check()
        except CDPError:
            found = None
        if found:
            return found
        if time.monotonic() > deadline:
            raise StepFailed(message)
        time.sleep(0.02)


def stop(where: BrowserPlace, timeout: float = 15) -> bool:
    """Close the task's browser the way a person would (``Browser.close``): it writes its
    bookmarks, history and preferences to the profile. True if one was running."""
    tools = running(where)
    if tools is None:
        return False
    try:
        tools.call("Browser.close")
    except CDPError:
        pass  # the connection may drop before the answer
    tools.close()
    # Chromium removes nothing when it exits; the profile's lock goes with its last process.
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not _profile_in_use(where):
            return True
        time.sleep(0.05)
    raise StepFailed(f"the browser did not exit within {timeout:g} s of Browser.close")


def _profile_in_use(where: BrowserPlace) -> bool:
    """Is any Chromium process of this profile still running?"""
    flag = f"--user-data-dir={where.profile}"
    if where.world is not None:
        return any(flag in p.cmdline and "chromium" in p.cmdline for p in where.world.processes())
    import psutil

    for proc in psutil.process_iter(["cmdline"]):
        try:
            if flag in (proc.info["cmdline"] or []):
                return True
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return False


def navigate(tools: DevTools, target_id: str, url: str) -> None:
    session = tools.call("Target.attachToTarget", {"targetId": target_id, "flatten": True})["sessionId"]
    try:
        tools.call("Page.navigate", {"url": url}, session=session)
    finally:
        tools.call("Target.detachFromTarget", {"sessionId": session})


def wait_loaded(tools: DevTools, target_id: str, url: str, timeout: float) -> None:
    """Until the tab left about:blank for ``url`` and finished loading it (an error page counts)."""
    left = "true" if url == "about:blank" else "location.href !== 'about:blank'"
    _wait_for(lambda: tools.evaluate(target_id, f"{left} && document.readyState === 'complete'"),
              timeout, f"browser.open: {url} did not finish loading within {timeout:g} s")


def active_target(tools: DevTools) -> dict[str, Any] | None:
    """The tab the window shows: DevTools lists tabs most recently activated first."""
    pages = tools.targets()
    return pages[0] if pages else None


def active_url(ctx: StepContext) -> str | None:
    """The URL the task's browser shows now, or None (no browser, or it does not answer)."""
    where = place(ctx)
    tools = running(where)
    if tools is None:
        return None
    try:
        target = active_target(tools)
    except CDPError:
        return None
    return target["url"] if target else None
