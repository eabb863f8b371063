"""The capture path: scaling keeps coordinates exact, the pointer is drawn where it is,
JPEG and PNG decode to the scaled size, and a real display's grab matches mss's."""

from __future__ import annotations

import io
import os
import subprocess

import mss
import numpy as np
import pytest
from deskact.runtime.config import ObservationConfig
from deskact.runtime.screen import frames
from deskact.runtime.screen.grabber import Grabber
from deskact.runtime.screen.screenshot import screenshot_from_frame
from deskact.runtime.world.display import Display
from PIL import Image


def _frame_with_square(x: int, y: int, size: int = 6) -> np.ndarray:
    frame = np.zeros((1080, 1920, 4), np.uint8)
    frame[y:y + size, x:x + size, :3] = 255
    return frame


@pytest.mark.parametrize("fmt", ["jpeg", "png"])
@pytest.mark.parametrize(("x", "y"), [(0, 0), (903, 600), (1914, 1074)])
def test_a_mark_lands_where_the_model_clicks(fmt: str, x: int, y: int) -> None:
    shot = screenshot_from_frame(_frame_with_square(x, y), None, ObservationConfig(format=fmt))
    img = np.asarray(Image.open(io.BytesIO(shot.image.data)).convert("L"), dtype=np.float32)
    assert img.shape == (720, 1280) and (shot.width, shot.height) == (1280, 720)
    # The model clicks the centre of the bright blob it sees...
    ys, xs = np.nonzero(img > 100)
    cx, cy = xs.mean(), ys.mean()
    # ...and the click lands inside the square on the screen.
    sx, sy = shot.to_screen(cx, cy)
    assert x <= sx < x + 6 and y <= sy < y + 6, (cx, cy, sx, sy)


def test_pointer_sprite_is_drawn_scaled_at_its_place() -> None:
    sprite_px = np.zeros((24, 24, 4), np.uint8)
    sprite_px[:, :, :3], sprite_px[:, :, 3] = 255, 255  # opaque white
    sprite_px[12:, :, 3] = 0  # bottom half transparent
    sprite = frames.Sprite(left=300, top=150, pixels=sprite_px)
    shot = screenshot_from_frame(np.zeros((1080, 1920, 4), np.uint8), (300, 150),
                                 ObservationConfig(format="png"), sprite)
    img = np.asarray(Image.open(io.BytesIO(shot.image.data)).convert("L"))
    ys, xs = np.nonzero(img > 128)
    assert (xs.min(), ys.min(), xs.max(), ys.max()) == (200, 100, 215, 107)
    assert shot.cursor == (200, 100)


def test_unscaled_frame_is_not_written_through() -> None:
    frame = np.zeros((100, 200, 4), np.uint8)
    frame.flags.writeable = False  # as the shared-memory grab hands it out
    sprite = frames.Sprite(left=10, top=10, pixels=np.full((4, 4, 4), 255, np.uint8))
    shot = screenshot_from_frame(frame, None, ObservationConfig(format="png"), sprite)
    assert (shot.width, shot.height, shot.scale) == (200, 100, 1.0)
    assert np.asarray(Image.open(io.BytesIO(shot.image.data)))[11, 11].tolist() == [255, 255, 255]
    assert frame.max() == 0


def test_grab_matches_mss_on_a_real_display(requires_xvfb: None) -> None:
    with Display(width=800, height=600) as display:
        env = {**os.environ, **display.env()}
        term = subprocess.Popen(["xterm", "-geometry", "60x20+10+10", "-e", "sh", "-c", "ls /usr/bin; sleep 60"],
                                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            grabber = Grabber(display.name, include_cursor=False)
            reference = mss.MSS(display=display.name, with_cursor=False)
            for _ in range(50):  # until the terminal has drawn and the screen is still
                a, _ = grabber.grab_frame()
                shot = reference.grab(reference.monitors[0])
                b = np.frombuffer(shot.raw, np.uint8).reshape(600, 800, 4)
                c, _ = grabber.grab_frame()
                if a[:, :, :3].max() > 0 and np.array_equal(a[:, :, :3], c[:, :, :3]):
                    break
            assert np.array_equal(a[:, :, :3], b[:, :, :3]), "the shared-memory grab differs from mss's"
            assert grabber._shm._direct, "the zero-copy path should be in use on Xvfb"
            grabber.close()
            reference.close()
        finally:
            term.kill()
            term.wait()
