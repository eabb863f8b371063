"""Mouse, keyboard and screen for the agent's kernel (the GUI toolkit's exports).

Docstrings here are the model's documentation: they say what a call does and
in which coordinate space, briefly.

Coordinates: the runtime shows the model a screenshot scaled to fit
``observation.max_width x max_height``; the model writes coordinates in that
image. The scale comes from the kernel's environment (see ``settings()``), so
every public coordinate here -- arguments and results -- is in the image the
model saw; ``coordinates`` converts to and from real screen pixels.

pyautogui opens an X connection when imported, so it is imported on first use:
documentation can be generated on a host without a display.
"""

from __future__ import annotations

import importlib
import os
import time
from functools import lru_cache
from typing import Any

from PIL import Image

from ...runtime.screen_scale import scale_image, scaled_size
from .a11y_api import a11y
from .coordinates import (
    PYAUTOGUI_DEPENDENCIES,
    Settings,
    _from_screen,
    _pyautogui,
    _scale,
    _screen_pixels,
    _to_screen,
    settings,
)
from .windows import Window, apps, windows


def _move_if_given(x: float | None, y: float | None) -> None:
    if (x is None) != (y is None):
        raise ValueError(f"give both x and y, or neither (got x={x}, y={y})")
    if x is not None and y is not None:
        _pyautogui().moveTo(*_to_screen(x, y))


