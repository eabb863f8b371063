"""Where the model's coordinates meet screen pixels, for the gui toolkit's modules.

The runtime shows the model a screenshot scaled to fit
``observation.max_width x max_height`` and passes that size to the kernel as
environment variables (``settings()``). ``_scale`` applies the runtime's own
``fit_scale`` to the real screen, so a point in the image the model saw maps to
the pixel the runtime scaled it from. ``api``, ``windows`` and ``a11y_api`` all
convert through here; it imports none of them, so the toolkit has no import cycle.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...runtime.screen_scale import fit_scale


@dataclass(frozen=True)
class Settings:
    pause: float
    """Seconds pyautogui sleeps after each call."""
    failsafe: bool
    """Moving the pointer into a screen corner aborts the code (for people watching their own desktop)."""
    max_width: int | None
    max_height: int | None
    """The observation size; None = the model sees screen pixels."""


def _env_float(name: str, default: float | None) -> float | None:
    raw = os.environ.get(name, "").strip()
    if raw in ("", "null", "None"):
        return default
    try:
        return float(raw)
    except ValueError:
        raise ValueError(f"environment variable {name} = {raw!r}: expected a number") from None


def _env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name, "").strip().lower()
    if raw in ("", "null", "none"):
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"environment variable {name} = {raw!r}: expected true or false")


@lru_cache(maxsize=1)
def settings() -> Settings:
    """Read the toolkit settings the runtime passes as environment variables.

    DESKACT_GUI_PAUSE (default 0), DESKACT_GUI_FAILSAFE (default false),
    DESKACT_OBSERVATION_MAX_WIDTH / _MAX_HEIGHT (unset = no scaling).
    """
    max_w = _env_float("DESKACT_OBSERVATION_MAX_WIDTH", None)
    max_h = _env_float("DESKACT_OBSERVATION_MAX_HEIGHT", None)
    return Settings(
        pause=_env_float("DESKACT_GUI_PAUSE", 0.0) or 0.0,
        failsafe=_env_bool("DESKACT_GUI_FAILSAFE", False),
        max_width=int(max_w) if max_w else None,
        max_height=int(max_h) if max_h else None,
    )


PYAUTOGUI_DEPENDENCIES = (
    "Xlib.display", "Xlib.XK", "Xlib.xauth", "Xlib.support.unix_connect", "pytweening", "pymsgbox", "pyscreeze",
    # The extensions Xlib's Display imports when it connects to a server that has them (Xvfb's).
    *(f"Xlib.ext.{name}" for name in ("xtest", "composite", "damage", "randr", "record", "res", "screensaver",
                                      "security", "shape", "xfixes", "xinerama", "xinput")),
)
"""What pyautogui imports, minus what connects to the X display when imported (pyautogui's own X11
module, mouseinfo): the fork server imports these once for every gui kernel it forks
(``Toolkit.fork_imports``), numpy and OpenCV (through pyscreeze) and tkinter (pymsgbox) included."""


@lru_cache(maxsize=1)
def _pyautogui() -> Any:
    if not os.environ.get("DISPLAY"):
        raise RuntimeError("no display: DISPLAY is not set in this kernel (display.mode = 'none'?)")
    # pyautogui imports mouseinfo for a Tk helper window (pyautogui.mouseInfo()) no agent can use;
    # importing it opens a second X connection and costs ~25 ms of CPU in every kernel. None in
    # sys.modules makes pyautogui's own `import mouseinfo` raise ImportError, which it handles.
    sys.modules.setdefault("mouseinfo", None)  # type: ignore[arg-type]
    import pyautogui

    cfg = settings()
    pyautogui.PAUSE = cfg.pause
    pyautogui.FAILSAFE = cfg.failsafe
    pyautogui.MINIMUM_DURATION = 0.0  # short drags must still send intermediate motion events
    return pyautogui


@lru_cache(maxsize=1)
def _screen_pixels() -> tuple[int, int]:
    width, height = _pyautogui().size()
    return int(width), int(height)


def _scale() -> float:
    cfg = settings()
    if cfg.max_width is None or cfg.max_height is None:
        return 1.0
    return fit_scale(*_screen_pixels(), cfg.max_width, cfg.max_height)


def _to_screen(x: float, y: float) -> tuple[int, int]:
    scale = _scale()
    width, height = _screen_pixels()
    sx, sy = round(x / scale), round(y / scale)
    if not (0 <= sx < width and 0 <= sy < height):
        size = _from_screen(width, height)
        raise ValueError(f"point ({x}, {y}) is outside the screen (0..{size[0] - 1}, 0..{size[1] - 1})")
    return sx, sy


def _from_screen(x: float, y: float) -> tuple[int, int]:
    scale = _scale()
    return round(x * scale), round(y * scale)
