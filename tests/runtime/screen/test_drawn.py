"""runtime/screen/drawn.py: what counts as a blank window, a window still drawing, a tree without
its document; and waiting for a real window to be drawn on Xvfb."""

from __future__ import annotations

import shutil
import subprocess
import time

import numpy as np
import pytest
from deskact.runtime.screen.drawn import (
    CARET_SHARE,
    POINTER_SPOT,
    changed,
    pixels_problem,
    shown_windows,
    tree_problem,
    wait_drawn,
    window_box,
)


def window(height: int = 300, width: int = 400, colour: tuple[int, int, int] = (220, 220, 220)) -> np.ndarray:
    out = np.zeros((height, width, 3), np.uint8)
    out[:] = colour
    return out


def test_one_colour_is_blank() -> None:
    assert pixels_problem(window()) == "blank (one colour)"


def test_a_pointer_on_one_colour_is_still_blank() -> None:
    pixels = window()
    pixels[140:140 + POINTER_SPOT - 2, 190:200] = 0  # the pointer's arrow over a frame not drawn yet
    assert pixels_problem(pixels) == "blank (one colour but for the pointer)"


def test_a_pointer_in_a_corner_does_not_hide_the_background() -> None:
    pixels = window()
    pixels[:20, :12] = 0
    assert pixels_problem(pixels) == "blank (one colour but for the pointer)"


def test_a_line_of_text_is_drawn() -> None:
    pixels = window(colour=(255, 255, 255))
    pixels[10:22, 5:130] = 30  # a prompt or one line of text: wider than any pointer
    assert pixels_problem(pixels) is None


def test_a_menu_bar_is_drawn() -> None:
    pixels = window()
    pixels[0:20, :] = (240, 240, 240)
    assert pixels_problem(pixels) is None


def test_unchanged_and_caret_blinks_are_not_changes() -> None:
    before = window(colour=(255, 255, 255))
    after = before.copy()
    assert not changed(before, after)
    after[50:68, 100:102] = 0  # a text caret: 2 x 18 pixels of 120 000
    assert CARET_SHARE * before.shape[0] * before.shape[1] > 2 * 18
    assert not changed(before, after)


def test_drawing_is_a_change() -> None:
    before = window()
    after = before.copy()
    after[20:200, 10:380] = 255  # the document area painted
    assert changed(before, after)
    assert changed(before, window(height=200))


def test_tree_needs_a_document_only_in_libreoffice() -> None:
    assert tree_problem("notes.txt - Mousepad", []) is None
    assert tree_problem("Terminal", ["frame"]) is None
    title = "prices.xlsx - LibreOffice Calc"
    assert tree_problem(title, []) == "its accessibility tree is empty"
    assert tree_problem(title, ["frame", "menu bar", "menu"]) == "its accessibility tree shows no document yet"
    assert tree_problem(title, ["frame", "document spreadsheet", "table"]) is None


# -- on a real display ----------------------------------------------------------


@pytest.fixture(scope="module")
def display() -> object:
    if shutil.which("Xvfb") is None or shutil.which("openbox") is None:
        pytest.skip("needs Xvfb and openbox")
    from deskact.runtime.world.display import Display

    with Display(width=800, height=600) as d:
        yield d


def _xterm(display: str, *args: str) -> subprocess.Popen[bytes]:
    if shutil.which("xterm") is None:
        pytest.skip("xterm is not installed")
    return subprocess.Popen(["xterm", *args], env={"DISPLAY": display, "PATH": "/usr/bin:/bin"},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _wait_shown(display: str, title: str) -> int:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = [w for w in shown_windows(display) if w.title == title]
        if found:
            return found[0].id
        time.sleep(0.05)
    raise AssertionError(f"no window {title!r}: {shown_windows(display)}")


@pytest.mark.display
def test_wait_drawn_on_a_terminal(display: object) -> None:
    name = display.name  # type: ignore[attr-defined]
    proc = _xterm(name, "-T", "Drawn", "-e", "sh", "-c", "echo ready to type; exec sleep 60")
    try:
        window_id = _wait_shown(name, "Drawn")
        box = window_box(name, window_id)
        assert box is not None and box.width > 100 and box.height > 100
        settled = wait_drawn(name, window_id, timeout=30)
        assert settled.drawn, settled
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.display
def test_wait_drawn_gives_up_on_a_window_that_stays_blank(display: object) -> None:
    name = display.name  # type: ignore[attr-defined]
    # Text, cursor and background in one colour: a window that never shows anything.
    proc = _xterm(name, "-T", "Blank", "-bg", "gray", "-fg", "gray", "-cr", "gray", "-e", "sleep", "60")
    try:
        window_id = _wait_shown(name, "Blank")
        settled = wait_drawn(name, window_id, timeout=1.0)
        assert not settled.drawn
        assert settled.reason.startswith("blank"), settled
        assert 1.0 <= settled.waited < 5
    finally:
        proc.kill()
        proc.wait()
