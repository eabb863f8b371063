"""Type characters exactly, whatever the keyboard map (ASCII, é, ß, 日, ✓, emoji).

X has no "type this character" request: a key event carries a keycode, and
each client turns it into a character through the keyboard map. So every
character is looked up in the map by its keysym, and pressed with XTest:

- A character on the map is its keycode, with Shift when it sits on the
  shifted level. The map decides, not a guess: pyautogui assumes "<" needs
  Shift, but the Xvfb map has "<" unshifted on key 94, so it typed ">".
- Any other character borrows a *pool* keycode (one that had no keysyms
  when the display was first used), remapped to the character's keysym.

The pool is recorded on the display itself (a root window property), so every
process -- each kernel a worker starts on a reused display -- shares the same
keycodes and picks up the characters already mapped. A process that computed
"spare" from the current map instead would see the previous kernel's
characters as taken, and after about 19 distinct characters per display
(a fresh Xvfb has 19 spare keycodes) typing failed for good.

Mappings are not restored after each key or call. ``xdotool type`` restores
right after each key, and a client that reads the map lazily (when it
handles the key, not when the key was sent) then sees the restored map and
drops the character -- measured: xterm lost 5 of 8 non-ASCII characters. A
pool keycode is remapped only when the pool is full, least recently used
first, and after a sync and a short settle if it was pressed with the old
mapping, so clients have handled those keys before the mapping changes.
Every remap makes the server send MappingNotify to every client, so keeping
mappings also keeps those rare -- and remaps have a cost beyond that: an xterm
started after keymap changes made while another xterm was open stayed one cell
big (15x26) in about 1 start of 10 (benchmarks/xterm_after_remap.py;
reset_scripts/apps/terminal.py restarts such a terminal).
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

_REPEAT_GAP_S = 0.01
_SETTLE_S = 0.1
"""Pause before remapping a keycode pressed with another character (lets clients catch up)."""

POOL_PROPERTY = "_DESKACT_KEYCODE_POOL"
"""Root window property (CARDINAL[]) holding the display's pool keycodes."""

_SPECIAL = {"\n": 0xFF0D, "\r": 0xFF0D, "\t": 0xFF09, "\b": 0xFF08, "\x1b": 0xFF1B}
"""Characters typed as function keys: Return, Tab, BackSpace, Escape."""


def keysym_for(ch: str) -> int:
    """X keysym of a character: Latin-1 maps directly, the rest uses the Unicode keysym range."""
    if ch in _SPECIAL:
        return _SPECIAL[ch]
    code = ord(ch)
    if 0x20 <= code <= 0x7E or 0xA0 <= code <= 0xFF:
        return code
    return 0x01000000 | code


