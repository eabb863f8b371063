"""Every input event on an X display, as JSON lines: what the agent or a person did, and when.

``start(display, path)`` begins a log; the returned handle's ``stop()`` ends it. Events are
captured at the X server with the RECORD extension, so they come from any source alike: the
agent's pyautogui or xdotool (XTest), a person's input through noVNC/x11vnc (XTest too), a
real keyboard. RECORD reports device events (what the server received from its input devices,
before any window gets them) in the server's order, with the server's timestamps.

The log (``input.jsonl``) has one JSON object a line: a :class:`LogStart` (the display, its
size, the clock), then :class:`InputEvent` lines, then a :class:`LogStop` (counts, and the error
that ended the log early, if one did). ``read_log(path)`` reads it back.

Times: ``t`` is seconds on ``CLOCK_MONOTONIC`` (Python's ``time.monotonic()``, the same in every
process of the machine), the clock the episode video's frames are stamped on (``recorder.py``
writes the monotonic time of its first frame as ``started_monotonic`` in ``episode.mp4.json``).
An event's time is the server's own timestamp (milliseconds) mapped onto that clock by a
round trip at the start, not the time the event reached this process: RECORD hands events over
in batches, up to a tenth of a second late (measured here), while the server stamped each one
when it happened.

Keys carry their keysym, a pyautogui-style name (``enter``, ``ctrl``, ``a``) and the text they
type. The keysym is read from this log's own copy of the keyboard map, kept current by
recording the ``ChangeKeyboardMapping`` requests of every client in the same stream as the
keys: xdotool and the gui toolkit's typer remap a spare keycode to type a character outside the
map (``é``, ``日``), and xdotool maps it back right after the key, so asking the server for the
map when the key is handled would often read the wrong keysym.

Pointer motion is sampled (at most one event per ``motion_interval``), but the last position
before any button or key event is always kept, so drags end where they ended.

Grouping raw events into actions (click, type, hotkey, scroll, ...) is ``input_actions.py``.
"""

from __future__ import annotations

import socket
import struct
import threading
import time
from pathlib import Path
from typing import IO, Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter

LOG_FILE = "input.jsonl"
FORMAT = 1

# X protocol constants (core), spelled out: RECORD hands over raw wire data.
_KEY_PRESS, _KEY_RELEASE, _BUTTON_PRESS, _BUTTON_RELEASE, _MOTION = 2, 3, 4, 5, 6
_CHANGE_KEYBOARD_MAPPING = 100
_EVENT_SIZE = 32

EventKind = Literal["motion", "button_press", "button_release", "key_press", "key_release"]
_KINDS: dict[int, EventKind] = {_KEY_PRESS: "key_press", _KEY_RELEASE: "key_release", _BUTTON_PRESS: "button_press",
                                _BUTTON_RELEASE: "button_release", _MOTION: "motion"}


class LogStart(BaseModel):
    """The log's first line."""

    kind: Literal["start"] = "start"
    format: int = FORMAT
    display: str
    width: int
    """The screen's size in pixels: event positions are screen pixels."""
    height: int
    t: float
    """When the log started (``CLOCK_MONOTONIC`` seconds, as every ``t``)."""
    clock: Literal["monotonic"] = "monotonic"
    server_offset_s: float
    """Added to a server timestamp (ms / 1000) to get ``t`` (measured by a round trip at the start)."""
    motion_interval: float
    """Motion events closer together than this were dropped (the last before a button or key is kept)."""


class InputEvent(BaseModel):
    """One event the X server received from an input device (or XTest)."""

    kind: EventKind
    t: float
    """``CLOCK_MONOTONIC`` seconds: the server's timestamp on this machine's monotonic clock."""
    server_ms: int
    """The server's own timestamp (milliseconds, wraps at 2**32)."""
    x: int
    """The pointer's position on the screen when the event happened (screen pixels)."""
    y: int
    button: int | None = None
    """1 left, 2 middle, 3 right, 4/5 wheel up/down, 6/7 wheel left/right (button events only)."""
    keycode: int | None = None
    keysym: int | None = None
    """The keysym the key produces with the modifiers held (shift, caps lock, AltGr levels)."""
    key: str | None = None
    """The key's pyautogui-style name: ``enter``, ``ctrl``, ``f5``, ``a`` (the unshifted symbol)."""
    text: str | None = None
    """The character a key press types: None for releases, function keys, and with ctrl/alt/win held."""
    modifiers: list[str] = Field(default_factory=list)
    """Modifiers held just before the event: shift, ctrl, alt, win, altgr, capslock, numlock."""


