"""Typing exactly what was asked, on a real Xvfb: every printable ASCII character, any
number of distinct non-ASCII characters across kernel sessions on one display, and the
environment GTK apps get so their settings stick without a D-Bus session.

The observable is what a real client makes of the keys: ``cat`` in an xterm writes the
typed line to a file (xterm reads the keyboard map lazily, the hardest client to please).
"""

from __future__ import annotations

import sys
from pathlib import Path

import psutil
import pytest
from deskact.runtime.config import Config
from deskact.runtime.tasks.steps import StepContext, run_reset
from deskact.runtime.world.display import Display
from deskact.toolkits.base import load_toolkit
from deskact.toolkits.gui import kernel_env

sys.path.insert(0, str(Path(__file__).parent))
from gui_testing import file_holds, run_gui, wait_until

pytestmark = pytest.mark.display

PRINTABLE = "".join(chr(c) for c in range(32, 127))
SHELL_LINE = """echo "a<b" 'c>d' | tr -d '&;$!' >> out.txt 2>&1 && ls {x,y}[0-9] (z) ~/p^q\\r %@`#"""


def start_cat(display: Display, cwd: Path, out: str, title: str) -> None:
    """An xterm running ``cat > out`` (no shell: nothing interprets the typed text)."""
    run_gui(display, f'apps.launch(["xterm", "-T", "{title}", "-e", "sh", "-c", "exec cat > {out}"], '
                     f'window="{title}")', cwd)
    wait_until(lambda: (cwd / out).exists(), f"cat started in {title}")


def finish_cat(display: Display, cwd: Path) -> None:
    run_gui(display, 'keyboard.hotkey("ctrl", "d")', cwd)


def test_every_printable_ascii_character_types_exactly(xdisplay: Display, tmp_path: Path) -> None:
    start_cat(xdisplay, tmp_path, "ascii.txt", "ascii-keys")
    # pyautogui typed "<" as ">" on this keymap (it adds shift to "<", which sits unshifted on key 94).
    line = PRINTABLE + PRINTABLE[::-1] + "\t" + SHELL_LINE + "<<>>||"
    run_gui(
        xdisplay,
        f"""
        keyboard.type({line!r})
        keyboard.press("<")
        keyboard.press(">", presses=2)
        keyboard.press("|")
        keyboard.type("\\n")
        """,
        tmp_path,
    )
    expected = line + "<>>|\n"
    try:
        wait_until(file_holds(tmp_path / "ascii.txt", expected), "cat wrote the typed line", timeout=20)
    finally:
        finish_cat(xdisplay, tmp_path)


def test_hotkey_with_a_character_that_sits_unshifted_elsewhere(xdisplay: Display, tmp_path: Path) -> None:
    # In xterm ctrl+<letter> becomes a control byte; ctrl+"[" is ESC (0x1b). "<" has to arrive
    # unshifted too: with shift it would be ">" and ctrl+">" is passed on as ">" by xterm.
    start_cat(xdisplay, tmp_path, "hot.txt", "hot-keys")
    run_gui(xdisplay, 'keyboard.hotkey("ctrl", "["); keyboard.type("x"); keyboard.down("<"); '
                      'keyboard.up("<"); keyboard.type("\\n")', tmp_path)
    try:
        wait_until(file_holds(tmp_path / "hot.txt", "\x1bx<\n"), "cat wrote ESC x < newline", timeout=20)
    finally:
        finish_cat(xdisplay, tmp_path)


# Greek, Cyrillic, CJK and symbols: 96 distinct characters, none on the US keymap.
GREEK = "αβγδεζηθικλμνξοπρστυφχψω"
CYRILLIC = "абвгдежзийклмнопрстуфхцчшщъыьэюя"
OTHER = "日本語中文字漢✓✗★☆♠♣♥♦→←↑↓€£¥©®°±×÷¶§ßðþæøå"
NON_ASCII = GREEK + CYRILLIC + OTHER


def test_distinct_non_ascii_characters_do_not_run_out_across_sessions(xdisplay: Display, tmp_path: Path) -> None:
    assert len(set(NON_ASCII)) == len(NON_ASCII) > 90
    start_cat(xdisplay, tmp_path, "uni.txt", "uni-keys")
    # Each run_gui is a new process with its own X connections, as a new kernel on a reused
    # display: a fresh Xvfb has 19 spare keycodes, and the old code left them all mapped.
    chunks = [GREEK, CYRILLIC, OTHER[:20], OTHER[20:], GREEK[:5] + "é" + CYRILLIC[-5:]]
    typed = ""
    try:
        for i, chunk in enumerate(chunks):
            # Several calls in one session, mixed with ASCII.
            half = len(chunk) // 2
            run_gui(xdisplay, f"keyboard.type({chunk[:half]!r}); keyboard.type('-{i}-' + {chunk[half:]!r})", tmp_path)
            typed += chunk[:half] + f"-{i}-" + chunk[half:]
        run_gui(xdisplay, "keyboard.type('\\n')", tmp_path)
        wait_until(file_holds(tmp_path / "uni.txt", typed + "\n"), "cat wrote every character typed", timeout=30)
    finally:
        finish_cat(xdisplay, tmp_path)


