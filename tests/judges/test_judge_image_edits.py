"""image.structure_similar, image.adjusted and image.properties: the measures OSWorld's GIMP metrics
take, on pictures made here. Verdicts against desktop-env's own metrics:
tests/runtime/importers/osworld_conformance/test_conformance_gimp.py."""

from __future__ import annotations

import numpy as np
import pytest
from deskact.runtime.tasks.steps import StepContext, lookup, run_judge
from PIL import Image, ImageEnhance


def _scene(seed: int = 1) -> Image.Image:
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:40, 0:60]
    base = np.stack([100 + x, 80 + y * 2, 200 - x], axis=-1) + rng.normal(0, 6, (40, 60, 3))
    return Image.fromarray(np.clip(base, 0, 255).astype(np.uint8))


@pytest.fixture
def original(ctx: StepContext) -> Image.Image:
    assert ctx.gold is not None
    image = _scene()
    image.save(ctx.gold / "orig.png")
    return image


def test_structure_similar_passes_the_same_picture_and_a_mirror_when_asked(ctx: StepContext, original: Image.Image) -> None:
    original.save(ctx.workspace / "out.png")
    params = {"path": "out.png", "reference": "orig.png"}
    v = run_judge("image.structure_similar", params, ctx)
    assert v.passed and "SSIM 1.000 >= 0.9" in v.feedback, v.feedback
    v = run_judge("image.structure_similar", {**params, "flip": "horizontal", "min_ssim": 0.99}, ctx)
    assert not v.passed and "out.png flipped horizontally does not have the structure of orig.png" in v.feedback, v.feedback
    original.transpose(Image.Transpose.FLIP_LEFT_RIGHT).save(ctx.workspace / "out.png")
    assert run_judge("image.structure_similar", {**params, "flip": "horizontal", "min_ssim": 0.99}, ctx).passed


def test_structure_similar_fails_another_size_or_picture_or_no_file(ctx: StepContext, original: Image.Image) -> None:
    params = {"path": "out.png", "reference": "orig.png"}
    v = run_judge("image.structure_similar", params, ctx)
    assert not v.passed and "does not exist" in v.feedback, v.feedback
    original.resize((30, 20)).save(ctx.workspace / "out.png")
    v = run_judge("image.structure_similar", params, ctx)
    assert not v.passed and "RGB 30x20 and RGB 60x40 cannot be compared" in v.feedback, v.feedback
    _scene(seed=2).transpose(Image.Transpose.FLIP_TOP_BOTTOM).save(ctx.workspace / "out.png")
    v = run_judge("image.structure_similar", params, ctx)
    assert not v.passed and "SSIM" in v.feedback and "< 0.9" in v.feedback, v.feedback


@pytest.mark.parametrize(("change", "edit", "passed"), [
    ("darker", lambda im: ImageEnhance.Brightness(im).enhance(0.7), True),
    ("darker", lambda im: ImageEnhance.Brightness(im).enhance(1.2), False),
    # a darker picture of something else: stripes against the smooth gradient
    ("darker", lambda im: Image.fromarray(((np.indices((40, 60)).sum(axis=0) // 4 % 2) * 120).astype(np.uint8)), False),
    ("more_saturated", lambda im: ImageEnhance.Color(im).enhance(1.5), True),
    ("more_saturated", lambda im: ImageEnhance.Color(im).enhance(0.6), False),
    ("more_contrast", lambda im: ImageEnhance.Contrast(im).enhance(1.5), True),
    ("more_contrast", lambda im: ImageEnhance.Contrast(im).enhance(0.7), False),
])
def test_adjusted(ctx: StepContext, original: Image.Image, change: str, edit: object, passed: bool) -> None:
    edit(original).save(ctx.workspace / "out.png")  # type: ignore[operator]  # a lambda from the table
    v = run_judge("image.adjusted", {"path": "out.png", "reference": "orig.png", "change": change}, ctx)
    assert v.passed is passed, v.feedback
    assert ("out.png is orig.png" if passed else "out.png is not orig.png") in v.feedback, v.feedback


def test_adjusted_names_the_measures(ctx: StepContext, original: Image.Image) -> None:
    ImageEnhance.Brightness(original).enhance(1.2).save(ctx.workspace / "out.png")
    v = run_judge("image.adjusted", {"path": "out.png", "reference": "orig.png", "change": "darker"}, ctx)
    assert v.feedback.startswith("out.png is not orig.png darker: mean brightness"), v.feedback
    assert "mean squared error" in v.feedback


def test_properties_reads_the_format_not_the_name(ctx: StepContext, original: Image.Image) -> None:
    original.save(ctx.workspace / "a.jpg", "PNG")
    v = run_judge("image.properties", {"path": "a.jpg", "format": "JPEG"}, ctx)
    assert not v.passed and v.feedback == "a.jpg is a PNG image in mode RGB: its format should be JPEG but is PNG"
    original.save(ctx.workspace / "a.jpg", "JPEG")
    assert run_judge("image.properties", {"path": "a.jpg", "format": "jpeg", "mode": "RGB"}, ctx).passed
    original.convert("P").save(ctx.workspace / "p.png")
    assert run_judge("image.properties", {"path": "p.png", "mode": "P"}, ctx).passed
    v = run_judge("image.properties", {"path": "p.png", "mode": "L"}, ctx)
    assert not v.passed and "its mode should be L but is P" in v.feedback


def test_params_are_checked_at_load() -> None:
    with pytest.raises(ValueError, match="change"):
        lookup("judge", "image.adjusted").validate({"path": "a.png", "reference": "b.png", "change": "brighter"})
    with pytest.raises(ValueError, match="flip"):
        lookup("judge", "image.structure_similar").validate({"path": "a.png", "reference": "b.png", "flip": "diagonal"})


def test_original_is_the_tasks_file_as_it_is_when_judged(ctx: StepContext) -> None:
    _scene().save(ctx.workspace / "berry.png")
    _scene().transpose(Image.Transpose.FLIP_LEFT_RIGHT).save(ctx.workspace / "mirror.png")
    params = {"path": "mirror.png", "original": "berry.png", "flip": "horizontal", "min_ssim": 0.99}
    v = run_judge("image.structure_similar", params, ctx)
    assert v.passed and "has the structure of berry.png" in v.feedback, v.feedback
    # the agent overwrote the original with its mirror: OSWorld compares with that file then
    _scene().transpose(Image.Transpose.FLIP_LEFT_RIGHT).save(ctx.workspace / "berry.png")
    assert not run_judge("image.structure_similar", params, ctx).passed
    (ctx.workspace / "berry.png").unlink()
    v = run_judge("image.adjusted", {"path": "mirror.png", "original": "berry.png", "change": "darker"}, ctx)
    assert not v.passed and "berry.png should be the original image to compare with but does not exist" in v.feedback
    with pytest.raises(ValueError, match="reference"):
        lookup("judge", "image.adjusted").validate({"path": "a.png", "change": "darker"})
