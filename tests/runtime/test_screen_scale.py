"""The screen-to-image mapping the runtime and the gui toolkit share."""

from __future__ import annotations

import pytest
from deskact.runtime.screen_scale import fit_scale, scale_image, scaled_size
from PIL import Image


def test_fit_scale_shrinks_to_the_tighter_side_and_never_enlarges() -> None:
    assert fit_scale(1920, 1080, 1280, 800) == pytest.approx(2 / 3)
    assert fit_scale(1080, 1920, 1280, 800) == pytest.approx(800 / 1920)
    assert fit_scale(800, 600, 1280, 800) == 1.0
    with pytest.raises(ValueError, match="0x1080"):
        fit_scale(0, 1080, 1280, 800)


def test_scaled_size_rounds_and_keeps_at_least_one_pixel() -> None:
    assert scaled_size(1920, 1080, 2 / 3) == (1280, 720)
    assert scaled_size(3, 3, 0.01) == (1, 1)


def test_scale_image_gives_the_asked_size_and_leaves_a_fitting_image_alone() -> None:
    img = Image.new("RGB", (1920, 1080), "red")
    small = scale_image(img, (640, 360))  # an integer factor: box reduction only
    assert small.size == (640, 360) and small.getpixel((320, 180)) == (255, 0, 0)
    assert scale_image(img, (1280, 720)).size == (1280, 720)
    assert scale_image(img, (1920, 1080)) is img
