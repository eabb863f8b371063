"""The GUI toolkit driving real applications on a real Xvfb.

Toolkit code runs where the agent's code runs: in a sandboxed kernel (the xterm
test) or in a plain Python subprocess with the kernel's environment (the rest,
faster). Every effect is checked outside the toolkit: files on disk, the X
selection, screenshots taken by the runtime, window positions from the server.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest
from deskact.runtime.config import Config, DisplayConfig, ObservationConfig
from deskact.runtime.screen.screenshot import capture, decode
from deskact.runtime.world.display import Display
from deskact.toolkits.base import load_toolkit
from deskact.toolkits.gui import kernel_env

sys.path.insert(0, str(Path(__file__).parent))
from gui_testing import file_holds, run_gui, wait_until
from PIL import ImageChops

pytestmark = pytest.mark.display

UNICODE = "Grüße, naïve café — 日本語 ✓ Ωμέγα"


def frame(display: Display, box: tuple[int, int, int, int] | None = None):
    """A full-resolution screenshot from the runtime side (no cursor), optionally cropped."""
    shot = capture(display.name, ObservationConfig(max_width=10_000, max_height=10_000, include_cursor=False))
    img = decode(shot).convert("RGB")
    return img.crop(box) if box else img


def differs(a, b) -> bool:
    return ImageChops.difference(a, b).getbbox() is not None


def window_box(out: str) -> tuple[int, int, int, int]:
    """Parse "x y w h" printed by toolkit code."""
    x, y, w, h = (int(v) for v in out.split()[-4:])
    return x, y, w, h


# -- acceptance: typing Unicode from inside a sandboxed kernel -----------------------


def test_type_unicode_into_xterm_from_sandboxed_kernel(xdisplay: Display, tmp_path: Path) -> None:
    from deskact.runtime.world.kernel import KernelSession

    config = Config()
    gui = load_toolkit("gui")
    code = textwrap.dedent(
        f"""
        w = apps.launch("xterm -T deskact-term", window="deskact-term", timeout=30)
        mouse.click(*w.center)
        keyboard.type("printf '%s' '{UNICODE}' > typed.txt")
        keyboard.press("enter")
        print(screen.size, screen.scale)
        """
    )
    with KernelSession(
        config,
        preload=[("gui", gui.preload_code())],
        env=kernel_env(config, xdisplay),
        display=xdisplay.name,
        sandbox="bwrap",
    ) as kernel:
        result = kernel.execute(code, timeout=60)
        assert result.status == "ok", result.error or result.stderr
        assert "(1280, 800) 1.0" in result.stdout
        # xterm inherited the kernel's cwd: its workspace, the one folder the sandbox may write.
        wait_until(file_holds(kernel.workspace / "typed.txt", UNICODE), "the shell in xterm wrote typed.txt")


# -- acceptance: editor round trip -------------------------------------------------------


def test_open_text_file_in_editor_replace_and_save(xdisplay: Display, tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("old text that must go\n", encoding="utf-8")
    new = f"new text: {UNICODE}"
    run_gui(
        xdisplay,
        f"""
        w = apps.open("notes.txt")
        assert "notes.txt" in w.title, w
        screen.wait_stable(timeout=10)  # as an agent would look first: the editor finished drawing
        keyboard.hotkey("ctrl", "a")
        keyboard.type({new!r})
        keyboard.hotkey("ctrl", "s")
        """,
        tmp_path,
    )
    wait_until(lambda: notes.read_text(encoding="utf-8").rstrip("\n") == new, "mousepad saved notes.txt")


# -- acceptance: each input action has an observable effect ------------------------------


def test_drag_moves_a_window_by_its_title_bar(xdisplay: Display, tmp_path: Path) -> None:
    out = run_gui(
        xdisplay,
        """
        w = apps.launch("xterm -T drag-me -geometry 40x10+100+100", window="drag-me")
        mouse.drag((w.x + 40, w.y - 8), (w.x + 340, w.y + 192))
        time.sleep(0.3)
        m = windows.find("drag-me")
        print(w.x, w.y, m.x, m.y)
        """.replace("time.sleep", "__import__('time').sleep"),
        tmp_path,
    )
    x0, y0, x1, y1 = (int(v) for v in out.split())
    assert abs((x1 - x0) - 300) <= 3 and abs((y1 - y0) - 200) <= 3, out


def test_right_click_opens_a_menu(xdisplay: Display, tmp_path: Path) -> None:
    box = (1000, 500, 1279, 799)
    before = frame(xdisplay, box)
    run_gui(xdisplay, "mouse.right_click(1010, 510)", tmp_path)
    # openbox's root menu pops up at the pointer on a right click on the desktop.
    wait_until(lambda: differs(before, frame(xdisplay, box)), "a menu appeared at the pointer")
    run_gui(xdisplay, "keyboard.press('esc')", tmp_path)
    wait_until(lambda: not differs(before, frame(xdisplay, box)), "the menu closed again")


def test_double_click_selects_a_word(xdisplay: Display, tmp_path: Path) -> None:
    run_gui(
        xdisplay,
        """
        w = apps.launch(["xterm", "-T", "dbl", "-geometry", "30x3+100+100", "-e", "sh", "-c",
                         "echo zebraword; exec sleep 60"], window="dbl")
        __import__('time').sleep(0.5)  # let the shell print its line
        mouse.double_click(w.x + 20, w.y + 8)
        """,
        tmp_path,
    )
    env = {**os.environ, "DISPLAY": xdisplay.name}

    def primary() -> str:
        proc = subprocess.run(["xclip", "-o", "-selection", "primary"], env=env, capture_output=True, text=True, check=False)
        return proc.stdout

    wait_until(lambda: primary() == "zebraword", "xterm owns the PRIMARY selection 'zebraword'", timeout=5)


def test_scroll_moves_through_scrollback_in_the_right_direction(xdisplay: Display, tmp_path: Path) -> None:
    out = run_gui(
        xdisplay,
        """
        w = apps.launch(["xterm", "-T", "scrolly", "-sl", "1000", "-geometry", "40x10+100+100",
                         "-e", "sh", "-c", "seq 1 300; exec sleep 60"], window="scrolly")
        __import__('time').sleep(0.5)
        mouse.move(5, 5)  # keep the pointer out of the window's pixels
        print(w.x, w.y, w.width, w.height)
        """,
        tmp_path,
    )
    x, y, w, h = window_box(out)
    box = (x, y, x + w, y + h)
    bottom = frame(xdisplay, box)
    run_gui(xdisplay, f"mouse.scroll(dy=5, x={x + w // 2}, y={y + h // 2}); mouse.move(5, 5)", tmp_path)
    time.sleep(0.3)
    assert not differs(bottom, frame(xdisplay, box)), "dy>0 scrolls down, and we are at the bottom already"
    run_gui(xdisplay, f"mouse.scroll(dy=-5, x={x + w // 2}, y={y + h // 2}); mouse.move(5, 5)", tmp_path)
    wait_until(lambda: differs(bottom, frame(xdisplay, box)), "dy<0 scrolled back (up) through the output")
    run_gui(xdisplay, f"mouse.scroll(dy=5, x={x + w // 2}, y={y + h // 2}); mouse.move(5, 5)", tmp_path)
    wait_until(lambda: not differs(bottom, frame(xdisplay, box)), "dy>0 scrolled down to the bottom again")


def test_hotkey_ctrl_d_ends_input(xdisplay: Display, tmp_path: Path) -> None:
    run_gui(xdisplay, 'apps.launch("xterm -T hot", window="hot"); keyboard.type("cat > hot.txt\\n")', tmp_path)
    # Keys that arrive while bash's readline still has the terminal in raw mode reach cat as
    # plain bytes (a ^D would not mean end-of-file): wait until the shell has started cat.
    wait_until(lambda: (tmp_path / "hot.txt").exists(), "the shell started cat > hot.txt")
    run_gui(
        xdisplay,
        """
        keyboard.type("line one\\n")
        keyboard.hotkey("ctrl", "d")
        keyboard.type("echo done > done.txt\\n")
        """,
        tmp_path,
    )
    wait_until(lambda: (tmp_path / "done.txt").is_file(), "the shell ran the command after cat ended")
    assert (tmp_path / "hot.txt").read_text() == "line one\n"


def test_key_names_are_checked(xdisplay: Display, tmp_path: Path) -> None:
    out = run_gui(
        xdisplay,
        """
        try:
            keyboard.press("no-such-key")
        except ValueError as exc:
            print("ValueError:", exc)
        """,
        tmp_path,
    )
    assert "unknown key 'no-such-key'" in out


# -- acceptance: coordinates in the scaled screenshot land on the element -----------------

TARGET = """
import sys
from Xlib import X, display
d = display.Display()
s = d.screen()
win = s.root.create_window(1500, 900, 90, 60, 0, s.root_depth, background_pixel=0xFF0000,
                           override_redirect=True, event_mask=X.ButtonPressMask | X.ExposureMask)
