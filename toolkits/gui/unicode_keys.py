"""Type characters that have no key on the current keyboard map (é, ß, 日, ✓, emoji).

X has no "type this character" request: a key event carries a keycode, and
each client turns it into a character through the keyboard map. So a spare
keycode (one with no keysyms) is mapped to the character's keysym, then
pressed with XTest.

``xdotool type`` does the same but restores the map right after each key. A
client that reads the map lazily (when it handles the key, not when the key
was sent) then sees the restored map and drops the character -- measured here:
xterm lost 5 of 8 non-ASCII characters. This module never restores: a
character keeps its keycode until spare keycodes run out, and a keycode is only
reused after a sync and a short settle, so every client has processed the keys
sent with the old mapping before it changes.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

_REPEAT_GAP_S = 0.01
_SETTLE_S = 0.1
"""Pause before remapping a keycode pressed with another character (lets clients catch up)."""


def keysym_for(ch: str) -> int:
    """X keysym of a character: Latin-1 maps directly, the rest uses the Unicode keysym range."""
    code = ord(ch)
    if 0x20 <= code <= 0x7E or 0xA0 <= code <= 0xFF:
        return code
    return 0x01000000 | code


class UnicodeTyper:
    def __init__(self, display_name: str) -> None:
        from Xlib import display as xdisplay

        self._x: Any = xdisplay.Display(display_name)
        info = self._x.display.info
        self._low, self._high = info.min_keycode, info.max_keycode
        mapping = self._x.get_keyboard_mapping(self._low, self._high - self._low + 1)
        self._width = len(mapping[0])
        self._spare = [self._low + i for i, row in enumerate(mapping) if not any(row)]
        if not self._spare:
            raise RuntimeError("the keyboard map has no spare keycode to type non-ASCII characters with")
        self._assigned: dict[str, int] = {}  # char -> keycode, kept across calls
        self._order: list[int] = []  # keycodes, least recently mapped first
        # Keycodes pressed since the last settle, across calls (keyboard.type makes one call per run).
        self._pressed: set[int] = set()
        self._lock = threading.Lock()

    def _keycode(self, ch: str) -> int:
        keysym = keysym_for(ch)
        kc = self._assigned.get(ch)
        # Someone else (xdotool, setxkbmap) may have changed the map since.
        if kc is not None and self._x.get_keyboard_mapping(kc, 1)[0][0] == keysym:
            return kc
        free = [k for k in self._spare if k not in self._order]
        if free:
            kc = free[0]
        else:
            kc = self._order[0]
            if kc in self._pressed:
                # This keycode was pressed as another character: let clients read those keys first.
                self._x.sync()
                time.sleep(_SETTLE_S)
                self._pressed.clear()
        for old, code in list(self._assigned.items()):
            if code == kc:
                del self._assigned[old]
        if kc in self._order:
            self._order.remove(kc)
        self._order.append(kc)
        self._x.change_keyboard_mapping(kc, [(keysym,) * self._width])
        self._x.sync()
        self._assigned[ch] = kc
        return kc

    def type(self, text: str, interval: float = 0.0) -> None:
        from Xlib import X
        from Xlib.ext import xtest

        with self._lock:
            previous = None
            for ch in text:
                kc = self._keycode(ch)
                if kc == previous and not interval:
                    time.sleep(_REPEAT_GAP_S)  # same key twice: see api._REPEAT_GAP_S
                previous = kc
                self._pressed.add(kc)
                xtest.fake_input(self._x, X.KeyPress, kc)
                xtest.fake_input(self._x, X.KeyRelease, kc)
                self._x.sync()
                if interval:
                    time.sleep(interval)


_typers: dict[str, UnicodeTyper] = {}


def type_unicode(text: str, interval: float = 0.0) -> None:
    """Type ``text`` on $DISPLAY key by key, whatever the characters."""
    name = os.environ.get("DISPLAY", "")
    typer = _typers.get(name)
    if typer is None:
        typer = _typers[name] = UnicodeTyper(name)
    typer.type(text, interval)