class LogStop(BaseModel):
    """The log's last line (missing when the process died first)."""

    kind: Literal["stop"] = "stop"
    t: float
    events: int
    """Events written."""
    motion_dropped: int
    """Motion events left out by sampling."""
    mapping_changes: int
    """Keyboard-map changes seen (keycodes remapped to type characters outside the map)."""
    error: str | None = None
    """Why the log ended before stop() was called (the display went away), if it did."""


LogLine = Annotated[LogStart | InputEvent | LogStop, Field(discriminator="kind")]
_LINE: TypeAdapter[LogStart | InputEvent | LogStop] = TypeAdapter(LogLine)


class InputLog(BaseModel):
    """A log read back."""

    start: LogStart
    events: list[InputEvent]
    stop: LogStop | None = None


def read_log(path: str | Path) -> InputLog:
    """Read an ``input.jsonl``; a torn last line (the writer died mid-line) is ignored."""
    start: LogStart | None = None
    events: list[InputEvent] = []
    stop: LogStop | None = None
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            item = _LINE.validate_json(line)
        except ValueError as exc:
            if number == len(lines):
                break
            raise ValueError(f"{path}:{number}: not an input-log line: {exc}") from None
        if isinstance(item, LogStart):
            start = item
        elif isinstance(item, LogStop):
            stop = item
        else:
            events.append(item)
    if start is None:
        raise ValueError(f"{path}: no start line (not an input log)")
    return InputLog(start=start, events=events, stop=stop)


# --- keys ------------------------------------------------------------------------------------

_KEY_NAMES = {
    "Return": "enter", "KP_Enter": "enter", "Escape": "esc", "BackSpace": "backspace", "Tab": "tab",
    "ISO_Left_Tab": "tab", "Delete": "delete", "KP_Delete": "delete", "Insert": "insert", "Home": "home",
    "End": "end", "Prior": "pageup", "Next": "pagedown", "Up": "up", "Down": "down", "Left": "left",
    "Right": "right", "Control_L": "ctrl", "Control_R": "ctrl", "Shift_L": "shift", "Shift_R": "shift",
    "Alt_L": "alt", "Alt_R": "alt", "Meta_L": "alt", "Meta_R": "alt", "Super_L": "win", "Super_R": "win",
    "Hyper_L": "win", "ISO_Level3_Shift": "altgr", "Mode_switch": "altgr", "Caps_Lock": "capslock",
    "Num_Lock": "numlock", "Scroll_Lock": "scrolllock", "Print": "printscreen", "Pause": "pause",
    "Menu": "menu", "space": "space",
}
MODIFIER_KEYS = frozenset({"ctrl", "shift", "alt", "win", "altgr", "capslock", "numlock", "scrolllock"})
_SPECIAL_TEXT = {0xFF0D: "\n", 0xFF8D: "\n", 0xFF09: "\t", 0xFF80: " ", 0xFFAA: "*", 0xFFAB: "+",
                 0xFFAD: "-", 0xFFAE: ".", 0xFFAF: "/", 0xFFBD: "="}
"""Keysyms outside Latin-1/Unicode that type a character (Return, Tab, keypad operators)."""
_NO_TEXT_NAMES = frozenset({"enter", "tab"})
"""Keys that type a character but act as keys: Enter and Tab are ``key`` actions, not text."""


def _keysym_names() -> dict[int, str]:
    from Xlib import XK

    names: dict[int, str] = {}
    for name, value in vars(XK).items():
        if name.startswith("XK_") and isinstance(value, int):
            names.setdefault(value, name[3:])
    return names


_NAMES: dict[int, str] | None = None


