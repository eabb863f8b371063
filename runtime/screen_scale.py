"""How the screen maps to the image the model sees: the one definition both sides use.

The runtime scales its screenshots with these (``runtime/screen``), and the gui
toolkit, inside the agent's kernel, maps the model's coordinates back to screen
pixels with the same ``fit_scale``. So this module imports nothing but the
standard library at load time: the kernel pays for no capture machinery (numpy,
OpenCV, libjpeg-turbo, X connections) to do three lines of arithmetic.
"""

from __future__ import annotations

from typing import Any


def fit_scale(width: int, height: int, max_width: int, max_height: int) -> float:
    """Factor (<= 1) that makes ``width x height`` fit into ``max_width x max_height``."""
    if width <= 0 or height <= 0:
        raise ValueError(f"screen size must be positive, got {width}x{height}")
    return min(1.0, max_width / width, max_height / height)


def scaled_size(width: int, height: int, scale: float) -> tuple[int, int]:
    """The image size of a ``width x height`` screen scaled by ``scale`` (at least 1x1)."""
    return max(1, round(width * scale)), max(1, round(height * scale))


def scale_image(img: Any, size: tuple[int, int]) -> Any:
    """A PIL image downscaled to ``size``, fast and good enough: integer box reduction first,
    then bilinear for the rest (the PIL twin of ``screen.frames.scale_frame``)."""
    if img.size == size:
        return img
    factor = min(img.width // size[0], img.height // size[1])
    if factor >= 2:
        # reduce() is a box filter on integer factors, several times faster than a resample.
        img = img.reduce(factor)
    if img.size != size:
        from PIL import Image as PILImage

        img = img.resize(size, PILImage.Resampling.BILINEAR)
    return img
