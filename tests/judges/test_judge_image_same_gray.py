"""image.same_gray and image.identical: an image against a gold one, pixel for pixel (in grayscale at the smaller size, or as it is);
feedback counts the differing pixels. Verdicts against OSWorld's compare_images:
tests/runtime/importers/osworld_conformance/test_conformance_images.py."""

from __future__ import annotations

from deskact.runtime.tasks.steps import StepContext, run_judge
from PIL import Image


def test_same_grey_passes_and_a_changed_pixel_is_counted(ctx: StepContext) -> None:
    assert ctx.gold is not None
    Image.new("RGB", (10, 10), (255, 0, 0)).save(ctx.gold / "gold.png")
    Image.new("RGB", (10, 10), (0, 130, 0)).save(ctx.workspace / "out.png")  # the same grey
    params = {"path": "out.png", "reference": "gold.png"}
    assert run_judge("image.same_gray", params, ctx).passed
    image = Image.new("RGB", (10, 10), (255, 0, 0))
    image.putpixel((3, 3), (0, 0, 0))
    image.save(ctx.workspace / "out.png")
    v = run_judge("image.same_gray", params, ctx)
    assert not v.passed and "in 1 of 100 pixels (by up to 76 levels of 255)" in v.feedback, v.feedback
    (ctx.workspace / "out.png").write_text("not an image")
    v = run_judge("image.same_gray", params, ctx)
    assert not v.passed and not v.error and "not a readable image" in v.feedback, v.feedback


def test_image_identical_needs_every_pixel(ctx: StepContext) -> None:
    assert ctx.gold is not None
    Image.new("RGB", (10, 10), (255, 0, 0)).save(ctx.gold / "gold.png")
    Image.new("RGB", (10, 10), (0, 130, 0)).save(ctx.workspace / "out.png")
    params = {"path": "out.png", "reference": "gold.png"}
    v = run_judge("image.identical", params, ctx)
    assert not v.passed and "within the box (0, 0, 10, 10)" in v.feedback, v.feedback
    Image.new("RGB", (10, 10), (255, 0, 0)).save(ctx.workspace / "out.png")
    assert run_judge("image.identical", params, ctx).passed
