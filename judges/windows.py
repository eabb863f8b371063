"""windows.* judges: the windows on the task's display (title, geometry, state), read host side."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import AfterValidator
from Xlib import Xatom
from Xlib import display as xdisplay
from Xlib import error as xerror

from ..reset_scripts._x11 import Window, list_windows
from ..runtime.tasks.helpers import clip
from ..runtime.tasks.steps import StepContext, Verdict, judge


@judge("windows.title")
def windows_title(ctx: StepContext, contains: str, present: bool = True) -> Verdict:
    """Some window's title contains ``contains`` (case-insensitive); with present: false, none does."""
    if not ctx.display:
        raise RuntimeError(f"windows.title needs a display, but task {ctx.task_id or '?'} has none (set visual: true)")
    titles = [w.title for w in list_windows(ctx.display)]
    hits = [t for t in titles if contains.casefold() in t.casefold()]
    if present and hits:
        return Verdict.ok(f"window {clip(hits[0], 100)} is open")
    if not present and not hits:
        return Verdict.ok(f"no window title contains {contains!r}")
    if present:
        return Verdict.fail(f"no window title contains {contains!r}; open windows: {clip(titles, 240) if titles else 'none'}")
    return Verdict.fail(f"a window titled {clip(hits[0], 100)} should be closed but is open")


# --- windows.geometry and windows.state: where a window is and how the window manager shows it. ---
#
# Both read the X server directly (python-xlib), host side. Geometry is the
# window's *frame* (title bar and borders included, from ``_NET_FRAME_EXTENTS``),
# because that is what a person or a model sees on the screenshot. The expected
# box is given in fractions of the screen, so a task does not depend on the
# display size or on how much the screenshot is scaled for the model.


