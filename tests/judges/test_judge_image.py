from pathlib import Path

import numpy as np
import pytest
from deskact.judges.image import ssim
from deskact.runtime.tasks.steps import StepContext, Verdict, lookup, run_judge
from PIL import Image, ImageDraw


def j(judge_name: str, ctx: StepContext, **params: object) -> Verdict:
    v = run_judge(judge_name, params, ctx)
    assert not v.error, v.feedback
    return v


def chart(path: Path, size: tuple[int, int] = (400, 300), bars: tuple[int, ...] = (50, 120, 200)) -> None:
    im = Image.new("RGB", size, "white")
    d = ImageDraw.Draw(im)
    w, h = size
    for i, b in enumerate(bars):
        x = 40 + i * (w // 4)
        d.rectangle([x, h - 20 - b * h // 300, x + w // 8, h - 20], fill=(30, 90, 200))
    d.line([20, h - 20, w - 20, h - 20], fill="black", width=3)
    im.save(path)


def test_ssim_properties() -> None:
    rng = np.random.default_rng(0)
    a = rng.integers(0, 256, (64, 64)).astype(np.uint8)
    assert ssim(a, a) == pytest.approx(1.0)
    noisy = np.clip(a + rng.normal(0, 40, a.shape), 0, 255)
    assert 0.2 < ssim(a, noisy) < 0.9
    assert ssim(a, 255 - a) < 0
    with pytest.raises(ValueError, match="shapes differ"):
        ssim(a, a[:32])


def test_image_size(ctx: StepContext) -> None:
    Image.new("RGB", (640, 480)).save(ctx.workspace / "a.png")
    assert j("image.size", ctx, path="a.png", width=640, height=480).passed
    assert j("image.size", ctx, path="a.png", width=640).passed
    v = j("image.size", ctx, path="a.png", width=800, height=480)
    assert v.feedback == "a.png is 640x480: width should be 800 but is 640"
    (ctx.workspace / "b.png").write_text("not an image")
    assert j("image.size", ctx, path="b.png", width=1).feedback.startswith("b.png is not a readable image")
    assert j("image.size", ctx, path="c.png", width=1).feedback == "c.png should be an image but does not exist"


def test_image_similar_from_gold(ctx: StepContext) -> None:
    chart(ctx.gold / "ref.png")
    # The same picture saved at twice the size as a JPEG: resampling and artefacts, same structure.
    Image.open(ctx.gold / "ref.png").resize((800, 600), Image.Resampling.BICUBIC).save(
        ctx.workspace / "same_bigger.jpg", quality=70)
    chart(ctx.workspace / "other.png", bars=(200, 20, 90))
    v = j("image.similar", ctx, path="same_bigger.jpg", reference="ref.png", min_ssim=0.9)
    assert v.passed, v.feedback
    assert v.details["ssim"] > 0.9
    v = j("image.similar", ctx, path="other.png", reference="ref.png", min_ssim=0.9)
    assert not v.passed
    assert v.feedback.startswith("other.png (400x300) is not similar enough to ref.png: SSIM 0.")
    assert v.feedback.endswith("< 0.9")


def test_image_similar_reference_falls_back_to_files_and_reports_missing(ctx: StepContext) -> None:
    chart(ctx.files / "ref2.png")
    chart(ctx.workspace / "x.png")
    assert j("image.similar", ctx, path="x.png", reference="ref2.png").passed
    v = run_judge("image.similar", {"path": "x.png", "reference": "nope.png"}, ctx)
    assert v.error and "reference file 'nope.png' not found" in v.feedback


def test_image_params_at_load() -> None:
    with pytest.raises(ValueError, match="missing param `reference` for `image.similar`"):
        lookup("judge", "image.similar").validate({"path": "x.png"})
    with pytest.raises(ValueError, match=r"param `width` of `image.size` = 'wide'"):
        lookup("judge", "image.size").validate({"path": "x.png", "width": "wide"})
