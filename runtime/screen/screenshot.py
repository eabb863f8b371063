"""Screenshots for the model, taken in the runtime's own process (never through the kernel).

A grab is scaled down to fit ``observation.max_width x max_height`` (aspect
kept, never enlarged) and encoded as PNG or JPEG. The model writes coordinates
in the image it saw; ``runtime/screen_scale.py``'s ``fit_scale`` is the single
definition of that mapping, shared with the GUI toolkit in the kernel so both
sides agree.

Speed (see BENCHMARKS.md "Screenshots"): frames are read in place from Xvfb's
mapped file or MIT-SHM (``grabber``); the raw BGRX buffer is scaled and encoded
as it is (``frames``: OpenCV and libjpeg-turbo, no RGB conversion); PNG is
written unfiltered at zlib level 1 (``png``: 7 ms instead of Pillow's 17 ms at
1280x720, same size).

The grabber's, PNG's and scaling's names are importable from here too: this
module was ``runtime/agent/observation.py``, and code written against that path
keeps working.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np
from PIL import Image as PILImage
from pydantic import BaseModel

from ..config import ObservationConfig
from ..execution import Image
from ..screen_scale import fit_scale, scale_image, scaled_size
from . import frames
from .grabber import FrameFn, Grabber, forget, with_frame
from .png import encode_png

# Pillow hands freed image memory back to the OS by default, so every full-HD frame is
# paid again in page faults (measured: grab 1.2 -> 7.9 ms CPU while other images are alive).
# Keeping a few freed blocks for reuse removes that; it only ever raises the limit.
_PIL_BLOCKS = 6
if PILImage.core.get_blocks_max() < _PIL_BLOCKS:
    PILImage.core.set_blocks_max(_PIL_BLOCKS)


class Screenshot(BaseModel):
    """One observation: the encoded image plus what is needed to map coordinates back."""

    image: Image
    width: int
    """Size of the encoded image (the model's coordinate space)."""
    height: int
    original_width: int
    """Size of the screen in pixels."""
    original_height: int
    scale: float
    """Image pixels per screen pixel (1.0 = not scaled)."""
    cursor: tuple[int, int] | None = None
    """Pointer position in image coordinates (None if the pointer is off screen)."""
    cursor_screen: tuple[int, int] | None = None
    """Pointer position in screen pixels."""
    a11y: str | None = None
    """The active window's accessibility tree as text (``observation.a11y``), filled by the task's env."""

    def to_screen(self, x: float, y: float) -> tuple[int, int]:
        """Map a point in the image to screen pixels."""
        return round(x / self.scale), round(y / self.scale)

    def describe(self) -> str:
        """One line for the prompt stating the coordinate space."""
        note = "" if self.scale == 1.0 else f" (screen is {self.original_width}x{self.original_height}, scaled)"
        where = f"; mouse pointer at {self.cursor}" if self.cursor else ""
        return f"Screenshot {self.width}x{self.height}{note}; use coordinates in this image{where}."


def encode(img: PILImage.Image, config: ObservationConfig) -> Image:
    if config.format == "png":
        return Image(media_type="image/png", data=encode_png(img))
    buf = io.BytesIO()
    img.save(buf, format="JPEG", quality=config.jpeg_quality)
    return Image(media_type="image/jpeg", data=buf.getvalue())


def capture(display: str, config: ObservationConfig | None = None) -> Screenshot:
    """Screenshot of X display ``display`` (e.g. ":3") as the model should see it."""
    config = config or ObservationConfig()
    return with_frame(display, config.include_cursor,
                      lambda frame, cursor, sprite: screenshot_from_frame(frame, cursor, config, sprite))


def screenshot_from(img: PILImage.Image, cursor: tuple[int, int] | None, config: ObservationConfig) -> Screenshot:
    """``screenshot_from_frame`` for a PIL image (other sources than a grab)."""
    rgb = np.asarray(img.convert("RGB"))
    frame = np.concatenate([rgb[:, :, ::-1], np.zeros((*rgb.shape[:2], 1), np.uint8)], axis=2)
    return screenshot_from_frame(frame, cursor, config)


def screenshot_from_frame(frame: np.ndarray, cursor: tuple[int, int] | None,
                          config: ObservationConfig, sprite: frames.Sprite | None = None) -> Screenshot:
    """Scale and encode a full-resolution BGRX frame (split out for benchmarks and the video);
    ``sprite`` (the pointer) is drawn into the scaled image."""
    height, width = frame.shape[:2]
    scale = fit_scale(width, height, config.max_width, config.max_height)
    size = scaled_size(width, height, scale)
    return Screenshot(
        image=frames.scale_and_encode(frame, size, config, sprite),
        width=size[0],
        height=size[1],
        original_width=width,
        original_height=height,
        scale=scale,
        cursor=(round(cursor[0] * scale), round(cursor[1] * scale)) if cursor else None,
        cursor_screen=cursor,
    )


def decode(shot: Screenshot) -> Any:
    """The screenshot as a PIL image (for judges, reports and tests)."""
    return PILImage.open(io.BytesIO(shot.image.data))


__all__ = [
    "FrameFn", "Grabber", "Screenshot", "capture", "decode", "encode", "encode_png", "fit_scale",
    "forget", "scale_image", "scaled_size", "screenshot_from", "screenshot_from_frame", "with_frame",
]
