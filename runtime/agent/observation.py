"""Screenshots for the model, taken in the runtime's own process (never through the kernel).

A grab is scaled down to fit ``observation.max_width x max_height`` (aspect
kept, never enlarged) and encoded as PNG or JPEG. The model writes coordinates
in the image it saw; ``fit_scale`` is the single definition of that mapping,
shared with the GUI toolkit in the kernel so both sides agree.

Speed (see BENCHMARKS.md "Screenshots"): mss grabs through MIT-SHM in ~2 ms;
the raw BGRX buffer is scaled and encoded as it is (``frames``: OpenCV and
libjpeg-turbo, no RGB conversion); PNG is written unfiltered at zlib level 1
(``encode_png``: 7 ms instead of Pillow's 17 ms at 1280x720, same size).
``scale_image`` is the PIL twin of ``frames.scale_frame`` for the gui toolkit,
which sizes its screenshots the same way.
"""

from __future__ import annotations

import io
import struct
import threading
import zlib
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
from PIL import Image as PILImage
from pydantic import BaseModel

from ..config import ObservationConfig
from ..errors import DisplayError
from ..execution import Image
from ..world.framebuffer import Framebuffer, lookup
from . import frames
from .shm_grab import ShmGrab

T = TypeVar("T")
FrameFn = Callable[[np.ndarray, "tuple[int, int] | None", "frames.Sprite | None"], T]

# Pillow hands freed image memory back to the OS by default, so every full-HD frame is
# paid again in page faults (measured: grab 1.2 -> 7.9 ms CPU while other images are alive).
# Keeping a few freed blocks for reuse removes that; it only ever raises the limit.
_PIL_BLOCKS = 6
if PILImage.core.get_blocks_max() < _PIL_BLOCKS:
    PILImage.core.set_blocks_max(_PIL_BLOCKS)


def fit_scale(width: int, height: int, max_width: int, max_height: int) -> float:
    """Factor (<= 1) that makes ``width x height`` fit into ``max_width x max_height``."""
    if width <= 0 or height <= 0:
        raise ValueError(f"screen size must be positive, got {width}x{height}")
    return min(1.0, max_width / width, max_height / height)


def scaled_size(width: int, height: int, scale: float) -> tuple[int, int]:
    return max(1, round(width * scale)), max(1, round(height * scale))


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


def scale_image(img: PILImage.Image, size: tuple[int, int]) -> PILImage.Image:
    """Fast, good-enough downscale: integer box reduction first, then bilinear for the rest."""
    if img.size == size:
        return img
    factor = min(img.width // size[0], img.height // size[1])
    if factor >= 2:
        # reduce() is a box filter on integer factors, several times faster than a resample.
        img = img.reduce(factor)
    if img.size != size:
        img = img.resize(size, PILImage.Resampling.BILINEAR)
    return img


def _png_chunk(tag: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body))


def encode_png(img: PILImage.Image | np.ndarray, level: int = 1) -> bytes:
    """Lossless PNG, about 2.5x faster than Pillow's encoder on screenshots.

    Pillow tries every PNG row filter on every row (about 10 ms of its 17 ms
    at 1280x720); screen content compresses as well with no filter at all
    (filter byte 0 on each row), leaving only zlib's work.
    """
    if isinstance(img, np.ndarray):  # (height, width, 3) RGB
        height, width = img.shape[:2]
        rows = np.ascontiguousarray(img).reshape(height, width * 3)
    else:
        if img.mode != "RGB":
            img = img.convert("RGB")
        width, height = img.size
        rows = np.frombuffer(img.tobytes(), dtype=np.uint8).reshape(height, width * 3)
    scanlines = np.zeros((height, width * 3 + 1), dtype=np.uint8)  # column 0: filter type None
    scanlines[:, 1:] = rows
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return (
        b"\x89PNG\r\n\x1a\n"
        + _png_chunk(b"IHDR", header)
        + _png_chunk(b"IDAT", zlib.compress(scanlines.tobytes(), level))
        + _png_chunk(b"IEND", b"")
    )


def encode(img: PILImage.Image, config: ObservationConfig) -> Image:
    if config.format == "png":
        return Image(media_type="image/png", data=encode_png(img))
    buf = io.BytesIO()
    img.save(buf, format="JPEG", quality=config.jpeg_quality)
    return Image(media_type="image/jpeg", data=buf.getvalue())