class Mouse:
    """The mouse. x, y are pixels in the screenshot you see (origin top-left);
    x=None, y=None means "where the pointer is now". button: "left", "middle" or "right"."""

    def move(self, x: float, y: float, duration: float = 0.0) -> None:
        """Move the pointer to (x, y), optionally gliding over `duration` seconds."""
        _pyautogui().moveTo(*_to_screen(x, y), duration=duration)

    def click(
        self,
        x: float | None = None,
        y: float | None = None,
        button: str = "left",
        clicks: int = 1,
        interval: float = 0.0,
    ) -> None:
        """Click `button` `clicks` times at (x, y), `interval` seconds apart."""
        pag = _pyautogui()
        _move_if_given(x, y)
        pag.click(button=button, clicks=clicks, interval=interval)

    def double_click(self, x: float | None = None, y: float | None = None, button: str = "left") -> None:
        """Double-click at (x, y) (selects a word in text)."""
        self.click(x, y, button=button, clicks=2)

    def right_click(self, x: float | None = None, y: float | None = None) -> None:
        """Right-click at (x, y) (usually opens a context menu)."""
        self.click(x, y, button="right")

    def drag(
        self,
        start: tuple[float, float],
        end: tuple[float, float],
        button: str = "left",
        duration: float = 0.3,
    ) -> None:
        """Press `button` at `start`, move to `end` over `duration` seconds, release.
        Moves a window by its title bar, selects text, drags files or sliders."""
        pag = _pyautogui()
        sx, sy = _to_screen(*start)
        ex, ey = _to_screen(*end)
        pag.moveTo(sx, sy)
        pag.mouseDown(button=button)
        try:
            # Many small motion events: toolkits and window managers ignore a single jump.
            steps = max(5, int(duration / 0.01))
            for i in range(1, steps + 1):
                pag.moveTo(sx + (ex - sx) * i // steps, sy + (ey - sy) * i // steps, _pause=False)
                time.sleep(duration / steps)
        finally:
            pag.mouseUp(button=button)

    def scroll(self, dx: int = 0, dy: int = 0, x: float | None = None, y: float | None = None) -> None:
        """Turn the wheel by whole notches at (x, y): dy > 0 scrolls down, dy < 0 up;
        dx > 0 scrolls right, dx < 0 left. One notch is about three lines of text."""
        pag = _pyautogui()
        _move_if_given(x, y)
        # pyautogui: positive = up / right on X11 buttons 4-7; our dy is the page direction.
        if dy:
            pag.scroll(-int(dy))
        if dx:
            pag.hscroll(int(dx))

    def down(self, x: float | None = None, y: float | None = None, button: str = "left") -> None:
        """Press and hold `button` (at (x, y) if given). Release with mouse.up()."""
        pag = _pyautogui()
        _move_if_given(x, y)
        pag.mouseDown(button=button)

    def up(self, x: float | None = None, y: float | None = None, button: str = "left") -> None:
        """Release `button` (at (x, y) if given)."""
        pag = _pyautogui()
        _move_if_given(x, y)
        pag.mouseUp(button=button)

    def position(self) -> tuple[int, int]:
        """Where the pointer is, as (x, y) in screenshot coordinates."""
        px, py = _pyautogui().position()
        return _from_screen(px, py)


_KEY_ALIASES = {
    "control": "ctrl", "return": "enter", "escape": "esc", "super": "win", "meta": "win",
    "cmd": "win", "windows": "win", "page_up": "pageup", "page_down": "pagedown", "pgup": "pageup",
    "pgdn": "pagedown", "del": "delete", "ins": "insert", "arrowup": "up", "arrowdown": "down",
    "arrowleft": "left", "arrowright": "right", "bksp": "backspace", "spacebar": "space", " ": "space",
}


def _key(name: str) -> str:
    """Normalise a key name and reject unknown ones (pyautogui silently ignores them)."""
    pag = _pyautogui()
    if len(name) == 1:
        return name  # a character, case kept ("A" is shift+a)
    key = name.strip().lower()
    key = _KEY_ALIASES.get(key, key)
    if key not in pag.KEYBOARD_KEYS:
        key = key.replace("_", "").replace("-", "")  # "page_down" -> "pagedown"
    if key not in pag.KEYBOARD_KEYS:
        raise ValueError(
            f"unknown key {name!r}; use names like enter, tab, esc, backspace, delete, space, up, down, "
            "left, right, home, end, pageup, pagedown, f1..f12, ctrl, alt, shift, win, or one character"
        )
    return key


_REPEAT_GAP_S = 0.01
"""Pause between two presses of the same key. LibreOffice (VCL) takes a release and press
with the same server timestamp for auto-repeat and drops one: "balloon" became "baloon"."""


class Keyboard:
    """The keyboard. Key names: enter, tab, esc, backspace, delete, space, up, down,
    left, right, home, end, pageup, pagedown, f1..f12, ctrl, alt, shift, win,
    or a single character."""

    def type(self, text: str, interval: float = 0.0) -> None:
        """Type `text` into the focused window, exactly, any Unicode (é, ß, 日本, emoji).
        "\\n" presses Enter and "\\t" Tab. Click or activate the target window first."""
        # Not pyautogui.write: it guesses Shift from the character ("<" came out as ">") and
        # drops characters outside its table; the keyboard map says which key and level.
        _check_failsafe()
        _typer().type(text, interval)

    def press(self, key: str, presses: int = 1) -> None:
        """Press and release one key, e.g. press("enter"), press("down", presses=3)."""
        if len(key) == 1:
            _check_failsafe()
            _typer().type(key * presses, _REPEAT_GAP_S if presses > 1 else 0.0)
            return
        _pyautogui().press(_key(key), presses=presses, interval=_REPEAT_GAP_S if presses > 1 else 0.0)

    def hotkey(self, *keys: str) -> None:
        """Press keys together, e.g. hotkey("ctrl", "s"), hotkey("ctrl", "shift", "t")."""
        names = [_key(k) for k in keys]  # check every name before pressing any
        _check_failsafe()
        pressed: list[str] = []
        try:
            for name in names:
                self._down(name)
                pressed.append(name)
        finally:  # never leave a modifier held down after an error
            for name in reversed(pressed):
                self._up(name)

    def down(self, key: str) -> None:
        """Hold a key down (e.g. "shift" while clicking). Release it with keyboard.up(key)."""
        self._down(_key(key))

    def up(self, key: str) -> None:
        """Release a key held with keyboard.down(key)."""
        self._up(_key(key))

    @staticmethod
    def _down(key: str) -> None:
        if len(key) == 1:
            _typer().down(key)  # a character: its key and level from the keyboard map
        else:
            _pyautogui().keyDown(key)

    @staticmethod
    def _up(key: str) -> None:
        if len(key) == 1:
            _typer().up(key)
        else:
            _pyautogui().keyUp(key)


def _typer() -> Any:
    from .unicode_keys import typer

    _pyautogui()  # same DISPLAY checks, and its pending events go first
    return typer()


def _check_failsafe() -> None:
    """pyautogui's fail-safe (pointer in a screen corner aborts), for keys sent without it."""
    if settings().failsafe:
        _pyautogui().failSafeCheck()


class Screen:
    """The screen, in the same coordinates as the screenshots you see."""

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the screenshots you see; valid x is 0..width-1."""
        return _from_screen(*_screen_pixels())

    @property
    def scale(self) -> float:
        """Screenshot pixels per real screen pixel (1.0 = not scaled)."""
        return _scale()

    def screenshot(self, full_resolution: bool = False) -> Image.Image:
        """The screen now as a PIL image, at the size you see (coordinates match mouse.click);
        full_resolution=True gives real screen pixels (sharper for reading small text)."""
        img = _grab()
        if full_resolution:
            return img
        return scale_image(img, scaled_size(img.width, img.height, _scale()))

    def wait_stable(self, timeout: float = 10.0, quiet: float = 0.5) -> bool:
        """Wait until the screen stops changing for `quiet` seconds (an app finished loading
        or redrawing); a blinking text cursor does not count. False if `timeout` passed first."""
        from PIL import ImageChops

        deadline = time.monotonic() + timeout
        last = _grab().reduce(4)  # a quarter size is enough to see change, and 16x cheaper to compare
        calm_since = time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.05)
            now = _grab().reduce(4)
            box = ImageChops.difference(last, now).getbbox()
            # A caret blink changes a sliver; real redraws change more than 0.1 % of the screen.
            small = box is None or (box[2] - box[0]) * (box[3] - box[1]) * 1000 < now.width * now.height
            if not small:
                calm_since = time.monotonic()
            elif time.monotonic() - calm_since >= quiet:
                return True
            last = now
        return False

    def save(self, path: str, full_resolution: bool = False) -> str:
        """Save a screenshot to `path` (format from the extension, e.g. .png) and return the path."""
        self.screenshot(full_resolution).save(path)
        return path


@lru_cache(maxsize=1)
def _mss() -> Any:
    import mss

    return mss.MSS(display=os.environ.get("DISPLAY"), with_cursor=True)


def _grab() -> Image.Image:
    sct = _mss()
    shot = sct.grab(sct.monitors[0])
    return Image.frombuffer("RGB", shot.size, shot.raw, "raw", "BGRX", 0, 1).copy()


def warm_up() -> None:
    """Import what pyautogui needs ahead of the first step, but open no X connection: a kernel
    waiting in the pool must not hold the display, which is reset between tasks (runtime/world/
    display.py) and cannot be while any client is connected. pyautogui itself (about 10 ms, its X
    connection included) comes with the first call. A forked kernel has these from the fork server
    already; an exec'd one imports them here."""
    if not os.environ.get("DISPLAY"):
        return
    for name in PYAUTOGUI_DEPENDENCIES:
        try:
            importlib.import_module(name)
        except ImportError:
            pass  # pyautogui's own import says what is missing, at the first call


mouse = Mouse()
keyboard = Keyboard()
screen = Screen()

__all__ = ["Settings", "Window", "a11y", "apps", "keyboard", "mouse", "screen", "settings", "windows"]