def keysym_name(keysym: int) -> str:
    """The X name of a keysym: ``Return``, ``a``, ``eacute``, ``U65E5`` for Unicode keysyms."""
    global _NAMES
    if _NAMES is None:
        _NAMES = _keysym_names()
    if keysym in _NAMES:
        return _NAMES[keysym]
    if keysym & 0xFF000000 == 0x01000000:
        return f"U{keysym & 0xFFFFFF:04X}"
    return f"0x{keysym:x}"


def keysym_text(keysym: int) -> str | None:
    """The character a keysym types, if any (Latin-1 and Unicode keysyms, keypad digits, Enter, Tab)."""
    if 0x20 <= keysym <= 0x7E or 0xA0 <= keysym <= 0xFF:
        return chr(keysym)
    if keysym & 0xFF000000 == 0x01000000:
        return chr(keysym & 0xFFFFFF)
    if 0xFFB0 <= keysym <= 0xFFB9:  # KP_0..KP_9
        return chr(ord("0") + keysym - 0xFFB0)
    return _SPECIAL_TEXT.get(keysym)


def key_name(keysym: int) -> str:
    """pyautogui-style key name: ``enter``, ``ctrl``, ``f5``, ``pagedown``, or the character (``a``, ``é``)."""
    name = keysym_name(keysym)
    if name in _KEY_NAMES:
        return _KEY_NAMES[name]
    if name.startswith("KP_"):
        rest = name[3:]
        return _KEY_NAMES.get(rest, rest.lower()) if len(rest) > 1 else rest
    if len(name) > 1 and name[0] == "F" and name[1:].isdigit():
        return name.lower()
    text = keysym_text(keysym)
    if text is not None and text.isprintable():
        return text.lower()
    return name.lower()


class Keymap:
    """The keyboard map as the server has it at each point of the recorded stream."""

    def __init__(self, x: Any) -> None:
        info = x.display.info
        self.low = int(info.min_keycode)
        count = int(info.max_keycode) - self.low + 1
        self.syms: dict[int, list[int]] = {
            self.low + i: [int(s) for s in row] for i, row in enumerate(x.get_keyboard_mapping(self.low, count))}
        # Which of Mod1..Mod5 (state bits 8..128) is alt, win, altgr, numlock: from the modifier map.
        self.mod_names: dict[int, str] = {}
        for index, keycodes in enumerate(x.get_modifier_mapping()):
            if index < 3:
                continue  # shift, lock, control are fixed bits
            for keycode in keycodes:
                name = key_name(self.keysym(int(keycode), 0)) if keycode else ""
                if name in ("alt", "win", "altgr", "numlock"):
                    self.mod_names.setdefault(1 << index, name)
                    break

    def apply_request(self, data: bytes) -> None:
        """A recorded ChangeKeyboardMapping request: keycode count, first keycode, keysyms per keycode."""
        count, first, per = data[1], data[4], data[5]
        syms = struct.unpack(f"={count * per}I", data[8:8 + 4 * count * per])
        for i in range(count):
            self.syms[first + i] = list(syms[i * per:(i + 1) * per])

    def modifiers(self, state: int) -> list[str]:
        names = [n for bit, n in ((1, "shift"), (2, "capslock"), (4, "ctrl")) if state & bit]
        names += [self.mod_names.get(1 << i, f"mod{i - 2}") for i in range(3, 8) if state & (1 << i)]
        return names

    def keysym(self, keycode: int, state: int) -> int:
        """The keysym a key produces in ``state`` (the core protocol's rules, AltGr as the 3rd/4th level)."""
        row = self.syms.get(keycode, [])
        if not row:
            return 0
        mods = self.modifiers(state)
        base = 4 if "altgr" in mods and len(row) > 4 and row[4] else 0
        pair = row[base:base + 2] + [0, 0]
        lower, upper = pair[0], pair[1] or pair[0]
        shift = "shift" in mods
        if "numlock" in mods and 0xFF80 <= upper <= 0xFFBD:  # keypad: numlock swaps the levels
            return lower if shift else upper
        sym = upper if shift else lower
        if "capslock" in mods and not shift:
            text = keysym_text(sym)
            if text and text.isalpha() and text.lower() == text and pair[1]:
                sym = upper
        return sym


# --- capture ---------------------------------------------------------------------------------


