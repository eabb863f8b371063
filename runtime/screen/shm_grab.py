"""Whole-screen grabs without copying the frame out of shared memory.

mss grabs through MIT-SHM, then copies the 8 MB frame into a new bytearray
and, with ``with_cursor``, blends the pointer into it pixel by pixel in
Python. Scaling and encoding read the frame once anyway, so here they read it
straight from the shared segment (``XShmGetImage`` into mss's own segment) and
the pointer is handed back as a sprite, blended (``frames.draw_sprite``) into
the scaled image, over its small box, never into the shared segment. Measured in
BENCHMARKS.md "Screenshots": about 1.5 ms of CPU less per full-HD grab.

This reaches into mss's XShmGetImage backend (mss 10); when that is not what
mss chose (no MIT-SHM, another version), ``ShmGrab.grab`` uses ``mss.grab``.
The returned frame is valid until the next grab: callers hold the grabber's lock.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .frames import Sprite


class ShmGrab:
    def __init__(self, sct: Any, include_cursor: bool) -> None:
        self.sct = sct  # an mss.MSS made with with_cursor=False
        self.include_cursor = include_cursor
        self._direct: bool | None = None  # decided after mss's first grab

    def grab(self) -> tuple[np.ndarray, Sprite | None]:
        """The screen as a read-only (height, width, 4) BGRX array, and the pointer's sprite if asked."""
        monitor = self.sct.monitors[0]
        width, height = monitor["width"], monitor["height"]
        frame: np.ndarray | None = None
        if self._direct:
            try:
                frame = self._grab_direct(monitor)
            except Exception:  # noqa: BLE001 - mss internals not as expected: use its public grab from now on
                self._direct = False
        if frame is None:
            shot = self.sct.grab(monitor)
            frame = np.frombuffer(shot.raw, dtype=np.uint8).reshape(height, width, 4)
            if self._direct is None:
                self._direct = _shm_ready(self.sct)
        return frame, self._cursor(monitor) if self.include_cursor else None

    def _grab_direct(self, monitor: dict[str, int]) -> np.ndarray:
        from mss.linux import xcb
        from mss.linux.xshmgetimage import ALL_PLANES

        impl = self.sct._impl
        width, height = monitor["width"], monitor["height"]
        if width * height * 4 > impl._bufsize:
            raise ValueError("the screen grew beyond the shared segment")
        xcb.shm_get_image(impl.conn, impl.drawable, monitor["left"], monitor["top"], width, height,
                          ALL_PLANES, xcb.ImageFormat.ZPixmap, impl._shmseg, 0)
        return np.frombuffer(impl._buf, dtype=np.uint8, count=width * height * 4).reshape(height, width, 4)

    def _cursor(self, monitor: dict[str, int]) -> Sprite | None:
        try:
            cursor = self.sct._impl.cursor()
        except Exception:  # noqa: BLE001 - no XFixes: screenshots without the pointer, as mss does
            return None
        cw, ch = cursor.size.width, cursor.size.height
        pixels = np.frombuffer(cursor.raw, dtype=np.uint8).reshape(ch, cw, 4)
        return Sprite(cursor.pos.left - monitor["left"], cursor.pos.top - monitor["top"], pixels)

def _shm_ready(sct: Any) -> bool:
    impl = getattr(sct, "_impl", None)
    try:
        from mss.linux.xshmgetimage import ShmStatus

        return (getattr(impl, "shm_status", None) == ShmStatus.AVAILABLE
                and all(hasattr(impl, a) for a in ("conn", "drawable", "_shmseg", "_buf", "_bufsize")))
    except ImportError:
        return False
