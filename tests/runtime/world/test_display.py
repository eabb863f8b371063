"""Virtual displays and host-side screenshots, on real Xvfb servers."""

from __future__ import annotations

import io
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest
from deskact.runtime.config import Config, DisplayConfig, ObservationConfig
from deskact.runtime.errors import DisplayError
from deskact.runtime.screen.screenshot import capture, decode, fit_scale
from deskact.runtime.world.display import Display, open_display, probe
from PIL import Image

pytestmark = pytest.mark.display


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _wait_dead(pids: list[int], timeout: float = 5.0) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alive = [p for p in pids if _alive(p)]
        if not alive:
            return []
        time.sleep(0.05)
    return [p for p in pids if _alive(p)]


def _wm_owner(name: str) -> int:
    from Xlib import display as xdisplay

    conn = xdisplay.Display(name)
    try:
        owner = conn.get_selection_owner(conn.intern_atom("WM_S0"))
        return int(getattr(owner, "id", owner))  # a Window when owned, 0 when not
    finally:
        conn.close()


def test_display_starts_xvfb_and_wm_then_stops_everything(requires_xvfb: None) -> None:
    with Display(width=1024, height=768, depth=24) as display:
        assert display.name.startswith(":")
        assert probe(display.name) == (1024, 768)
        assert _wm_owner(display.name) != 0, "openbox should own WM_S0 once start() returns"
        pids = list(display.pids.values())
        assert set(display.pids) == {"xvfb", "wm"}
        assert all(_alive(p) for p in pids)
    assert _wait_dead(pids) == []
    with pytest.raises(DisplayError, match="cannot connect"):
        probe(display.name)


def test_two_displays_side_by_side_are_independent(requires_xvfb: None) -> None:
    with Display(width=800, height=600) as a, Display(width=640, height=480) as b:
        assert a.name != b.name
        assert probe(a.name) == (800, 600)
        assert probe(b.name) == (640, 480)
        pids = [*a.pids.values(), *b.pids.values()]
        a.stop()
        assert probe(b.name) == (640, 480), "stopping one display must not touch the other"
    assert _wait_dead(pids) == []


