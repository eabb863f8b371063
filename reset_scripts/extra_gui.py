"""apps.terminal: an xterm that is ready for typing when the reset ends.

``apps.launch`` returns as soon as a window with the title exists. For xterm
that is too early: measured in runs with two workers, xterm sometimes maps a
tiny window first and grows it a moment later, and keys typed in between are
lost (the agent's first command silently vanishes). Here bash itself sets the
final title once it runs -- xterm only handles that escape after its terminal
widget works -- and the step also waits for the window to reach its full size.
"""

from __future__ import annotations

import shlex
import time

from Xlib import display as xdisplay
from Xlib import error as xerror

from ..runtime.steps import StepContext, StepFailed, reset_step
from . import _x11
from .apps import launch

_STARTING = "deskact-terminal-starting"
"""Title while bash starts; chosen so that no task title is a substring of it by accident."""

_MIN_SIDE = 100
"""Pixels: below this the window is still in xterm's transient tiny phase."""


def _exact(display: str, title: str) -> _x11.Window | None:
    return next((w for w in _x11.list_windows(display) if w.title == title), None)


def _size(display: str, window_id: int) -> tuple[int, int] | None:
    d = xdisplay.Display(display)
    try:
        geo = d.create_resource_object("window", window_id).get_geometry()
        return geo.width, geo.height
    except xerror.XError:
        return None
    finally:
        d.close()


@reset_step("apps.terminal")
def apps_terminal(ctx: StepContext, title: str = "Terminal", font_size: int = 13, timeout: float = 30) -> None:
    """Open an xterm titled ``title`` with bash in the workspace (DejaVu Sans Mono,
    ``font_size`` pt) and wait until it takes keys: bash has started, xterm has
    drawn its output, and the window has its full size."""
    if not title.strip() or title in _STARTING:
        raise StepFailed(f"apps.terminal: title {title!r} must be non-empty and not part of {_STARTING!r}")
    ready = f"printf '\\033]0;%s\\007' {shlex.quote(title)}; exec bash --norc"
    argv = ["xterm", "-T", _STARTING, "-fa", "DejaVu Sans Mono", "-fs", str(font_size),
            "-e", "bash", "--norc", "-c", ready]
    # No window wait in launch(): bash may retitle the window before the first poll sees it.
    launch(ctx, argv, None, timeout, "apps.terminal")
    display = ctx.display or ""
    deadline = time.monotonic() + timeout
    size: tuple[int, int] | None = None
    while time.monotonic() < deadline:
        window = _exact(display, title)
        if window is not None:
            size = _size(display, window.id)
            if size is not None and min(size) >= _MIN_SIDE:
                return
        time.sleep(0.02)
    titles = [w.title for w in _x11.list_windows(display)]
    raise StepFailed(
        f"apps.terminal: xterm did not become ready within {timeout:g} s"
        f" (windows: {titles}, last size of {title!r}: {size or 'not seen'})"
    )