def _server_offset(x: Any) -> tuple[float, int]:
    """(seconds to add to server ms / 1000 to get monotonic time, the server time read): one
    property change on a window of our own, whose PropertyNotify carries the server's time."""
    from Xlib import X, Xatom

    win = x.screen().root.create_window(-1, -1, 1, 1, 0, X.CopyFromParent, X.InputOnly, X.CopyFromParent,
                                        event_mask=X.PropertyChangeMask)
    atom = x.intern_atom("_DESKACT_INPUT_LOG_CLOCK")
    before = time.monotonic()
    win.change_property(atom, Xatom.STRING, 8, b"t")
    x.flush()
    while True:
        event = x.next_event()
        if event.type == X.PropertyNotify and event.window.id == win.id:
            after = time.monotonic()
            break
    win.destroy()
    x.sync()
    return (before + after) / 2 - int(event.time) / 1000, int(event.time)


class Logger:
    """A running log (from :func:`start`); ``stop()`` ends it and returns its :class:`LogStop`."""

    def __init__(self, display: str, path: Path, motion_interval: float) -> None:
        from Xlib import display as xdisplay

        self.path = path
        self.motion_interval = motion_interval
        self._ctl: Any = xdisplay.Display(display)
        self._data: Any = None
        try:
            if not self._ctl.has_extension("RECORD"):
                raise RuntimeError(f"X display {display} has no RECORD extension: no input log")
            self.keymap = Keymap(self._ctl)
            offset, self._clock_ms = _server_offset(self._ctl)
            self._clock_t = self._clock_ms / 1000 + offset
            self._data = xdisplay.Display(display)
            self._context = self._create_context()
        except BaseException:
            self._close()
            raise
        screen = self._ctl.screen()
        pointer = screen.root.query_pointer()
        self._pointer = (int(pointer.root_x), int(pointer.root_y))
        self.events = self.motion_dropped = self.mapping_changes = 0
        self.error: str | None = None
        self._last_motion_t = -1e9
        self._pending: InputEvent | None = None  # the latest motion left out by sampling
        self._down: dict[int, tuple[int, str]] = {}  # keycode -> (keysym, name) at its press
        path.parent.mkdir(parents=True, exist_ok=True)
        self._out: IO[str] = path.open("w", encoding="utf-8", buffering=1)
        self.started = time.monotonic()
        self._write(LogStart(display=display, width=int(screen.width_in_pixels),
                             height=int(screen.height_in_pixels), t=self.started, server_offset_s=offset,
                             motion_interval=motion_interval))
        self._recording = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"input-log {display}", daemon=True)
        self._thread.start()
        # Until the server says it records, an event would be missed, and a stop() sent before the
        # enabling would leave the data connection waiting for good.
        if not self._recording.wait(10.0):
            self.stop()
            raise RuntimeError(f"X display {display}: the RECORD context did not start ({self.error or 'no answer'})")

    def _create_context(self) -> int:
        from Xlib.ext import record

        context = self._ctl.record_create_context(0, [record.AllClients], [{
            "core_requests": (_CHANGE_KEYBOARD_MAPPING, _CHANGE_KEYBOARD_MAPPING),
            "core_replies": (0, 0), "ext_requests": (0, 0, 0, 0), "ext_replies": (0, 0, 0, 0),
            "delivered_events": (0, 0), "device_events": (_KEY_PRESS, _MOTION), "errors": (0, 0),
            "client_started": False, "client_died": False}])
        self._ctl.sync()  # the context must exist before the data connection enables it
        return int(context)

    def _time(self, server_ms: int) -> float:
        delta = (server_ms - self._clock_ms) & 0xFFFFFFFF
        if delta >= 0x80000000:  # an event stamped before the clock was read
            delta -= 0x100000000
        return round(self._clock_t + delta / 1000, 4)

    def _run(self) -> None:
        try:
            self._data.record_enable_context(self._context, self._reply)
        except Exception as exc:  # noqa: BLE001 - the display went away: stop() reports it
            self.error = f"{type(exc).__name__}: {exc}"
        self._recording.set()  # start() waits no longer

    def _reply(self, reply: Any) -> None:
        from Xlib.ext import record

        data = bytes(reply.data)
        if reply.category == record.StartOfData:
            self._recording.set()
        elif reply.category == record.FromClient:
            if data and data[0] == _CHANGE_KEYBOARD_MAPPING:
                self._flush_motion()
                self.keymap.apply_request(data)
                self.mapping_changes += 1
        elif reply.category == record.FromServer:
            for offset in range(0, len(data) - _EVENT_SIZE + 1, _EVENT_SIZE):
                self._event(data[offset:offset + _EVENT_SIZE])

    def _event(self, raw: bytes) -> None:
        kind = _KINDS.get(raw[0] & 0x7F)
        if kind is None:
            return
        # Core device event layout: type, detail, sequence, time, root, event, child, root x/y, ..., state.
        detail = raw[1]
        server_ms, = struct.unpack_from("=I", raw, 4)
        root_x, root_y, _, _, state = struct.unpack_from("=hhhhH", raw, 20)
        t = self._time(server_ms)
        self._pointer = (root_x, root_y)
        event = InputEvent(kind=kind, t=t, server_ms=server_ms, x=root_x, y=root_y,
                           modifiers=self.keymap.modifiers(state))
        if kind == "motion":
            if t - self._last_motion_t < self.motion_interval:
                if self._pending is not None:
                    self.motion_dropped += 1
                self._pending = event
                return
            self._pending = None
            self._last_motion_t = t
        else:
            self._flush_motion()
            if kind.startswith("button"):
                event.button = detail
            else:
                self._key(event, detail, state)
        self._write(event)

    def _key(self, event: InputEvent, keycode: int, state: int) -> None:
        if event.kind == "key_release" and keycode in self._down:
            # As pressed: xdotool maps a borrowed keycode back before the release.
            event.keycode, (event.keysym, event.key) = keycode, self._down.pop(keycode)
            return
        keysym = self.keymap.keysym(keycode, state)
        event.keycode, event.keysym = keycode, keysym
        event.key = key_name(self.keymap.keysym(keycode, 0) or keysym)
        if event.kind == "key_press":
            self._down[keycode] = (keysym, event.key)
            if not {"ctrl", "alt", "win"} & set(event.modifiers):
                event.text = keysym_text(keysym)

    def _flush_motion(self) -> None:
        if self._pending is not None:
            self._last_motion_t = self._pending.t
            self._write(self._pending)
            self._pending = None

    def _write(self, item: BaseModel) -> None:
        if isinstance(item, InputEvent):
            self.events += 1
        self._out.write(item.model_dump_json(exclude_none=True) + "\n")

    def stop(self, timeout: float = 5.0) -> LogStop:
        """End the log (events the server still holds are delivered first); idempotent."""
        if self._ctl is not None:
            try:
                self._ctl.record_disable_context(self._context)
                self._ctl.sync()
            except Exception as exc:  # noqa: BLE001 - the display is gone: the thread has ended too
                self.error = self.error or f"{type(exc).__name__}: {exc}"
            self._thread.join(timeout)
            if self._thread.is_alive():  # no end of data from the server: cut the connection
                self.error = self.error or "the X server did not end the recording"
                try:
                    self._data.display.socket.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                self._thread.join(timeout)
            self._flush_motion()
            self._summary = LogStop(t=time.monotonic(), events=self.events, motion_dropped=self.motion_dropped,
                                    mapping_changes=self.mapping_changes, error=self.error)
            self._write(self._summary)
            self._out.close()
            try:
                self._ctl.record_free_context(self._context)
                self._ctl.sync()
            except Exception:  # noqa: BLE001, S110 - the display is gone: nothing to free
                pass
            self._close()
        return self._summary

    def _close(self) -> None:
        for conn in (self._data, self._ctl):
            if conn is not None:
                try:
                    conn.close()
                except Exception:  # noqa: BLE001, S110 - already closed or the server is gone
                    pass
        self._ctl = self._data = None

    def __enter__(self) -> Logger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start(display: str, path: str | Path, motion_interval: float = 0.05) -> Logger:
    """Log every input event on ``display`` into ``path`` (JSON lines) until ``stop()``.

    Raises RuntimeError when the server has no RECORD extension (Xvfb and Xorg have it), or
    python-xlib's errors when the display cannot be reached."""
    return Logger(display, Path(path), motion_interval)
