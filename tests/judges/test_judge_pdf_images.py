"""pdf.same_images: the images two PDFs embed, pair by pair, by perceptual hash."""

from pathlib import Path

from deskact.runtime.tasks.steps import StepContext, run_judge
from PIL import Image, ImageDraw


def _picture(shape: str) -> Image.Image:
    image = Image.new("RGB", (128, 128), "white")
    draw = ImageDraw.Draw(image)
    if shape == "square":
        draw.rectangle((16, 16, 70, 70), fill="black")
    else:
        draw.ellipse((50, 50, 120, 120), fill="navy")
    return image


def _pdf(path: Path, *shapes: str) -> None:
    pages = [_picture(shape) for shape in shapes]
    pages[0].save(path, "PDF", save_all=True, append_images=pages[1:])  # each page one JPEG image


def test_same_images_pass_and_near_misses_fail(ctx: StepContext) -> None:
    _pdf(ctx.gold / "gold.pdf", "square", "circle")
    params = {"path": "out.pdf", "reference": "gold.pdf"}
    _pdf(ctx.workspace / "out.pdf", "square", "circle")
    v = run_judge("pdf.same_images", params, ctx)
    assert v.passed and not v.error, v.feedback
    _pdf(ctx.workspace / "out.pdf", "circle", "square")  # the same images, in the other order
    v = run_judge("pdf.same_images", params, ctx)
    assert not v.passed and not v.error and "bits from the reference" in v.feedback, v.feedback
    _pdf(ctx.workspace / "out.pdf", "square")  # one image fewer
    v = run_judge("pdf.same_images", params, ctx)
    assert not v.passed and "embeds 1 image(s)" in v.feedback, v.feedback


def test_missing_file_fails(ctx: StepContext) -> None:
    _pdf(ctx.gold / "gold.pdf", "square")
    v = run_judge("pdf.same_images", {"path": "none.pdf", "reference": "gold.pdf"}, ctx)
    assert not v.passed and not v.error, v.feedback
