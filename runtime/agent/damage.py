"""Whether anything was drawn on an X display since the last look (the DAMAGE extension).

Grabbing and comparing a full-HD frame costs milliseconds; asking the X server
whether any window drew since the last look costs one round trip. The episode
recorder uses it to skip still screens. The pointer is not drawn through
windows, so its position is watched separately.
"""

from __future__ import annotations

from typing import Any


class DamageWatch:
    def __init__(self, display: str) -> None:
        from Xlib import display as xdisplay
        from Xlib.ext import damage

        self._x: Any = xdisplay.Display(display)
        if not self._x.has_extension("DAMAGE"):
            self._x.close()
            raise RuntimeError(f"X display {display!r} has no DAMAGE extension")
        self._x.damage_query_version()
        self._root = self._x.screen().root
        self._damage = self._root.damage_create(damage.DamageReportNonEmpty)
        self._notify = self._x.extension_event.DamageNotify
        self._pointer: tuple[int, int] | None = None
        self._x.sync()

    def changed(self) -> bool:
        """True if something was drawn or the pointer moved since the last call (and on the first).

        The damage is cleared before returning True, so a grab made afterwards holds
        everything drawn so far, and anything drawn later shows up on the next call."""
        self._x.sync()  # every event the server sent before now is in our queue
        drawn = False
        while self._x.pending_events():
            event = self._x.next_event()
            drawn = drawn or event.type == self._notify
        pointer = self._root.query_pointer()
        where = (int(pointer.root_x), int(pointer.root_y))
        moved, self._pointer = where != self._pointer, where
        if drawn:
            self._x.damage_subtract(self._damage)
            self._x.sync()
        return drawn or moved

    def close(self) -> None:
        try:
            self._x.close()
        except Exception:  # noqa: BLE001, S110 - the display is already gone
            pass
