"""Is a window drawn: mapped, not blank, and no longer changing.

A window gets its title before it is drawn: LibreOffice shows a uniform grey frame for half a
second or more after its title is set (longer on a loaded box), so a screenshot taken when the
title appears shows nothing of the document. Reset steps that open apps wait here
(``wait_drawn``) before the agent's first screenshot, and ``deskact validate`` checks the first
observation with the same tests (``pixels_problem``, ``changed``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

import numpy as np

from .grabber import with_frame

POINTER_SPOT = 48
"""Pixels: a window whose only non-background pixels fit in a square this wide shows at most the
pointer (the model's screenshots include it), so it counts as blank."""
CARET_SHARE = 0.001
"""A change over less than this share of a window's area is a blinking caret, not drawing."""
QUIET_S = 0.3
"""How long a window must stay unchanged to count as settled: apps draw their menus, toolbars and
contents in bursts a few tens of ms apart."""
SLOW_QUIET_S = 0.8
"""The same for LibreOffice: its idle timers draw Impress's slide pane and the sidebar up to half a
second after the document (more on a loaded box)."""
POLL_S = 0.05


class Box(NamedTuple):
    """A window's contents on the screen, in screen pixels."""

    x: int
    y: int
    width: int
    height: int


@contextmanager
def _connect(display: str) -> Iterator[Any]:
    from Xlib import display as xdisplay

    try:
        conn = xdisplay.Display(display)
    except Exception as exc:  # Xlib raises several unrelated types for "cannot connect"
        raise ConnectionError(f"cannot connect to X display {display}: {exc}") from exc
    try:
        yield conn
    finally:
        conn.close()


def _box(conn: Any, window_id: int) -> Box | None:
    """The window's contents clipped to the screen, or None while it is not viewable (unmapped,
    minimised, gone, or of no size on the screen)."""
    from Xlib import X
    from Xlib import error as xerror

    root = conn.screen().root
    window = conn.create_resource_object("window", window_id)
    try:
        if window.get_attributes().map_state != X.IsViewable:
            return None
        geometry = window.get_geometry()
        origin = root.translate_coords(window, 0, 0)
    except xerror.XError:  # it went away while we looked
        return None
    screen = conn.screen()
    x0, y0 = max(0, origin.x), max(0, origin.y)
    x1 = min(screen.width_in_pixels, origin.x + geometry.width)
    y1 = min(screen.height_in_pixels, origin.y + geometry.height)
    if x1 <= x0 or y1 <= y0:
        return None
    return Box(x0, y0, x1 - x0, y1 - y0)


def window_box(display: str, window_id: int) -> Box | None:
    """Where the window's contents are on the screen, or None while it is not viewable."""
    with _connect(display) as conn:
        return _box(conn, window_id)


class Shown(NamedTuple):
    """An application window the screen shows."""

    id: int
    title: str
    box: Box


def shown_windows(display: str) -> list[Shown]:
    """The window manager's application windows (``_NET_CLIENT_LIST``) that are viewable, oldest
    first: minimised ones are not on the screen."""
    from Xlib import Xatom
    from Xlib import error as xerror

    out = []
    with _connect(display) as conn:
        root = conn.screen().root
        clients = root.get_full_property(conn.intern_atom("_NET_CLIENT_LIST"), Xatom.WINDOW)
        for window_id in clients.value if clients is not None else []:
            box = _box(conn, int(window_id))
            if box is None:
                continue
            window = conn.create_resource_object("window", int(window_id))
            try:
                title = window.get_full_text_property(conn.intern_atom("_NET_WM_NAME"),
                                                      conn.intern_atom("UTF8_STRING")) or window.get_wm_name()
            except xerror.XError:
                continue
            out.append(Shown(int(window_id), title.decode("latin-1") if isinstance(title, bytes) else str(title or ""),
                             box))
    return out


DOCUMENT_APPS = ("LibreOffice",)
"""Windows (by title) whose accessibility tree names the document once it is loaded: LibreOffice's
frame exists, titled, well before its document (``document spreadsheet``, ``document text``,
``document presentation``) is in it."""


def quiet_for(title: str) -> float:
    """How long a window titled ``title`` must stay unchanged to count as settled."""
    return SLOW_QUIET_S if any(app in title for app in DOCUMENT_APPS) else QUIET_S


def tree_problem(title: str, roles: list[str]) -> str | None:
    """Why a window's accessibility tree (its elements' roles) does not show its document, or None.
    Only DOCUMENT_APPS windows are asked: other apps' trees name no document (xterm has none)."""
    if not any(app in title for app in DOCUMENT_APPS):
        return None
    if not roles:
        return "its accessibility tree is empty"
    if not any(role.startswith("document") for role in roles):
        return "its accessibility tree shows no document yet"
    return None


def pixels_problem(pixels: np.ndarray, tolerance: int = 0) -> str | None:
    """Why these pixels (a window's, H x W x channels) do not show a drawn window, or None.

    Blank: one colour everywhere but a pointer-sized spot. The background colour is the one most
    of the four corners have (the pointer may cover one). ``tolerance``: how far a channel may be
    off that colour and still count as it (a JPEG's noise)."""
    rgb = pixels[..., :3]
    corners = [tuple(rgb[y, x]) for y in (0, -1) for x in (0, -1)]
    background = np.array(max(set(corners), key=corners.count), dtype=np.int16)
    rows, cols = np.nonzero(np.any(np.abs(rgb.astype(np.int16) - background) > tolerance, axis=2))
    if rows.size == 0:
        return "blank (one colour)"
    if rows.max() - rows.min() < POINTER_SPOT and cols.max() - cols.min() < POINTER_SPOT:
        return "blank (one colour but for the pointer)"
    return None


def changed(before: np.ndarray, after: np.ndarray) -> bool:
    """Did the window change between two captures, more than a blinking caret does?"""
    if before.shape != after.shape:
        return True
    rows, cols = np.nonzero(np.any(before[..., :3] != after[..., :3], axis=2))
    if rows.size == 0:
        return False
    area = (int(rows.max() - rows.min()) + 1) * (int(cols.max() - cols.min()) + 1)
    return area > CARET_SHARE * before.shape[0] * before.shape[1]


def grab(display: str, box: Box, step: int = 2) -> np.ndarray:
    """A copy of the screen's pixels in ``box`` (every ``step``-th row and column: enough to see
    drawing, 4x cheaper to compare), pointer included as the model's screenshots have it."""
    def crop(frame: np.ndarray, cursor: Any, sprite: Any) -> np.ndarray:
        return frame[box.y:box.y + box.height:step, box.x:box.x + box.width:step].copy()

    return with_frame(display, True, crop)


class Settled(NamedTuple):
    """How a wait for a drawn window ended."""

    drawn: bool
    waited: float
    """Seconds from the call to the end of the wait."""
    reason: str
    """Why it is not drawn (empty when it is): the last thing the wait saw."""


def wait_drawn(display: str, window_id: int, timeout: float, quiet: float = QUIET_S,
               shows_document: Callable[[], str | None] | None = None) -> Settled:
    """Wait until the window is viewable, not blank and unchanged for ``quiet`` seconds, and
    ``shows_document()`` (the accessibility tree, where there is one) gives no reason against it.

    Bounded by ``timeout``; never raises for a window that stays blank or keeps changing (a clock,
    a video): the caller decides what an undrawn window means."""
    start = time.monotonic()
    deadline = start + timeout
    reason = "not mapped"
    with _connect(display) as conn:
        last: np.ndarray | None = None
        calm_since = start
        while True:
            now = time.monotonic()
            box = _box(conn, window_id)
            if box is None:
                reason, last = "not mapped", None
            else:
                pixels = grab(display, box)
                if last is None or changed(last, pixels):
                    calm_since, reason = now, "still changing"
                last = pixels
                problem = pixels_problem(pixels)
                if problem is not None:
                    reason = problem
                elif now - calm_since >= quiet:
                    reason = (shows_document() or "") if shows_document is not None else ""
                    if not reason:
                        return Settled(True, time.monotonic() - start, "")
            if time.monotonic() >= deadline:
                return Settled(False, time.monotonic() - start, reason)
            time.sleep(POLL_S)


__all__ = ["Box", "Settled", "Shown", "changed", "grab", "pixels_problem", "quiet_for", "shown_windows", "tree_problem", "wait_drawn",
           "window_box"]
