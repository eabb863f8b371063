"""Real X input on a task's display for ``deskact datasets ground``: pointer moves, clicks, keys.

Sent with the XTEST extension from the host, as ``xdotool`` does: the X server turns them into
the same events a person's mouse and keyboard make, so the app under the pointer (not a script
in it) decides what was hit.
"""

from __future__ import annotations

import time
from typing import Any

from Xlib import XK, X
from Xlib import display as xdisplay
from Xlib.ext import xtest


class XInput:
    """One X connection to ``display`` sending XTEST events."""

    def __init__(self, display: str) -> None:
        self.conn: Any = xdisplay.Display(display)
        geometry = self.conn.screen().root.get_geometry()
        self.size = (int(geometry.width), int(geometry.height))

    def move(self, x: int, y: int) -> None:
        xtest.fake_input(self.conn, X.MotionNotify, x=int(x), y=int(y))
        self.conn.sync()

    def click(self, x: int, y: int, button: int = 1, settle: float = 0.05) -> None:
        self.move(x, y)
        time.sleep(settle)  # the app sees the pointer arrive (enter, hover) before the press
        xtest.fake_input(self.conn, X.ButtonPress, button)
        self.conn.sync()
        time.sleep(0.03)
        xtest.fake_input(self.conn, X.ButtonRelease, button)
        self.conn.sync()

    def key(self, name: str, modifiers: tuple[str, ...] = ()) -> None:
        """Press and release ``name`` (an X keysym name: Escape, Return, z), holding ``modifiers``."""
        codes = [self._code(m) for m in modifiers]
        code = self._code(name)
        for c in codes:
            xtest.fake_input(self.conn, X.KeyPress, c)
        xtest.fake_input(self.conn, X.KeyPress, code)
        xtest.fake_input(self.conn, X.KeyRelease, code)
        for c in reversed(codes):
            xtest.fake_input(self.conn, X.KeyRelease, c)
        self.conn.sync()

    def _code(self, name: str) -> int:
        keysym = XK.string_to_keysym(name)
        code = self.conn.keysym_to_keycode(keysym) if keysym else 0
        if not code:
            raise ValueError(f"no key for {name!r} on this display")
        return int(code)

    def park(self) -> None:
        """The pointer to the screen's bottom-right corner: no hover highlight over the next
        screenshot's targets, and no trace of the last click."""
        self.move(self.size[0] - 1, self.size[1] - 1)

    def close(self) -> None:
        self.conn.close()


def wait_for(check: Any, timeout: float, interval: float = 0.05) -> Any:
    """Poll ``check`` until it returns something true (returned) or ``timeout`` passes (None)."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() >= deadline:
            return None
        time.sleep(interval)
