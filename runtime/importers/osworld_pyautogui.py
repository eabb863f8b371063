"""OSWorld's pyautogui set-up scripts (``python -c "import pyautogui; ..."``), read call by call.

OSWorld presses keys and clicks on its VM's screen during set-up and before judging. Keys and
typed text go to the focused window, so they become ``xdotool`` commands in the task's world, in
the same order and with the same pauses. A single click in the screen's centre only gives the app
focus (apps.open already does) and is dropped. Other clicks and double clicks at coordinates,
mouse button presses where the pointer is, and wheel scrolls become xdotool's, at the same
coordinates: deskact's screen is OSWorld's 1920x1080 and the app's window fills it, though what
lies at a point (a slide thumbnail, a text box) follows deskact's layout, not the VM's (a note says
so). Drags and typing into a GNOME terminal stay report reasons.
"""

from __future__ import annotations

import re
import shlex

_CALL = re.compile(r"\b(pyautogui|time)\.(\w+)\(([^()]*)\)")
_CENTRE = {"960, 540", "x=960, y=540"}
_XDOTOOL_KEYS = {
    "enter": "Return", "return": "Return", "esc": "Escape", "escape": "Escape", "tab": "Tab", "space": "space",
    "backspace": "BackSpace", "delete": "Delete", "del": "Delete", "up": "Up", "down": "Down", "left": "Left",
    "right": "Right", "home": "Home", "end": "End", "pageup": "Prior", "pagedown": "Next", "ctrl": "ctrl",
    "ctrlleft": "ctrl", "alt": "alt", "shift": "shift", "win": "super", "command": "super",
    **{f"f{i}": f"F{i}" for i in range(1, 13)},
}
"""pyautogui key names -> X keysyms (single characters are the same in both)."""


def calls(command: str | list[str]) -> list[tuple[str, str]] | None:
    """(function, arguments) of each ``pyautogui.*``/``time.*`` call, in order; None if no pyautogui."""
    text = command if isinstance(command, str) else " ".join(map(str, command))
    if "pyautogui" not in text:
        return None
    return [(f if mod == "pyautogui" else f"time.{f}", a) for mod, f, a in _CALL.findall(text)]


def _quoted(args: str) -> list[str]:
    return re.findall(r"['\"]([^'\"]+)['\"]", args)


def _centre_click(f: str, a: str) -> bool:
    return f == "click" and a.strip() in _CENTRE


def kind(command: str | list[str]) -> str | None:
    """``focus`` (centre clicks, sleeps), ``save`` (ctrl+s), ``terminal`` (ctrl+alt+t: Ubuntu opens a
    terminal), ``keys`` (keys and text xdotool can send), ``other``, or None (no pyautogui)."""
    found = calls(command)
    if found is None:
        return None
    acting = [(f, a) for f, a in found if not f.startswith("time.") and not _centre_click(f, a)]
    if not acting:
        return "focus"
    if all(f == "hotkey" and _quoted(a) == ["ctrl", "s"] for f, a in acting):
        return "save"
    terminal = [f == "hotkey" and _quoted(a) == ["ctrl", "alt", "t"] for f, a in acting]
    if all(terminal):
        return "terminal"
    if any(terminal):  # keys typed into a GNOME terminal that openbox never opens
        return "other"
    return "keys" if xdotool(command) is not None else "other"


def _keysym(key: str) -> str | None:
    return key if len(key) == 1 else _XDOTOOL_KEYS.get(key.lower())


_POINTER = {"click", "doubleClick", "mouseDown", "mouseUp", "scroll", "moveTo"}
_XY = re.compile(r"\s*(?:x\s*=\s*)?(\d+)\s*,\s*(?:y\s*=\s*)?(\d+)\s*")


def _pointer(f: str, args: str) -> str | None:
    """xdotool for a click or double click (left button) at a point, a left-button press or release
    where the pointer is, a wheel scroll where it is (pyautogui: positive up, X button 4), a move."""
    if f == "scroll":
        amount = re.fullmatch(r"\s*(-?\d+)\s*", args)
        if amount is None or int(amount.group(1)) == 0:
            return None
        clicks = int(amount.group(1))
        return f"xdotool click --repeat {abs(clicks)} --delay 50 {4 if clicks > 0 else 5}"
    if f in ("mouseDown", "mouseUp"):
        return None if args.strip() else f"xdotool {f.lower()} 1"
    point = _XY.fullmatch(args)
    if point is None:  # other buttons, click counts, durations: not read
        return None
    move = f"xdotool mousemove {point.group(1)} {point.group(2)}"
    return {"moveTo": move, "click": f"{move} click 1",
            "doubleClick": f"{move} click --repeat 2 --delay 80 1"}[f]


def pointer_calls(command: str | list[str]) -> list[str]:
    """The pointer calls (clicks at coordinates, button presses, scrolls) a translated script makes."""
    return [f"{f}({a})" for f, a in calls(command) or [] if f in _POINTER and not _centre_click(f, a)]


def xdotool(command: str | list[str]) -> str | None:
    """The script as xdotool commands joined by ``&&`` (pauses kept), or None when it drags, calls
    something else, or names a key this table does not know."""
    out: list[str] = []
    for f, args in calls(command) or []:
        keys = [_keysym(k) for k in _quoted(args)]
        if f == "time.sleep":
            if not re.fullmatch(r"\s*\d*\.?\d*\s*", args):
                return None
            out.append(f"sleep {float(args.strip() or 0):g}")
        elif _centre_click(f, args):
            continue
        elif f in ("write", "typewrite") and len(keys) == 1:
            out.append(f"xdotool type --delay 20 {shlex.quote(_quoted(args)[0])}")
        elif f == "hotkey" and keys and None not in keys:
            out.append("xdotool key " + "+".join(k for k in keys if k))
        elif f in _POINTER:
            action = _pointer(f, args)
            if action is None:
                return None
            out.append(action)
        elif f == "press" and keys and None not in keys:
            repeat = re.search(r"presses\s*=\s*(\d+)", args)
            times = f"--repeat {repeat.group(1)} --delay 10 " if repeat else ""
            out.append(f"xdotool key {times}" + " ".join(k for k in keys if k))
        else:
            return None
    return " && ".join(out) if out else None
