"""Frames of an X display, grabbed through one cached connection per display.

A display this process started keeps its screen in a mapped file
(``framebuffer``): frames are read there in place, with no request to the
server. Other displays are grabbed through MIT-SHM (``shm_grab``). Either way
the frame is a read-only BGRX array valid only while the grabber's lock is held,
so callers pass a function (``process``, ``with_frame``) instead of taking a copy.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from ..errors import DisplayError
from . import frames
from .framebuffer import Framebuffer, lookup
from .shm_grab import ShmGrab

T = TypeVar("T")
FrameFn = Callable[[np.ndarray, "tuple[int, int] | None", "frames.Sprite | None"], T]


class Grabber:
    """A connection to one X display that grabs frames and the pointer position.

    Keeps the mss and Xlib connections open between steps (opening them costs
    more than a grab). Thread-safe; one per display.
    """

    def __init__(self, display: str, include_cursor: bool = True, framebuffer: bool = True) -> None:
        import mss
        from Xlib import display as xdisplay

        self.display = display
        self.include_cursor = include_cursor
        self._lock = threading.Lock()
        try:
            self._sct = mss.MSS(display=display, with_cursor=False)  # ShmGrab draws the pointer
            self._x = xdisplay.Display(display)
        except Exception as exc:
            raise DisplayError(f"cannot capture X display {display!r}: {exc}") from exc
        self._root = self._x.screen().root
        self._shm = ShmGrab(self._sct, include_cursor)
        # A display this process started keeps its screen in a mapped file: read it in place, no
        # copy by the server. Its frames show the pointer (the server draws it there), so only
        # screenshots that include the pointer use it.
        self._fb = self._framebuffer() if include_cursor and framebuffer else None

    def _framebuffer(self) -> Framebuffer | None:
        path = lookup(self.display)
        fb = Framebuffer.open(path) if path is not None else None
        monitor = self._sct.monitors[0]
        if fb is not None and fb.frame.shape[:2] != (monitor["height"], monitor["width"]):
            fb.close()  # the screen was resized (RANDR): the file no longer describes it
            return None
        return fb

    def process(self, fn: FrameFn[T]) -> T:
        """``fn(frame, pointer, sprite)`` on a fresh full-resolution BGRX frame, read in place:
        the frame is read-only and valid only inside ``fn`` (the next grab overwrites it);
        ``sprite`` is the pointer's image to draw (None when ``include_cursor`` is off)."""
        with self._lock:
            if self._fb is not None:
                frame, sprite = self._fb.frame, None
            else:
                frame, sprite = self._shm.grab()
            pointer = self._root.query_pointer()
            cursor = (int(pointer.root_x), int(pointer.root_y)) if pointer.same_screen else None
            return fn(frame, cursor, sprite)

    def grab_frame(self) -> tuple[np.ndarray, tuple[int, int] | None]:
        """Full-resolution BGRX frame (height, width, 4), a copy with the pointer drawn, and
        the pointer in screen pixels."""
        def copy(frame: np.ndarray, cursor: tuple[int, int] | None,
                 sprite: frames.Sprite | None) -> tuple[np.ndarray, tuple[int, int] | None]:
            out = frame.copy()
            if sprite is not None:
                frames.draw_sprite(out, sprite, 1.0)
            return out, cursor

        return self.process(copy)

    def grab(self) -> tuple[Any, tuple[int, int] | None]:
        """Full-resolution RGB PIL image and the pointer position in screen pixels."""
        frame, cursor = self.grab_frame()
        return frames.to_pil(frame), cursor

    def close(self) -> None:
        """Close both connections; errors from a server that is already gone are expected."""
        with self._lock:
            if self._fb is not None:
                self._fb.close()
                self._fb = None
            for conn in (self._sct, self._x):
                try:
                    conn.close()
                except Exception:  # noqa: BLE001, S110 - the display died under us: nothing left to close
                    pass


_grabbers: dict[tuple[str, bool], Grabber] = {}
_grabbers_lock = threading.Lock()


def _grabber(display: str, include_cursor: bool) -> Grabber:
    key = (display, include_cursor)
    with _grabbers_lock:
        grabber = _grabbers.get(key)
        if grabber is None:
            grabber = _grabbers[key] = Grabber(display, include_cursor)
        return grabber


def forget(display: str) -> None:
    """Close cached connections to ``display`` (call when it stops)."""
    with _grabbers_lock:
        for key in [k for k in _grabbers if k[0] == display]:
            _grabbers.pop(key).close()


def with_frame(display: str, include_cursor: bool, fn: FrameFn[T]) -> T:
    """``Grabber.process`` on ``display`` through the cached connection."""
    try:
        return _grabber(display, include_cursor).process(fn)
    except DisplayError:
        raise
    except Exception:  # noqa: BLE001 - a cached connection to a server that has since restarted
        # Display numbers are reused: ":1" may be a new server now. Reconnect once.
        forget(display)
        try:
            return _grabber(display, include_cursor).process(fn)
        except DisplayError:
            raise
        except Exception as exc:
            forget(display)
            raise DisplayError(f"screenshot of X display {display!r} failed: {exc}") from exc