def test_display_processes_die_when_the_runtime_is_killed(requires_xvfb: None, tmp_path: Path) -> None:
    # The display is started from a worker thread that then exits: PDEATHSIG must still
    # be tied to the process, not to that thread.
    script = textwrap.dedent(
        """
        import sys, threading, time
        from deskact.runtime.world.display import Display
        box = {}
        t = threading.Thread(target=lambda: box.update(d=Display(width=320, height=240).start()))
        t.start(); t.join()
        time.sleep(0.3)  # the spawning thread of the caller is gone by now
        d = box["d"]
        print(d.pids["xvfb"], d.pids["wm"], d.name, flush=True)
        time.sleep(600)
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline().split()  # type: ignore[union-attr]
        xvfb, wm, name = int(line[0]), int(line[1]), line[2]
        assert probe(name) == (320, 240), "display should still run after the starting thread exited"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert _wait_dead([xvfb, wm]) == [], "Xvfb/openbox survived a SIGKILL of the runtime"


def test_vnc_serves_on_loopback_and_stops(requires_xvfb: None) -> None:
    with Display(width=640, height=480, vnc=True) as display:
        assert display.vnc_port and display.vnc_url == f"vnc://127.0.0.1:{display.vnc_port}"
        with socket.create_connection(("127.0.0.1", display.vnc_port), timeout=5) as sock:
            assert sock.recv(12).startswith(b"RFB ")
        pids = list(display.pids.values())
    assert _wait_dead(pids) == []


def test_open_display_modes(requires_xvfb: None) -> None:
    assert open_display(Config(display=DisplayConfig(mode="none"))) is None
    virtual = open_display(DisplayConfig(width=640, height=480, window_manager=""))
    assert virtual is not None
    try:
        assert "wm" not in virtual.pids
        # attach: use an existing DISPLAY, start and stop nothing.
        old = os.environ.get("DISPLAY")
        os.environ["DISPLAY"] = virtual.name
        try:
            attached = open_display(Config(display=DisplayConfig(mode="attach")))
        finally:
            if old is None:
                os.environ.pop("DISPLAY")
            else:
                os.environ["DISPLAY"] = old
        assert attached is not None and attached.name == virtual.name
        assert attached.size == (640, 480) and attached.pids == {}
        attached.stop()
        assert probe(virtual.name) == (640, 480), "stopping an attached display must not stop the server"
    finally:
        virtual.stop()


def test_attach_without_display_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    with pytest.raises(DisplayError, match="DISPLAY is not set"):
        Display(mode="attach").start()


def test_bad_geometry_names_the_problem(requires_xvfb: None) -> None:
    with pytest.raises(DisplayError, match="Xvfb failed to start .*x7"):
        Display(width=640, height=480, depth=7).start()


def test_missing_window_manager_is_reported(requires_xvfb: None) -> None:
    display = Display(width=320, height=240, window_manager="no-such-wm")
    with pytest.raises(DisplayError, match="no-such-wm"):
        display.start()
    assert display.pids == {}, "a failed start must stop what it already started"


def test_capture_scales_encodes_and_reports_cursor(requires_xvfb: None) -> None:
    with Display(width=1920, height=1080) as display:
        subprocess.run(["xdotool", "mousemove", "960", "540"], env={**os.environ, **display.env()}, check=True)
        config = ObservationConfig(max_width=1280, max_height=800, format="png")
        shot = capture(display.name, config)
        assert (shot.width, shot.height) == (1280, 720)
        assert (shot.original_width, shot.original_height) == (1920, 1080)
        assert shot.scale == pytest.approx(2 / 3)
        assert shot.cursor_screen == (960, 540) and shot.cursor == (640, 360)
        assert shot.to_screen(640, 360) == (960, 540)
        img = decode(shot)
        assert img.format == "PNG" and img.size == (1280, 720)
        # The cursor is drawn in: the desktop is black, the pointer's pixels are not.
        near = img.crop((638, 358, 652, 376)).convert("L")
        assert near.getextrema()[1] > 100, "cursor should be drawn at the pointer position"
        far = img.crop((100, 100, 120, 120)).convert("L")
        assert far.getextrema()[1] == 0

        jpeg = capture(display.name, ObservationConfig(format="jpeg", jpeg_quality=50, include_cursor=False))
        assert jpeg.image.media_type == "image/jpeg"
        assert Image.open(io.BytesIO(jpeg.image.data)).format == "JPEG"

        full = capture(display.name, ObservationConfig(max_width=4000, max_height=4000))
        assert (full.width, full.height, full.scale) == (1920, 1080, 1.0)
        assert "use coordinates in this image" in shot.describe()


def test_capture_of_a_missing_display_raises(requires_xvfb: None) -> None:
    with pytest.raises(DisplayError):
        capture(":987")


def test_fit_scale() -> None:
    assert fit_scale(1920, 1080, 1280, 800) == pytest.approx(2 / 3)
    assert fit_scale(1280, 800, 1280, 800) == 1.0
    assert fit_scale(1000, 2000, 1280, 800) == 0.4
    with pytest.raises(ValueError, match="screen size must be positive, got 0x10"):
        fit_scale(0, 10, 5, 5)


def test_display_up_command_prints_display_and_stops_on_ctrl_c(requires_xvfb: None) -> None:
    proc = subprocess.Popen(
        [str(Path(sys.executable).parent / "deskact"), "display", "up", "--width", "640", "--height", "480"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        assert line.startswith("DISPLAY=:"), line
        name = line.strip().split("=", 1)[1]
        assert probe(name) == (640, 480)
        pids = [c.pid for c in psutil.Process(proc.pid).children(recursive=True)]
        assert pids
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(60)  # stopping Xvfb and openbox took over 10 s at load ~60
    assert proc.returncode == 0
    assert _wait_dead(pids) == []


def test_encode_png_is_lossless() -> None:
    import numpy as np
    from deskact.runtime.screen.png import encode_png

    rng = np.random.default_rng(3)
    for size in ((1, 1), (37, 5), (640, 360)):
        pixels = rng.integers(0, 256, (size[1], size[0], 3), dtype=np.uint8)
        img = Image.fromarray(pixels, "RGB")
        back = Image.open(io.BytesIO(encode_png(img)))
        back.load()
        assert back.format == "PNG" and back.size == size and back.mode == "RGB"
        assert back.tobytes() == img.tobytes()
    rgba = Image.new("RGBA", (4, 4), (10, 20, 30, 40))
    assert Image.open(io.BytesIO(encode_png(rgba))).getpixel((0, 0)) == (10, 20, 30)


def test_a_worker_restarts_a_window_manager_an_app_made_exit(requires_xvfb: None) -> None:
    """Any X client (an app in a world) may ask openbox to exit; the next task gets one again."""
    from deskact.runtime.run.worker import Worker

    cfg = Config()
    cfg.display.width, cfg.display.height = 800, 600
    with Worker(cfg) as worker:
        display = worker.display()
        old = display.pids["wm"]
        # The message is sent again until openbox acts on it (one sent while it is still busy starting
        # up can go unanswered).
        for _ in range(10):
            subprocess.run(["openbox", "--exit"], env={**os.environ, "DISPLAY": display.name}, check=True, timeout=10)
            if not _wait_dead([old], timeout=1.0):
                break
        assert _wait_dead([old]) == []
        assert worker.display() is display
        assert display.pids["wm"] != old and _alive(display.pids["wm"])
        assert _wm_owner(display.name) != 0


def test_a_window_mapped_right_after_start_is_managed(requires_xvfb: None) -> None:
    """start() returns once the window manager manages windows, not when it merely owns WM_S0:
    a window mapped in between was never mapped (Chromium opened right after a reset)."""
    from deskact.reset_scripts._x11 import wait_for_window
    from Xlib import X
    from Xlib import display as xlib_display

    for _ in range(3):
        with Display(width=640, height=480) as display:
            conn = xlib_display.Display(display.name)
            try:
                screen = conn.screen()
                window = screen.root.create_window(0, 0, 100, 100, 0, screen.root_depth, X.InputOutput,
                                                   X.CopyFromParent)
                window.set_wm_name("first window")
                window.map()
                conn.sync()
                wait_for_window(display.name, "first window", timeout=10)
                assert window.get_attributes().map_state == X.IsViewable
            finally:
                conn.close()
