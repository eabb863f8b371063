"""The input log on a real Xvfb: xdotool's and the gui toolkit's input, recorded at the server and
grouped into the actions that made it."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from deskact.runtime.run import input_log
from deskact.runtime.run.input_actions import group_actions
from deskact.runtime.world.display import Display


def _xdotool(display: Display, *args: str) -> None:
    subprocess.run(["xdotool", *args], env={**os.environ, **display.env()}, check=True, timeout=30)


@pytest.fixture
def display(requires_xvfb: None) -> Iterator[Display]:
    if subprocess.run(["which", "xdotool"], capture_output=True).returncode:
        pytest.skip("xdotool is not installed")
    with Display(width=1280, height=800) as shown:
        yield shown


def test_xdotool_input_becomes_the_actions_that_made_it(display: Display, tmp_path: Path) -> None:
    path = tmp_path / input_log.LOG_FILE
    before = time.monotonic()
    logger = input_log.start(display.name, path)
    _xdotool(display, "mousemove", "100", "200", "click", "1")
    _xdotool(display, "mousemove", "400", "300", "click", "--repeat", "3", "--delay", "50", "5")
    _xdotool(display, "type", "--delay", "20", "Hi <é日>")
    _xdotool(display, "key", "ctrl+s")
    _xdotool(display, "click", "--repeat", "2", "--delay", "80", "1")
    _xdotool(display, "key", "--delay", "30", "Return", "Return", "shift+Tab")
    _xdotool(display, "mousemove", "10", "10", "mousedown", "1", "mousemove", "50", "60",
             "mousemove", "200", "150", "mouseup", "1")
    _xdotool(display, "mousemove", "600", "500", "click", "3")
    # Enter right after the text (one xdotool: no process start between them): part of it, as
    # keyboard.type("ls\n") types it.
    _xdotool(display, "key", "--delay", "20", "l", "s", "Return")
    summary = logger.stop()
    after = time.monotonic()
    assert summary.error is None and summary.events == len(input_log.read_log(path).events)
    assert summary.mapping_changes >= 2  # xdotool borrowed a keycode for é and 日, and gave it back

    log = input_log.read_log(path)
    assert (log.start.width, log.start.height, log.start.display) == (1280, 800, display.name)
    times = [e.t for e in log.events]
    assert times == sorted(times) and before <= times[0] and times[-1] <= after
    shown = [(a.kind, a.code()) for a in group_actions(log.events)]
    assert shown == [
        ("click", "mouse.click(100, 200)"),
        ("scroll", "mouse.scroll(dy=3, x=400, y=300)"),
        ("type", 'keyboard.type("Hi <é日>")'),
        ("hotkey", 'keyboard.hotkey("ctrl", "s")'),
        ("double_click", "mouse.double_click(400, 300)"),
        ("key", 'keyboard.press("enter", presses=2)'),
        ("hotkey", 'keyboard.hotkey("shift", "tab")'),
        ("drag", "mouse.drag((10, 10), (200, 150))"),
        ("right_click", "mouse.right_click(600, 500)"),
        ("type", 'keyboard.type("ls\\n")'),
    ]
    typed = [e for e in log.events if e.kind == "key_press" and e.text]
    assert "".join(e.text or "" for e in typed) == "Hi <é日>\n\nls\n"


GUI_SCRIPT = """
import sys
from deskact.toolkits.gui.api import keyboard, mouse
mouse.click(50, 60)
keyboard.type("ab,Ç")
keyboard.press("down", presses=3)
keyboard.hotkey("ctrl", "shift", "t")
mouse.scroll(dx=2, x=300, y=200)
mouse.drag((20, 30), (220, 330), duration=0.2)
"""


def test_the_gui_toolkits_input_is_logged_from_its_own_process(display: Display, tmp_path: Path) -> None:
    """pyautogui and the toolkit's keyboard map typer (pool keycodes kept remapped) in a child
    process, at the real screen scale (the observation is the screen: scale 1)."""
    path = tmp_path / input_log.LOG_FILE
    logger = input_log.start(display.name, path)
    env = {**os.environ, **display.env(), "DESKACT_OBSERVATION_MAX_WIDTH": "1280",
           "DESKACT_OBSERVATION_MAX_HEIGHT": "800", "DESKACT_GUI_PAUSE": "0.05", "DESKACT_GUI_FAILSAFE": "false"}
    subprocess.run([sys.executable, "-c", GUI_SCRIPT], env=env, check=True, timeout=60)
    assert logger.stop().error is None
    actions = group_actions(input_log.read_log(path).events)
    assert [a.code() for a in actions] == [
        "mouse.click(50, 60)",
        'keyboard.type("ab,Ç")',
        'keyboard.press("down", presses=3)',
        'keyboard.hotkey("ctrl", "shift", "t")',
        "mouse.scroll(dx=2, x=300, y=200)",
        "mouse.drag((20, 30), (220, 330))",
    ]
    samples = [s.short() for a in actions for s in a.sample_actions(scale=0.5)]
    assert samples == ["click(25, 30)", "type('ab,Ç')", "key(down)", "key(down)", "key(down)",
                       "hotkey(ctrl+shift+t)", "scroll(right, 2)", "drag(10, 15 -> 110, 165)"]


def test_a_log_without_its_stop_line_still_reads(tmp_path: Path) -> None:
    """A runner killed mid-episode leaves no stop line and maybe half a line: the rest is read."""
    path = tmp_path / input_log.LOG_FILE
    start = input_log.LogStart(display=":9", width=800, height=600, t=1.0, server_offset_s=0.0, motion_interval=0.05)
    press = input_log.InputEvent(kind="button_press", t=1.5, server_ms=1500, x=3, y=4, button=1)
    path.write_text(start.model_dump_json() + "\n" + press.model_dump_json() + "\n" + '{"kind": "button_rel')
    log = input_log.read_log(path)
    assert log.stop is None and log.events == [press]
    path.write_text(start.model_dump_json() + "\n" + '{"kind": "nonsense"}\n' + press.model_dump_json() + "\n")
    with pytest.raises(ValueError, match=r"input.jsonl:2"):
        input_log.read_log(path)
