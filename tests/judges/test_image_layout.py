"""image.green_background, image.dark_at_left, image.shape_centred, image.content_size and
image.structure_resized: OSWorld's GIMP rules of where things are, on pictures made here, with the
feedback they give. Verdicts against desktop-env's own metrics:
tests/runtime/importers/osworld_conformance/test_conformance_gimp_layout.py."""

from __future__ import annotations

import numpy as np
import pytest
from deskact.runtime.tasks.steps import StepContext, lookup, run_judge
from PIL import Image, ImageDraw


def _disc(background: tuple[int, int, int], size: tuple[int, int] = (30, 30)) -> Image.Image:
    image = Image.new("RGB", size, background)
    ImageDraw.Draw(image).ellipse((8, 8, 20, 20), fill=(0, 0, 0))
    return image


def test_green_background(ctx: StepContext) -> None:
    _disc((255, 255, 255)).save(ctx.workspace / "white.png")
    params = {"path": "green.png", "original": "white.png"}
    assert "does not exist" in run_judge("image.green_background", params, ctx).feedback
    green = _disc((10, 200, 30))
    green.save(ctx.workspace / "green.png")
    v = run_judge("image.green_background", params, ctx)
    assert v.passed and "green in all" in v.feedback and "where white.png is not black" in v.feedback, v.feedback
    green.putpixel((0, 0), (200, 200, 30))
    green.save(ctx.workspace / "green.png")
    v = run_judge("image.green_background", params, ctx)
    assert not v.passed and "is not green in 1 of the" in v.feedback and v.details["not_green"] == 1, v.feedback
    _disc((255, 255, 255), (40, 30)).save(ctx.workspace / "white.png")
    v = run_judge("image.green_background", params, ctx)
    assert not v.passed and "the original is 40x30" in v.feedback and "unless square" in v.feedback, v.feedback


def test_dark_at_left(ctx: StepContext) -> None:
    image = Image.new("RGB", (200, 40), (240, 140, 30))
    ImageDraw.Draw(image).rectangle((9, 10, 50, 20), fill=(10, 10, 10))
    image.save(ctx.workspace / "t.png")
    v = run_judge("image.dark_at_left", {"path": "t.png"}, ctx)
    assert v.passed and "leftmost dark pixel in column 9, within the left 5% of its 200 columns" in v.feedback, v.feedback
    image.crop((0, 0, 180, 40)).save(ctx.workspace / "t.png")  # 9 is no longer below 5 % of 180
    v = run_judge("image.dark_at_left", {"path": "t.png"}, ctx)
    assert not v.passed and "(before column 9)" in v.feedback, v.feedback
    Image.new("RGB", (50, 20), (240, 140, 30)).save(ctx.workspace / "t.png")
    v = run_judge("image.dark_at_left", {"path": "t.png", "within": 0.5}, ctx)
    assert not v.passed and "has no dark pixel" in v.feedback, v.feedback
    with pytest.raises(ValueError, match="within"):
        lookup("judge", "image.dark_at_left").validate({"path": "t.png", "within": 0})


def test_shape_centred(ctx: StepContext) -> None:
    image = Image.new("RGB", (100, 80), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    draw.rectangle((45, 35, 54, 44), fill=(250, 220, 20))
    draw.point([(0, 0)], fill=(0, 0, 0))
    image.save(ctx.workspace / "s.png")
    v = run_judge("image.shape_centred", {"path": "s.png"}, ctx)
    assert v.passed and "(100 pixels) has its centroid at row 39.5, column 49.5" in v.feedback, v.feedback
    image = image.transform(image.size, Image.Transform.AFFINE, (1, 0, -20, 0, 1, 0), fillcolor=(255, 255, 255))
    image.save(ctx.workspace / "s.png")
    v = run_judge("image.shape_centred", {"path": "s.png"}, ctx)
    assert not v.passed and "column 69.5; it should be within 5%" in v.feedback, v.feedback


def test_shape_centred_with_a_tie_needs_every_candidate_centred(ctx: StepContext) -> None:
    image = Image.new("RGB", (100, 100), (255, 255, 255))
    ImageDraw.Draw(image).rectangle((10, 10, 89, 89), fill=(250, 220, 20))
    image.putpixel((50, 50), (1, 2, 3))
    image.putpixel((51, 49), (4, 5, 6))
    image.save(ctx.workspace / "s.png")
    v = run_judge("image.shape_centred", {"path": "s.png"}, ctx)
    assert v.passed and "one of 2 colours with as many" in v.feedback, v.feedback
    image.putpixel((51, 49), (255, 255, 255))
    image.putpixel((5, 5), (4, 5, 6))
    image.save(ctx.workspace / "s.png")
    v = run_judge("image.shape_centred", {"path": "s.png"}, ctx)
    assert not v.passed and "row 5.0, column 5.0" in v.feedback, v.feedback


def test_content_size(ctx: StepContext) -> None:
    image = Image.new("RGBA", (60, 90), (0, 0, 0, 0))
    ImageDraw.Draw(image).rectangle((5, 10, 44, 73), fill=(200, 100, 0, 255))
    image.save(ctx.workspace / "c.png")
    v = run_judge("image.content_size", {"path": "c.png", "height": 64}, ctx)
    assert not v.passed and v.feedback == "c.png (RGBA 60x90) measures 60x90: its height should be 64", v.feedback
    v = run_judge("image.content_size", {"path": "c.png", "height": 64, "width": 40, "ignore_transparent": True}, ctx)
    assert v.passed and v.details == {"width": 40, "height": 64}, v.feedback


def test_structure_resized(ctx: StepContext) -> None:
    rng = np.random.default_rng(0)
    y, x = np.mgrid[0:40, 0:60]
    photo = Image.fromarray(np.clip(np.stack([100 + x, 80 + 2 * y, 200 - x], -1) + rng.normal(0, 1, (40, 60, 3)),
                                    0, 255).astype(np.uint8))
    photo.save(ctx.workspace / "orig.png")
    canvas = Image.new("RGBA", (60, 40), (0, 0, 0, 0))
    canvas.paste(photo.resize((30, 20)).convert("RGBA"), (5, 5))
    canvas.save(ctx.workspace / "r.png")
    params = {"path": "r.png", "original": "orig.png"}
    v = run_judge("image.structure_resized", params, ctx)
    assert v.passed and "r.png resized to 60x40 has the structure of orig.png" in v.feedback, v.feedback
    Image.new("RGBA", (60, 40), (0, 0, 0, 0)).save(ctx.workspace / "r.png")
    v = run_judge("image.structure_resized", params, ctx)
    assert not v.passed and "fully transparent" in v.feedback, v.feedback