def test_non_ascii_from_two_kernel_sessions_on_one_display(xdisplay: Display, tmp_path: Path) -> None:
    from deskact.runtime.world.kernel import KernelSession

    start_cat(xdisplay, tmp_path, "kern.txt", "kern-keys")
    config = Config()
    gui = load_toolkit("gui")
    typed = ""
    try:
        for text in (CYRILLIC, GREEK + OTHER[:10]):
            with KernelSession(config, preload=[("gui", gui.preload_code())], env=kernel_env(config, xdisplay),
                               display=xdisplay.name, sandbox="none") as kernel:
                result = kernel.execute(f"windows.activate('kern-keys'); keyboard.type({text!r})", timeout=60)
                assert result.status == "ok", result.error or result.stderr
            typed += text
        run_gui(xdisplay, "keyboard.type('\\n')", tmp_path)
        wait_until(file_holds(tmp_path / "kern.txt", typed + "\n"), "cat wrote both sessions' text", timeout=30)
    finally:
        finish_cat(xdisplay, tmp_path)


# -- GTK apps without a D-Bus session ---------------------------------------------------------


def mousepads(display: Display) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["name"]):
        try:
            if proc.info["name"] == "mousepad" and proc.environ().get("DISPLAY") == display.name:
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return found


def step_ctx(display: Display, workspace: Path) -> StepContext:
    return StepContext(workspace=workspace, files=workspace, home=workspace, gold=workspace, task_id="t",
                       display=display.name)


def test_apps_started_by_the_toolkit_and_reset_steps_get_the_gui_app_env(
    xdisplay: Display, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("GSETTINGS_BACKEND", "NO_AT_BRIDGE", "DBUS_SESSION_BUS_ADDRESS"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "a.txt").write_text("from the toolkit\n")
    (tmp_path / "b.txt").write_text("from a reset step\n")
    # Not through kernel_env (which sets them for the whole kernel): apps.launch itself must.
    run_gui(xdisplay, 'apps.open("a.txt")', tmp_path, env_drop=("GSETTINGS_BACKEND", "NO_AT_BRIDGE"))
    run_reset("apps.open", {"path": "b.txt"}, step_ctx(xdisplay, tmp_path))
    wait_until(lambda: len(mousepads(xdisplay)) == 2, "two mousepads run", timeout=10)
    for proc in mousepads(xdisplay):
        environ = proc.environ()
        got = (environ.get("GSETTINGS_BACKEND"), environ.get("NO_AT_BRIDGE"))
        assert got == ("memory", "1"), (proc.cmdline(), got)


def test_a_mousepad_check_box_bound_to_a_setting_stays_checked(xdisplay: Display, tmp_path: Path) -> None:
    """Find and Replace's "Regular expression" box is a GSettings key. With the dconf backend
    and no D-Bus session the write fails and the box jumps back: the regex is then searched
    literally and nothing is replaced."""
    path = tmp_path / "digits.txt"
    path.write_text("a1 b22 c333\n")
    run_reset("apps.open", {"path": "digits.txt"}, step_ctx(xdisplay, tmp_path))
    run_gui(
        xdisplay,
        """
        windows.activate("digits.txt")
        keyboard.hotkey("ctrl", "r")
        windows.wait_for("Find and Replace")
        keyboard.type("[0-9]+")
        keyboard.hotkey("alt", "w")
        keyboard.type("#")
        keyboard.hotkey("alt", "x")   # regular expression
        keyboard.hotkey("alt", "a")   # replace all
        keyboard.hotkey("alt", "r")
        try:
            windows.wait_for("*", timeout=5)
        except TimeoutError:
            pass                      # nothing replaced: the file check below says so
        keyboard.press("esc")
        windows.wait_closed("Find and Replace")
        windows.activate("digits.txt")
        keyboard.hotkey("ctrl", "s")
        """,
        tmp_path,
    )
    wait_until(file_holds(path, "a# b# c#\n"), "mousepad saved the regex replacement", timeout=15)