def _fraction_box(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    left, top, right, bottom = box
    if not all(0.0 <= v <= 1.0 for v in box):
        raise ValueError(f"box {list(box)} must hold fractions of the screen between 0 and 1")
    if not (left < right and top < bottom):
        raise ValueError(f"box {list(box)} must be [left, top, right, bottom] with left < right and top < bottom")
    return box


FractionBox = Annotated[tuple[float, float, float, float], AfterValidator(_fraction_box)]
"""[left, top, right, bottom] as fractions of the screen width/height, e.g. [0, 0, 0.5, 1]."""


@dataclass(frozen=True)
class Frame:
    """A window's outer box in screen pixels, and the screen size."""

    x: int
    y: int
    width: int
    height: int
    screen_width: int
    screen_height: int
    states: frozenset[str]
    """_NET_WM_STATE atoms without the prefix, e.g. {"MAXIMIZED_VERT", "HIDDEN"}."""

    def fractions(self) -> tuple[float, float, float, float]:
        sw, sh = self.screen_width, self.screen_height
        return (self.x / sw, self.y / sh, (self.x + self.width) / sw, (self.y + self.height) / sh)

    def describe(self) -> str:
        left, top, right, bottom = self.fractions()
        return (f"{self.width}x{self.height} at ({self.x}, {self.y}) on a {self.screen_width}x{self.screen_height}"
                f" screen, i.e. [{left:.2f}, {top:.2f}, {right:.2f}, {bottom:.2f}]")


def _frame(display: str, window: Window) -> Frame:
    d = xdisplay.Display(display)
    try:
        screen = d.screen()
        w = d.create_resource_object("window", window.id)
        geo = w.get_geometry()
        pos = w.translate_coords(screen.root, 0, 0)  # client origin in root coordinates (negated)
        x, y = -pos.x, -pos.y
        extents = w.get_full_property(d.intern_atom("_NET_FRAME_EXTENTS"), Xatom.CARDINAL)
        left, right, top, bottom = (list(extents.value) + [0, 0, 0, 0])[:4] if extents else (0, 0, 0, 0)
        state = w.get_full_property(d.intern_atom("_NET_WM_STATE"), Xatom.ATOM)
        names = frozenset(
            d.get_atom_name(a).removeprefix("_NET_WM_STATE_") for a in (state.value if state else [])
        )
        return Frame(
            x=x - left, y=y - top, width=geo.width + left + right, height=geo.height + top + bottom,
            screen_width=screen.width_in_pixels, screen_height=screen.height_in_pixels, states=names,
        )
    finally:
        d.close()


def _find(ctx: StepContext, contains: str, judge_name: str) -> tuple[Window | None, list[str]]:
    if not ctx.display:
        raise RuntimeError(f"{judge_name} needs a display, but task {ctx.task_id or '?'} has none (set visual: true)")
    windows = list_windows(ctx.display)
    hits = [w for w in windows if contains.casefold() in w.title.casefold()]
    # The newest matching window: it is the one an agent most likely just arranged.
    return (hits[-1] if hits else None), [w.title for w in windows]


def _frame_or_fail(ctx: StepContext, contains: str, judge_name: str) -> Frame | Verdict:
    window, titles = _find(ctx, contains, judge_name)
    if window is None:
        return Verdict.fail(f"no window title contains {contains!r}; open windows: {clip(titles, 240) if titles else 'none'}")
    try:
        return _frame(ctx.display or "", window)
    except xerror.XError:
        return Verdict.fail(f"window {window.title!r} closed while it was being measured")


@judge("windows.geometry")
def windows_geometry(ctx: StepContext, contains: str, box: FractionBox, tolerance: float = 0.04) -> Verdict:
    """The window whose title contains ``contains`` covers ``box`` = [left, top, right, bottom]
    (fractions of the screen, frame included), each edge within ``tolerance`` (a fraction too)."""
    frame = _frame_or_fail(ctx, contains, "windows.geometry")
    if isinstance(frame, Verdict):
        return frame
    if "HIDDEN" in frame.states:
        return Verdict.fail(f"window {contains!r} is minimized (hidden), so it does not cover {list(box)}")
    actual = frame.fractions()
    names = ("left", "top", "right", "bottom")
    off = [f"{n} edge at {a:.2f} instead of {w:.2f}" for n, a, w in zip(names, actual, box) if abs(a - w) > tolerance]
    details: dict[str, Any] = {"actual": [round(v, 3) for v in actual], "pixels": [frame.x, frame.y, frame.width, frame.height]}
    if off:
        return Verdict.fail(f"window {contains!r} is {frame.describe()}: " + ", ".join(off)
                            + f" (tolerance {tolerance:.2f})", **details)
    return Verdict.ok(f"window {contains!r} is {frame.describe()}", **details)


State = Literal["maximized", "minimized", "fullscreen", "normal"]

_STATE_ATOMS: dict[str, set[str]] = {
    "maximized": {"MAXIMIZED_VERT", "MAXIMIZED_HORZ"},
    "minimized": {"HIDDEN"},
    "fullscreen": {"FULLSCREEN"},
}


@judge("windows.state")
def windows_state(ctx: StepContext, contains: str, state: State) -> Verdict:
    """The window whose title contains ``contains`` is maximized (both ways), minimized,
    fullscreen, or normal (none of those), as the window manager reports it (_NET_WM_STATE)."""
    frame = _frame_or_fail(ctx, contains, "windows.state")
    if isinstance(frame, Verdict):
        return frame
    found = [s for s, atoms in _STATE_ATOMS.items() if atoms <= frame.states]
    actual = ", ".join(found) if found else "normal"
    ok = (state in found) if state != "normal" else not found
    shown = sorted(frame.states) or ["none"]
    if ok:
        return Verdict.ok(f"window {contains!r} is {state}", states=shown)
    return Verdict.fail(f"window {contains!r} should be {state} but is {actual} (_NET_WM_STATE: {', '.join(shown)})",
                        states=shown)


# --- windows.screen_sized: OSWorld's is_vlc_fullscreen with its vm_window_size/vm_screen_size getters. ---


def _first_of_class(d: Any, wm_class: str) -> tuple[int, int] | None:
    """(width, height) of the first window of the WM's client list whose WM_CLASS instance or class
    is ``wm_class`` (case-insensitive); the client's own size, its frame left out."""
    clients = d.screen().root.get_full_property(d.intern_atom("_NET_CLIENT_LIST"), Xatom.WINDOW)
    for wid in clients.value if clients is not None else []:
        try:
            w = d.create_resource_object("window", wid)
            names = w.get_wm_class()
            if names is None or wm_class.lower() not in [str(n).lower() for n in names]:
                continue
            geo = w.get_geometry()
            return int(geo.width), int(geo.height)
        except xerror.XError:  # gone while looked at: the next one, as OSWorld's getter does
            continue
    return None


@judge("windows.screen_sized")
def windows_screen_sized(ctx: StepContext, wm_class: str) -> Verdict:
    """The first window in the window manager's client list (``_NET_CLIENT_LIST``, in the order
    windows were first shown) whose WM_CLASS instance or class is ``wm_class`` (case-insensitive)
    is exactly as wide and as high as the screen, its own area without the window manager's frame:
    a fullscreen window is, a maximized one under its title bar is not. As OSWorld's
    ``is_vlc_fullscreen`` decides from its ``vm_window_size`` and ``vm_screen_size`` getters."""
    if not ctx.display:
        raise RuntimeError(f"windows.screen_sized needs a display, but task {ctx.task_id or '?'} has none"
                           " (set visual: true)")
    d = xdisplay.Display(ctx.display)
    try:
        screen = (int(d.screen().width_in_pixels), int(d.screen().height_in_pixels))
        size = _first_of_class(d, wm_class)
    finally:
        d.close()
    if size is None:
        return Verdict.fail(f"no window of class {wm_class!r} is open")
    shown = f"{size[0]}x{size[1]} on a {screen[0]}x{screen[1]} screen"
    if size != screen:
        return Verdict.fail(f"the {wm_class} window is {shown}, not the screen's size", size=list(size))
    return Verdict.ok(f"the {wm_class} window fills the screen ({shown})", size=list(size))