win.map()
d.sync()
while True:
    ev = d.next_event()
    if ev.type == X.Expose:
        print("ready", flush=True)
    elif ev.type == X.ButtonPress:
        print("press", ev.root_x, ev.root_y, ev.detail, flush=True)
        break
"""


def test_click_in_scaled_screenshot_coordinates_lands_on_the_element(requires_xvfb: None, tmp_path: Path) -> None:
    config = Config(display=DisplayConfig(width=1920, height=1080))
    with Display.from_config(config.display) as display:
        target = subprocess.Popen(
            [sys.executable, "-c", TARGET], env={**os.environ, "DISPLAY": display.name},
            stdout=subprocess.PIPE, text=True,
        )
        try:
            assert target.stdout is not None and target.stdout.readline().strip() == "ready"
            # What the model sees: the runtime's scaled screenshot. Find the red element in it.
            shot = capture(display.name, config.observation)
            assert (shot.width, shot.height) == (1280, 720)
            img = decode(shot).convert("RGB")
            red = img.point(lambda v: 255 if v > 200 else 0).split()
            mask = ImageChops.subtract(red[0], ImageChops.add(red[1], red[2]))
            left, top, right, bottom = mask.getbbox()
            cx, cy = (left + right) // 2, (top + bottom) // 2
            out = run_gui(display, f"mouse.click({cx}, {cy}); print(*mouse.position(), *screen.size)", tmp_path,
                          config=config)
            try:
                target.wait(10)  # it exits after the first button press
            except subprocess.TimeoutExpired:
                pytest.fail("the click never reached the element")
            press = target.stdout.read().split()
        finally:
            target.kill()
            target.wait()
    assert press[0] == "press", press
    px, py = int(press[1]), int(press[2])
    assert 1500 <= px < 1590 and 900 <= py < 960, f"click landed at ({px}, {py}), outside the element"
    assert abs(px - cx / shot.scale) <= 2 and abs(py - cy / shot.scale) <= 2
    assert out.split() == [str(cx), str(cy), "1280", "720"], "position() and size are in screenshot coordinates"


def test_toolkit_docs_state_the_coordinate_space() -> None:
    docs = load_toolkit("gui").documentation()
    assert "pixels in the screenshot you were shown" in docs
    for call in ("mouse.click(", "mouse.drag(", "mouse.scroll(", "keyboard.type(", "keyboard.hotkey(",
                 "screen.screenshot(", "windows.wait_for(", "apps.open(", "screen.size"):
        assert call in docs, call


# -- acceptance: two displays at once -------------------------------------------------------


def test_two_displays_driven_independently_and_cleaned_up(requires_xvfb: None, tmp_path: Path) -> None:
    pids: list[int] = []
    with Display(width=800, height=600) as a, Display(width=800, height=600) as b:
        for name, display in (("A", a), ("B", b)):
            out = run_gui(
                display,
                f"""
                apps.launch("xterm -T term-{name}", window="term-{name}")
                keyboard.type("printf '{name} ✓' > {name}.txt\\n")
                print(windows.titles())
                """,
                tmp_path,
            )
            assert f"term-{name}" in out and f"term-{'B' if name == 'A' else 'A'}" not in out
        wait_until(file_holds(tmp_path / "A.txt", "A ✓"), "display A's xterm wrote A.txt")
        wait_until(file_holds(tmp_path / "B.txt", "B ✓"), "display B's xterm wrote B.txt")
        pids = [*a.pids.values(), *b.pids.values()]
        xterms = [p.pid for p in psutil.process_iter(["name", "environ"])
                  if p.info["name"] == "xterm" and (p.info["environ"] or {}).get("DISPLAY") in (a.name, b.name)]
    def gone(pid: int) -> bool:
        return not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    wait_until(lambda: all(gone(p) for p in pids), "Xvfb and openbox of both displays exited", timeout=10)
    # Apps on a stopped display lose their X connection and exit too.
    wait_until(lambda: all(gone(p) for p in xterms), "the xterms exited with their displays", timeout=10)


# -- acceptance: LibreOffice Calc round trip through the GUI -------------------------------


def test_calc_edits_xlsx_through_the_gui(xdisplay: Display, tmp_path: Path) -> None:
    import openpyxl

    path = tmp_path / "stock.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    sheet["A1"], sheet["B1"], sheet["A2"], sheet["B2"] = "item", "qty", "apples", 3
    book.save(path)
    before = path.stat().st_mtime_ns
    out = run_gui(
        xdisplay,
        """
        import time
        apps.open("stock.xlsx", timeout=120)
        assert screen.wait_stable(timeout=30), "Calc kept redrawing"  # keys sent while it loads get lost
        keyboard.hotkey("ctrl", "home")        # A1
        keyboard.press("down", presses=2)      # A3
        keyboard.type("apples, Äpfel\\t42\\n")  # doubled letters: see api._REPEAT_GAP_S
        keyboard.hotkey("ctrl", "s")
        # LibreOffice asks whether to keep the .xlsx format; Enter picks "Use Excel ... Format!".
        dialog = windows.wait_for("Confirm File Format", timeout=30)
        print("dialog:", dialog.title)
        keyboard.press("enter")
        """,
        tmp_path,
        timeout=180,
    )
    assert "dialog:" in out

    def saved() -> bool:
        if path.stat().st_mtime_ns == before:
            return False
        try:
            values = openpyxl.load_workbook(path).active
        except Exception:  # noqa: BLE001 - half-written file: try again
            return False
        return values["A3"].value == "apples, Äpfel" and values["B3"].value == 42

    wait_until(saved, "stock.xlsx holds A3='apples, Äpfel' and B3=42", timeout=60)


# -- settings and errors ----------------------------------------------------------------------


def test_kernel_env_defaults_by_display_mode() -> None:
    virtual = kernel_env(Config())
    assert {k: v for k, v in virtual.items() if k.startswith("DESKACT_")} == {
        "DESKACT_GUI_PAUSE": "0.0", "DESKACT_GUI_FAILSAFE": "false",
        "DESKACT_OBSERVATION_MAX_WIDTH": "1280", "DESKACT_OBSERVATION_MAX_HEIGHT": "800",
    }
    # GTK apps the agent starts on a virtual display keep their settings without D-Bus.
    assert virtual["GSETTINGS_BACKEND"] == "memory" and virtual["NO_AT_BRIDGE"] == "1"
    attach = kernel_env(Config(display=DisplayConfig(mode="attach")))
    assert attach["DESKACT_GUI_PAUSE"] == "0.05" and attach["DESKACT_GUI_FAILSAFE"] == "true"
    assert "GSETTINGS_BACKEND" not in attach, "a person's desktop keeps its own settings backend"
    chosen = kernel_env(Config.model_validate({"gui": {"pause": 0.2, "failsafe": True}}))
    assert chosen["DESKACT_GUI_PAUSE"] == "0.2" and chosen["DESKACT_GUI_FAILSAFE"] == "true"
    # Every variable is also a valid config key, so load_config() in the kernel would accept them.
    from deskact.runtime.config import load_config

    assert load_config(environ=attach).display.mode == "virtual"


def test_settings_reach_pyautogui_and_errors_are_helpful(xdisplay: Display, tmp_path: Path) -> None:
    config = Config(display=DisplayConfig(mode="attach"))
    (tmp_path / "data.xyz").write_text("?")
    out = run_gui(
        xdisplay,
        """
        import pyautogui
        mouse.move(10, 10)
        print("pause", pyautogui.PAUSE, "failsafe", pyautogui.FAILSAFE)
        for call in (lambda: windows.wait_for("no such window", timeout=0.2),
                     lambda: windows.activate("no such window"),
                     lambda: mouse.click(5000, 10),
                     lambda: mouse.click(10),
                     lambda: apps.open("missing.txt"),
                     lambda: apps.open("data.xyz"),
                     lambda: apps.launch("no-such-program-here")):
            try:
                call()
            except Exception as exc:
                print(type(exc).__name__ + ":", exc)
        """,
        tmp_path,
        config=config,
    )
    assert "pause 0.05 failsafe True" in out
    assert "TimeoutError: no window titled 'no such window' after 0.2s; windows: []" in out
    assert "LookupError: no window titled 'no such window'; windows: []" in out
    assert "ValueError: point (5000, 10) is outside the screen (0..1279, 0..799)" in out
    assert "ValueError: give both x and y, or neither" in out
    assert "FileNotFoundError: no such file:" in out and "missing.txt" in out
    assert "FileNotFoundError: cannot launch 'no-such-program-here'" in out
    if shutil.which("xdg-open"):  # the desktop's own choice, which fails for an unknown type
        assert "RuntimeError: xdg-open exited with code" in out
    else:
        assert "ValueError: no app known for '.xyz' files; known: " in out
