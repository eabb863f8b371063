"""Screenshots read from Xvfb's mapped framebuffer, on real Xvfb servers: the same pixels as the
X server's own grab plus the pointer it draws, a root-only file gone with the display, and the
X server's grab wherever the file cannot serve."""

from __future__ import annotations

import os
import stat
import subprocess
import time
from pathlib import Path

import mss
import numpy as np
import pytest
from deskact.runtime.screen import framebuffer
from deskact.runtime.screen.grabber import Grabber
from deskact.runtime.screen.screenshot import capture, decode
from deskact.runtime.world.display import Display

pytestmark = pytest.mark.display


def _settled(grabber: Grabber) -> np.ndarray:
    """A frame once four grabs 0.1 s apart agree (the terminal has drawn, even on a loaded box)."""
    previous, same = None, 0
    for _ in range(300):
        frame, _ = grabber.grab_frame()
        same = same + 1 if previous is not None and np.array_equal(frame, previous) else 0
        if same >= 3 and frame[:, :, :3].max() > 0:
            return frame
        previous = frame
        time.sleep(0.1)
    raise AssertionError("the screen never settled")


def test_framebuffer_frame_is_the_x_servers_frame_plus_its_pointer() -> None:
    with Display(width=800, height=600) as display:
        env = {**os.environ, **display.env()}
        term = subprocess.Popen(["xterm", "-bg", "white", "-geometry", "60x20+10+10", "-e", "sh", "-c",
                                 "ls /usr/bin; sleep 60"], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            subprocess.run(["xdotool", "mousemove", "200", "150"], env=env, check=True)
            grabber = Grabber(display.name, include_cursor=True)
            assert grabber._fb is not None, "a display this process started should be read from its file"
            for _ in range(20):  # the two grabs must see the same screen: xterm may draw in between
                mine = _settled(grabber)
                with mss.MSS(display=display.name, with_cursor=False) as sct:
                    shot = sct.grab(sct.monitors[0])
                theirs = np.frombuffer(shot.raw, np.uint8).reshape(600, 800, 4)
                if np.array_equal(grabber.grab_frame()[0], mine):
                    break
            differs = np.argwhere((mine[:, :, :3] != theirs[:, :, :3]).any(axis=2))
            # Only the pointer, which the server draws into its framebuffer, tells them apart.
            assert len(differs) > 0
            top, left = differs.min(axis=0)
            bottom, right = differs.max(axis=0)
            assert top >= 150 - 32 and bottom <= 150 + 32 and left >= 200 - 32 and right <= 200 + 32
            grabber.close()
        finally:
            term.kill()
            term.wait()


def test_the_file_is_root_only_and_removed_with_the_display() -> None:
    with Display(width=320, height=240) as display:
        path = framebuffer.lookup(display.name)
        assert path is not None and path.exists()
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
        assert path.parent.parent == Path("/dev/shm")
        shot = capture(display.name)
        assert decode(shot).size == (320, 240)
        name = display.name
    assert framebuffer.lookup(name) is None
    assert not path.parent.exists()


def test_x_server_grab_where_the_file_cannot_serve() -> None:
    # No file asked for, or the pointer left out (the file always shows it).
    for display, include_cursor in ((Display(width=320, height=240, framebuffer_file=False), True),
                                    (Display(width=320, height=240), False)):
        with display:
            grabber = Grabber(display.name, include_cursor=include_cursor)
            assert grabber._fb is None
            frame, _ = grabber.grab_frame()
            assert frame.shape == (240, 320, 4)
            grabber.close()


def test_a_file_that_is_not_a_32_bit_screen_is_refused(tmp_path: Path) -> None:
    with Display(width=320, height=240, depth=16, window_manager="") as display:
        path = framebuffer.lookup(display.name)
        assert path is not None and path.exists()
        assert framebuffer.Framebuffer.open(path) is None  # 2 bytes a pixel
    junk = tmp_path / "Xvfb_screen0"
    junk.write_bytes(b"\0" * 4096)
    assert framebuffer.Framebuffer.open(junk) is None
    assert framebuffer.Framebuffer.open(tmp_path / "missing") is None


def test_too_little_room_in_dev_shm_means_no_file(monkeypatch: pytest.MonkeyPatch) -> None:
    from collections import namedtuple

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr("deskact.runtime.world.display.shutil.disk_usage", lambda path: usage(64 << 20, 60 << 20, 4 << 20))
    with Display(width=1920, height=1080, window_manager="") as display:
        assert framebuffer.lookup(display.name) is None
        assert decode(capture(display.name)).size == (1280, 720)


def test_an_xvfb_that_cannot_make_its_file_starts_again_without_it(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    gone = tmp_path / "removed"
    monkeypatch.setattr(Display, "_framebuffer_dir", lambda self: str(gone) if self.framebuffer_file else None)
    with Display(width=320, height=240, window_manager="") as display:
        assert not display.framebuffer_file and framebuffer.lookup(display.name) is None
        assert decode(capture(display.name)).size == (320, 240)
