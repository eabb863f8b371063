"""Scaling and encoding a raw screen frame for the model, without leaving the grab's buffer.

A grab from mss is BGRX bytes. Converting it to an RGB PIL image costs a full
pass over 8 MB before any real work; here the frame stays a numpy view of those
bytes: OpenCV scales it (SIMD, four channels at once) and libjpeg-turbo (through
simplejpeg) reads BGRX directly. Measured choices (BENCHMARKS.md "Screenshots"):

- For factors down to 1/2, bilinear already weighs every source pixel
  (1920 -> 1280 gives weights 3/4, 1/4 against the ideal box filter's 2/3, 1/3)
  at a sixth of INTER_AREA's cost on non-integer factors; below 1/2 bilinear
  would skip pixels (thin strokes vanish), so INTER_AREA takes over.
- JPEG 4:4:4 at quality 90 keeps small glyphs as distinguishable as the lossless
  image (the legibility check in benchmarks/screen.py); 4:2:0 smears coloured text.
- Scaling and encoding run on ``observation.capture_threads`` cores at once, in
  bands of rows joined into one JPEG (``jpeg_bands``): the same pixels, in about
  half the time on two cores.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..config import ObservationConfig
from ..execution import Image
from . import jpeg_bands
from .png import encode_png


def _cv2() -> Any:
    import cv2

    # The box has 2 cores shared by many workers: OpenCV's own thread pool only
    # adds hand-offs (measured slower for one 1920x1080 resize under load).
    cv2.setNumThreads(1)
    return cv2


def bgrx_view(raw: bytes | bytearray | memoryview, width: int, height: int) -> np.ndarray:
    """The grab's bytes as an (height, width, 4) array, no copy."""
    return np.frombuffer(raw, dtype=np.uint8).reshape(height, width, 4)


def scale_frame(frame: np.ndarray, size: tuple[int, int], out: np.ndarray | None = None) -> np.ndarray:
    """Downscale an (h, w, channels) frame to ``size`` = (width, height), into ``out`` if given."""
    height, width = frame.shape[:2]
    if (width, height) == size:
        return frame
    cv2 = _cv2()
    factor = size[0] / width
    interpolation = cv2.INTER_LINEAR if factor >= 0.5 else cv2.INTER_AREA
    return cv2.resize(frame, size, dst=out, interpolation=interpolation)


def scale_and_encode(frame: np.ndarray, size: tuple[int, int], config: ObservationConfig,
                     sprite: Sprite | None = None) -> Image:
    """``frame`` scaled to ``size`` with ``sprite`` (the pointer) drawn in, encoded as ``config`` asks;
    JPEGs in bands on ``config.capture_threads`` cores when the sizes allow an exact cut."""
    height = frame.shape[0]
    bands = None
    if config.format == "jpeg":
        bands = jpeg_bands.split(height, size[1], config.capture_threads, config.jpeg_subsampling)
    if bands:
        def encode_band(band: jpeg_bands.Band) -> bytes:
            part = _scaled(frame[band.src_top:band.src_bottom], (size[0], band.bottom - band.top),
                           sprite, size[0] / frame.shape[1], band.top)
            return encode_frame(part, config).data

        data = jpeg_bands.join(jpeg_bands.run_bands(bands, encode_band), size[0], size[1],
                               config.jpeg_subsampling)
        if data is not None:
            return Image(media_type="image/jpeg", data=data)
    return encode_frame(_scaled(frame, size, sprite, size[0] / frame.shape[1]), config)


def _scaled(frame: np.ndarray, size: tuple[int, int], sprite: Sprite | None, scale: float,
            top: int = 0) -> np.ndarray:
    """The scaled frame in this thread's scratch buffer (valid until its next call), pointer drawn."""
    buffer = _scratch((size[1], size[0], frame.shape[2]))
    small = scale_frame(frame, size, buffer)
    if sprite is not None:
        if small is frame:  # not scaled: never draw into the grab's shared memory
            small = buffer
            np.copyto(small, frame)
        draw_sprite(small, sprite, scale, top)
    return small


_scratch_buffers = threading.local()


def _scratch(shape: tuple[int, ...]) -> np.ndarray:
    """One reused array per thread: a fresh 2-4 MB result per screenshot is new memory to fault in
    whenever the allocator has handed the last one back to the kernel. With other large images
    coming and going between screenshots (as in a worker), one-thread capture CPU went 7.5 -> 5.9 ms."""
    buffer: np.ndarray | None = getattr(_scratch_buffers, "array", None)
    if buffer is None or buffer.shape != shape:
        buffer = _scratch_buffers.array = np.empty(shape, np.uint8)
    return buffer


def encode_frame(frame: np.ndarray, config: ObservationConfig) -> Image:
    """Encode a BGRX frame as ``config.format`` asks."""
    if config.format == "jpeg":
        import simplejpeg

        data = simplejpeg.encode_jpeg(
            np.ascontiguousarray(frame), quality=config.jpeg_quality, colorspace="BGRA",
            colorsubsampling=config.jpeg_subsampling, fastdct=True,
        )
        return Image(media_type="image/jpeg", data=data)
    rgb = _cv2().cvtColor(frame, _cv2().COLOR_BGRA2RGB)
    return Image(media_type="image/png", data=encode_png(rgb))


@dataclass
class Sprite:
    """The mouse pointer's image (BGRA, straight alpha) with its top-left corner in screen pixels."""

    left: int
    top: int
    pixels: np.ndarray


def draw_sprite(img: np.ndarray, sprite: Sprite, scale: float, top_row: int = 0) -> None:
    """Blend ``sprite`` into ``img`` (a writable frame ``scale`` times the screen's size, or the band
    of it that starts at row ``top_row``)."""
    pixels = sprite.pixels
    if scale != 1.0:
        size = (max(1, round(pixels.shape[1] * scale)), max(1, round(pixels.shape[0] * scale)))
        pixels = _cv2().resize(pixels, size, interpolation=_cv2().INTER_AREA)
    left, top = round(sprite.left * scale), round(sprite.top * scale) - top_row
    h, w = pixels.shape[:2]
    x0, y0 = max(left, 0), max(top, 0)
    x1, y1 = min(left + w, img.shape[1]), min(top + h, img.shape[0])
    if x0 >= x1 or y0 >= y1:
        return
    src = pixels[y0 - top:y1 - top, x0 - left:x1 - left]
    alpha = src[:, :, 3:4].astype(np.uint16)
    dst = img[y0:y1, x0:x1, :3]
    dst[:] = ((src[:, :, :3] * alpha + dst * (255 - alpha) + 127) // 255).astype(np.uint8)


def to_pil(frame: np.ndarray) -> Any:
    """An RGB PIL image of a BGRX frame (for the episode video, tests and tools that want PIL)."""
    from PIL import Image as PILImage

    height, width = frame.shape[:2]
    return PILImage.frombuffer("RGB", (width, height), np.ascontiguousarray(frame), "raw", "BGRX", 0, 1)