class Grabber:
    """A connection to one X display that grabs frames and the pointer position.

    Keeps the mss and Xlib connections open between steps (opening them costs
    more than a grab). Thread-safe; one per display.
    """

    def __init__(self, display: str, include_cursor: bool = True, framebuffer: bool = True) -> None:
        import mss
        from Xlib import display as xdisplay

        self.display = display
        self.include_cursor = include_cursor
        self._lock = threading.Lock()
        try:
            self._sct = mss.MSS(display=display, with_cursor=False)  # ShmGrab draws the pointer
            self._x = xdisplay.Display(display)
        except Exception as exc:
            raise DisplayError(f"cannot capture X display {display!r}: {exc}") from exc
        self._root = self._x.screen().root
        self._shm = ShmGrab(self._sct, include_cursor)
        # A display this process started keeps its screen in a mapped file: read it in place, no
        # copy by the server. Its frames show the pointer (the server draws it there), so only
        # screenshots that include the pointer use it.
        self._fb = self._framebuffer() if include_cursor and framebuffer else None

    def _framebuffer(self) -> Framebuffer | None:
        path = lookup(self.display)
        fb = Framebuffer.open(path) if path is not None else None
        monitor = self._sct.monitors[0]
        if fb is not None and fb.frame.shape[:2] != (monitor["height"], monitor["width"]):
            fb.close()  # the screen was resized (RANDR): the file no longer describes it
            return None
        return fb

    def process(self, fn: FrameFn[T]) -> T:
        """``fn(frame, pointer, sprite)`` on a fresh full-resolution BGRX frame, read in place:
        the frame is read-only and valid only inside ``fn`` (the next grab overwrites it);
        ``sprite`` is the pointer's image to draw (None when ``include_cursor`` is off)."""
        with self._lock:
            if self._fb is not None:
                frame, sprite = self._fb.frame, None
            else:
                frame, sprite = self._shm.grab()
            pointer = self._root.query_pointer()
            cursor = (int(pointer.root_x), int(pointer.root_y)) if pointer.same_screen else None
            return fn(frame, cursor, sprite)

    def grab_frame(self) -> tuple[np.ndarray, tuple[int, int] | None]:
        """Full-resolution BGRX frame (height, width, 4), a copy with the pointer drawn, and
        the pointer in screen pixels."""
        def copy(frame: np.ndarray, cursor: tuple[int, int] | None,
                 sprite: frames.Sprite | None) -> tuple[np.ndarray, tuple[int, int] | None]:
            out = frame.copy()
            if sprite is not None:
                frames.draw_sprite(out, sprite, 1.0)
            return out, cursor

        return self.process(copy)

    def grab(self) -> tuple[PILImage.Image, tuple[int, int] | None]:
        """Full-resolution RGB frame and the pointer position in screen pixels."""
        frame, cursor = self.grab_frame()
        return frames.to_pil(frame), cursor

    def close(self) -> None:
        """Close both connections; errors from a server that is already gone are expected."""
        with self._lock:
            if self._fb is not None:
                self._fb.close()
                self._fb = None
            for conn in (self._sct, self._x):
                try:
                    conn.close()
                except Exception:  # noqa: BLE001, S110 - the display died under us: nothing left to close
                    pass


_grabbers: dict[tuple[str, bool], Grabber] = {}
_grabbers_lock = threading.Lock()


def _grabber(display: str, include_cursor: bool) -> Grabber:
    key = (display, include_cursor)
    with _grabbers_lock:
        grabber = _grabbers.get(key)
        if grabber is None:
            grabber = _grabbers[key] = Grabber(display, include_cursor)
        return grabber


def forget(display: str) -> None:
    """Close cached connections to ``display`` (call when it stops)."""
    with _grabbers_lock:
        for key in [k for k in _grabbers if k[0] == display]:
            _grabbers.pop(key).close()


def capture(display: str, config: ObservationConfig | None = None) -> Screenshot:
    """Screenshot of X display ``display`` (e.g. ":3") as the model should see it."""
    config = config or ObservationConfig()
    return with_frame(display, config.include_cursor,
                      lambda frame, cursor, sprite: screenshot_from_frame(frame, cursor, config, sprite))


def with_frame(display: str, include_cursor: bool, fn: FrameFn[T]) -> T:
    """``Grabber.process`` on ``display`` through the cached connection."""
    try:
        return _grabber(display, include_cursor).process(fn)
    except DisplayError:
        raise
    except Exception:  # noqa: BLE001 - a cached connection to a server that has since restarted
        # Display numbers are reused: ":1" may be a new server now. Reconnect once.
        forget(display)
        try:
            return _grabber(display, include_cursor).process(fn)
        except DisplayError:
            raise
        except Exception as exc:
            forget(display)
            raise DisplayError(f"screenshot of X display {display!r} failed: {exc}") from exc


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
