"""The PDF viewer ``apps.open`` starts for a .pdf: Chromium's own viewer, in an app window.

Chromium is already in every world (the browser toolkit's), and its viewer reads, searches, fills
forms and saves the filled file (its download button), where a viewer from another package would
add an install for the same. It runs as a separate Chromium with a fresh profile in the world's
/tmp (not the task's browser: a task that also opens the browser gets two windows, as OSWorld's
VM opens a PDF in its own viewer beside Chrome), as an ``--app`` window (the viewer's toolbar, no
address bar), maximized, its window class ``VIEWER_CLASS``. Measured here: its window is mapped
about 0.5 s after the start with a fresh profile.

The window's title is the PDF's own title when it has one, else the file's name, so the window is
found by its class, then waited for until drawn (the first observation shows the page).
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
import time
from pathlib import Path, PurePosixPath

from Xlib import display as xdisplay
from Xlib import error as xerror

from ...runtime.screen.drawn import wait_drawn
from ...runtime.tasks.step_paths import StepPath
from ...runtime.tasks.steps import StepContext, StepFailed
from ...toolkits.browser import chromium
from .. import _x11
from .launcher import SETTLE_TIMEOUT_S, launch

VIEWER_CLASS = "PDF-Viewer"
"""The viewer window's WM_CLASS class (Chromium's ``--class``)."""
PROFILE_IN_WORLD = "/tmp/deskact-pdf-viewer"
"""The viewer's own Chromium profile in the world (the task's browser keeps its own)."""

_NO_DEVTOOLS = {"--remote-debugging-port=0", "--remote-allow-origins=*"}


def viewer_argv(profile: str, path: str, width: int, height: int) -> list[str]:
    """Chromium as a PDF viewer of ``path`` (an absolute path as the app sees it)."""
    flags = [f for f in chromium.FLAGS if f not in _NO_DEVTOOLS]
    env = [f"{k}={v}" for k, v in chromium.env(profile).items()]  # its caches in its profile, not the home
    return ["env", *env, chromium.binary(), f"--user-data-dir={profile}", *flags, f"--class={VIEWER_CLASS}",
            f"--window-size={width},{height}", "--start-maximized", f"--app={PurePosixPath(path).as_uri()}"]


def _viewer_windows(display: str) -> list[int]:
    found = []
    d = xdisplay.Display(display)
    try:
        for window in _x11.list_windows(display):
            try:
                names = d.create_resource_object("window", window.id).get_wm_class()
            except xerror.XError:
                continue
            if names and names[1] == VIEWER_CLASS:
                found.append(window.id)
    finally:
        d.close()
    return found


def _host_profile() -> str:
    """Without a world: a fresh profile folder in the host's temp dir, removed when this process
    exits (or, after a kill -9, by the next deskact command)."""
    from ...runtime.world import reaper

    folder = tempfile.mkdtemp(prefix="deskact-pdf-viewer-")
    atexit.register(shutil.rmtree, folder, True)
    reaper.own(Path(folder))
    return folder


def open_pdf(ctx: StepContext, path: StepPath, timeout: float) -> None:
    """Open ``path`` in the viewer and wait until its window is drawn."""
    display = ctx.display
    if not display:
        raise StepFailed(f"apps.open needs a display, but task {ctx.task_id or '?'} has none (set visual: true)")
    profile = PROFILE_IN_WORLD if ctx.world is not None else _host_profile()
    d = xdisplay.Display(display)
    try:
        screen = d.screen()
        width, height = screen.width_in_pixels, screen.height_in_pixels
    finally:
        d.close()
    before = set(_viewer_windows(display))
    launch(ctx, viewer_argv(profile, str(path), width, height), None, timeout, "apps.open")
    deadline = time.monotonic() + timeout
    while True:
        new = [w for w in _viewer_windows(display) if w not in before]
        if new:
            wait_drawn(display, new[0], SETTLE_TIMEOUT_S)
            return
        if time.monotonic() > deadline:
            titles = [w.title for w in _x11.list_windows(display)]
            raise StepFailed(f"apps.open: the PDF viewer showed no window for {path.name!r} within {timeout:g} s"
                             f" (windows: {titles})")
        time.sleep(0.05)