class KeyTyper:
    """Types characters on one display through its own X connection (thread-safe)."""

    def __init__(self, display_name: str) -> None:
        from Xlib import XK
        from Xlib import display as xdisplay

        self._x: Any = xdisplay.Display(display_name)
        info = self._x.display.info
        self._low, self._high = info.min_keycode, info.max_keycode
        self._shift = self._x.keysym_to_keycode(XK.string_to_keysym("Shift_L"))
        if not self._shift:
            raise RuntimeError(f"display {display_name}: the keyboard map has no Shift_L key")
        self._pool = self._claim_pool()
        self._order: list[int] = []  # pool keycodes this process mapped, least recently first
        # Pool keycodes pressed since the last settle, across calls (keyboard.type makes several).
        self._pressed: set[int] = set()
        self._lock = threading.Lock()
        self._refresh()

    def _claim_pool(self) -> list[int]:
        """The display's pool keycodes: recorded on the root window by the first process."""
        from Xlib import X, Xatom

        root = self._x.screen().root
        atom = self._x.intern_atom(POOL_PROPERTY)
        prop = root.get_full_property(atom, Xatom.CARDINAL)
        if prop is not None and prop.format == 32:
            pool = [int(k) for k in prop.value if self._low <= int(k) <= self._high]
            if pool:
                return pool
        mapping = self._x.get_keyboard_mapping(self._low, self._high - self._low + 1)
        pool = [self._low + i for i, row in enumerate(mapping) if not any(row)]
        if not pool:
            raise RuntimeError("the keyboard map has no spare keycode to type non-ASCII characters with")
        # Two processes starting at once compute the same list, so a plain replace is safe.
        root.change_property(atom, Xatom.CARDINAL, 32, pool, X.PropModeReplace)
        self._x.sync()
        return pool

    def _refresh(self) -> None:
        """Read the map: keysym -> (keycode, shifted) for real keys, keysym -> keycode in the pool.
        Read at every call: setxkbmap, xdotool or another kernel may have changed it."""
        mapping = self._x.get_keyboard_mapping(self._low, self._high - self._low + 1)
        pool = set(self._pool)
        keys: dict[int, tuple[int, bool]] = {}
        mapped: dict[int, int] = {}
        # Plain level first, then Shift, lower keycodes first: "<" is key 94 plain, not shift+comma.
        for level in (0, 1):
            for i, row in enumerate(mapping):
                kc = self._low + i
                if kc in pool:
                    if level == 0 and row[0]:
                        mapped.setdefault(row[0], kc)
                elif level < len(row) and row[level]:
                    keys.setdefault(row[level], (kc, level == 1))
        self._width = len(mapping[0])
        self._keys = keys
        self._mapped = mapped  # keysym -> pool keycode mapped to it now
        self._order = [k for k in self._order if k in mapped.values()]

    def _pool_keycode(self, keysym: int) -> int:
        kc = self._mapped.get(keysym)
        if kc is not None:
            if kc in self._order:
                self._order.remove(kc)
            self._order.append(kc)
            return kc
        in_use = set(self._mapped.values())
        free = [k for k in self._pool if k not in in_use]
        if free:
            kc = free[0]
        else:
            # Mapped by an earlier process first (oldest), then this process's least recent.
            foreign = [k for k in self._pool if k not in self._order]
            kc = foreign[0] if foreign else self._order[0]
            if kc in self._pressed:
                # Pressed as another character: let clients read those keys first.
                self._x.sync()
                time.sleep(_SETTLE_S)
                self._pressed.clear()
        self._mapped = {s: k for s, k in self._mapped.items() if k != kc}
        self._mapped[keysym] = kc
        if kc in self._order:
            self._order.remove(kc)
        self._order.append(kc)
        self._x.change_keyboard_mapping(kc, [(keysym,) * self._width])
        self._x.sync()
        return kc

    def _resolve(self, ch: str) -> tuple[int, bool]:
        """(keycode, needs Shift) for a character, remapping a pool keycode if needed."""
        keysym = keysym_for(ch)
        if keysym in self._keys:
            return self._keys[keysym]
        kc = self._pool_keycode(keysym)
        self._pressed.add(kc)
        return kc, False

    def _fake(self, kind: int, keycode: int) -> None:
        from Xlib.ext import xtest

        xtest.fake_input(self._x, kind, keycode)

    def type(self, text: str, interval: float = 0.0) -> None:
        """Press and release each character's key (with Shift where the map needs it)."""
        from Xlib import X

        with self._lock:
            self._refresh()
            previous = None
            for ch in text:
                kc, shift = self._resolve(ch)
                if kc == previous and not interval:
                    time.sleep(_REPEAT_GAP_S)  # same key twice: see api._REPEAT_GAP_S
                previous = kc
                if shift:
                    self._fake(X.KeyPress, self._shift)
                self._fake(X.KeyPress, kc)
                self._fake(X.KeyRelease, kc)
                if shift:
                    self._fake(X.KeyRelease, self._shift)
                self._x.sync()
                if interval:
                    time.sleep(interval)

    def down(self, ch: str) -> None:
        """Hold the key of one character (and Shift, if the map needs it) until up(ch)."""
        from Xlib import X

        with self._lock:
            self._refresh()
            kc, shift = self._resolve(ch)
            if shift:
                self._fake(X.KeyPress, self._shift)
            self._fake(X.KeyPress, kc)
            self._x.sync()

    def up(self, ch: str) -> None:
        """Release what down(ch) pressed."""
        from Xlib import X

        with self._lock:
            keysym = keysym_for(ch)
            if keysym in self._keys:
                kc, shift = self._keys[keysym]
            elif keysym in self._mapped:
                kc, shift = self._mapped[keysym], False
            else:
                return  # never pressed (or its pool keycode was taken since): nothing to release
            self._fake(X.KeyRelease, kc)
            if shift:
                self._fake(X.KeyRelease, self._shift)
            self._x.sync()


_typers: dict[str, KeyTyper] = {}
_typers_lock = threading.Lock()


def typer() -> KeyTyper:
    """The KeyTyper of $DISPLAY (one X connection per display and process)."""
    name = os.environ.get("DISPLAY", "")
    with _typers_lock:
        found = _typers.get(name)
        if found is None:
            found = _typers[name] = KeyTyper(name)
        return found


def type_text(text: str, interval: float = 0.0) -> None:
    """Type ``text`` on $DISPLAY key by key, whatever the characters."""
    typer().type(text, interval)


type_unicode = type_text  # the name api.py used before ASCII went this way too
