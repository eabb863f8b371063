"""image.* judges: size, format and mode, structural similarity (SSIM) to a gold reference, and the
adjustments OSWorld's GIMP tasks ask for (darker, more saturated, more contrast)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Literal

from ..runtime.tasks.helpers import gold_file
from ..runtime.tasks.step_paths import StepPath
from ..runtime.tasks.steps import StepContext, Verdict, judge

if TYPE_CHECKING:
    import numpy as np
    from PIL import Image

# numpy and PIL are imported where used: every run imports every judge module (about 70 ms
# of imports, paid again by each Ray actor process), and few tasks compare images.

_MAX_SIDE = 512  # SSIM on a downscaled copy: structure survives, cost stays in milliseconds


def _gaussian_kernel(size: int = 11, sigma: float = 1.5) -> np.ndarray:
    import numpy as np

    x = np.arange(size, dtype=np.float64) - (size - 1) / 2
    k = np.exp(-(x**2) / (2 * sigma**2))
    return k / k.sum()


def _filter(img: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """Separable 'valid' convolution: a weighted sum of shifted slices per axis."""
    n = len(kernel)
    h, w = img.shape
    rows = sum(kernel[i] * img[i : h - n + 1 + i, :] for i in range(n))
    return sum(kernel[i] * rows[:, i : w - n + 1 + i] for i in range(n))


def ssim(a: np.ndarray, b: np.ndarray) -> float:
    """Mean SSIM (Wang et al. 2004) of two equal-size grayscale images with values 0..255."""
    if a.shape != b.shape:
        raise ValueError(f"shapes differ: {a.shape} vs {b.shape}")
    if min(a.shape) < 11:
        raise ValueError(f"images of {a.shape} are smaller than the 11x11 window")
    import numpy as np

    k = _gaussian_kernel()
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    a, b = a.astype(np.float64), b.astype(np.float64)
    mu_a, mu_b = _filter(a, k), _filter(b, k)
    var_a = _filter(a * a, k) - mu_a**2
    var_b = _filter(b * b, k) - mu_b**2
    cov = _filter(a * b, k) - mu_a * mu_b
    num = (2 * mu_a * mu_b + c1) * (2 * cov + c2)
    den = (mu_a**2 + mu_b**2 + c1) * (var_a + var_b + c2)
    return float(np.mean(num / den))


def _gray(path: Path | BinaryIO, size: tuple[int, int]) -> np.ndarray:
    import numpy as np
    from PIL import Image

    with Image.open(path) as im:
        if "A" in im.getbands() or "transparency" in im.info:
            # Transparent pixels count as white, as a viewer shows them.
            rgba = im.convert("RGBA")
            flat = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
            flat.alpha_composite(rgba)
            im = flat
        # Gray first: one channel to resize instead of three.
        gray = im.convert("L").resize(size, Image.Resampling.LANCZOS, reducing_gap=2.0)
        return np.asarray(gray)


def compare(path: Path | BinaryIO, reference: Path) -> float:
    """SSIM of two image files at the reference's size (capped at 512 px on the long side)."""
    from PIL import Image

    with Image.open(reference) as ref:
        w, h = ref.size
    scale = min(1.0, _MAX_SIDE / max(w, h))
    size = (max(11, round(w * scale)), max(11, round(h * scale)))
    if not isinstance(path, Path):
        path.seek(0)
    return ssim(_gray(path, size), _gray(reference, size))


def _image_size(p: Path | BinaryIO) -> tuple[int, int]:
    from PIL import Image

    with Image.open(p) as im:
        return im.size


@judge("image.size")
def image_size(ctx: StepContext, path: str, width: int | None = None, height: int | None = None) -> Verdict:
    """The image is ``width`` x ``height`` pixels (either may be omitted)."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be an image but does not exist")
    try:
        w, h = _image_size(p.bytes_io())  # the bytes read through ctx.path, never a host path opened later
    except OSError as exc:
        return Verdict.fail(f"{p} is not a readable image: {exc}")
    wrong = []
    if width is not None and w != width:
        wrong.append(f"width should be {width} but is {w}")
    if height is not None and h != height:
        wrong.append(f"height should be {height} but is {h}")
    if wrong:
        return Verdict.fail(f"{p.name} is {w}x{h}: " + "; ".join(wrong), width=w, height=h)
    return Verdict.ok(f"{p.name} is {w}x{h}", width=w, height=h)


@judge("image.similar")
def image_similar(ctx: StepContext, path: str, reference: str, min_ssim: float = 0.9) -> Verdict:
    """The image looks like ``reference`` (a file in the suite's gold/ folder, else ${FILES}):
    grayscale SSIM at the reference's size is at least ``min_ssim``."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be an image like {reference} but does not exist")
    ref = gold_file(ctx, reference)
    try:
        image = p.bytes_io()
        score = compare(image, ref)
    except OSError as exc:
        return Verdict.fail(f"{p} is not a readable image: {exc}")
    w, h = _image_size(image)
    if score >= min_ssim:
        return Verdict.ok(f"{p.name} is similar to {reference} (SSIM {score:.3f} >= {min_ssim})", ssim=score)
    return Verdict.fail(
        f"{p.name} ({w}x{h}) is not similar enough to {reference}: SSIM {score:.3f} < {min_ssim}", ssim=score
    )


def _gray_pair(actual: Path | BinaryIO, gold: Path) -> tuple[np.ndarray, np.ndarray]:
    """Both images in grayscale, resized (Lanczos) to the smaller size as OSWorld's
    ``compare_images`` picks it: the smaller (width, height) pair, width first."""
    import numpy as np
    from PIL import Image

    a, g = Image.open(actual).convert("L"), Image.open(gold).convert("L")
    size = min(a.size, g.size)
    return np.asarray(a.resize(size, Image.Resampling.LANCZOS)), np.asarray(g.resize(size, Image.Resampling.LANCZOS))


@judge("image.same_gray")
def image_same_gray(ctx: StepContext, path: str, reference: str) -> Verdict:
    """The image is ``reference`` (in the suite's gold/ folder) pixel for pixel in grayscale, after
    both are resized to the smaller size (width first, Lanczos): what it takes for OSWorld's
    ``compare_images`` (SSIM, counted as solved at 1) to pass."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be an image like {reference} but does not exist")
    try:
        a, g = _gray_pair(p.bytes_io(), gold_file(ctx, reference))
    except OSError as exc:
        return Verdict.fail(f"{p} is not a readable image: {exc}")
    differing = int((a != g).sum())
    if not differing:
        return Verdict.ok(f"{p.name} is {reference} in grayscale ({a.shape[1]}x{a.shape[0]})")
    worst = int(abs(a.astype(int) - g.astype(int)).max())
    return Verdict.fail(f"{p.name} differs from {reference} in grayscale in {differing} of {a.size} pixels"
                        f" (by up to {worst} levels of 255)", differing=differing)


@judge("image.identical")
def image_identical(ctx: StepContext, path: str, reference: str) -> Verdict:
    """The image is ``reference`` (in the suite's gold/ folder) pixel for pixel, after it is resized
    (Lanczos) to the reference's size and converted to its mode where they differ: OSWorld's
    ``compare_image_list``."""
    from PIL import Image, ImageChops

    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be an image like {reference} but does not exist")
    try:
        image, gold = Image.open(p.bytes_io()), Image.open(gold_file(ctx, reference))
        if image.size != gold.size:
            image = image.resize(gold.size, Image.Resampling.LANCZOS)
        if image.mode != gold.mode:
            image = image.convert(gold.mode)
        box = ImageChops.difference(image, gold).getbbox()
    except (OSError, ValueError) as exc:
        return Verdict.fail(f"{p} cannot be compared with {reference}: {exc}")
    if box is None:
        return Verdict.ok(f"{p.name} is {reference} pixel for pixel")
    return Verdict.fail(f"{p.name} differs from {reference} within the box {box} (left, top, right, bottom)")


def _opened(p: StepPath) -> Image.Image:
    """The image read from its bytes (through ``ctx.path``: never a host path opened later), loaded."""
    from PIL import Image

    image = Image.open(p.bytes_io())
    image.load()
    return image


def _read(p: StepPath, what: str) -> Image.Image | Verdict:
    if not p.is_file():
        return Verdict.fail(f"{p} should be {what} but does not exist")
    try:
        return _opened(p)
    except OSError as exc:
        return Verdict.fail(f"{p} is not a readable image: {exc}")


def _similarity(first: Image.Image, second: Image.Image, minimum: float, as_stored: bool = False) -> tuple[bool, str]:
    """OSWorld's structure check: RGB SSIM (7x7 window) at least ``minimum``, sizes equal; or
    AgentStudio's (``as_stored``): the pixel arrays as they are, of the same shape."""
    from ._image_measures import rgb_ssim, stored_ssim

    score = stored_ssim(first, second) if as_stored else rgb_ssim(first, second)
    if score is None:
        return False, (f"{first.mode} {first.size[0]}x{first.size[1]} and {second.mode} {second.size[0]}x{second.size[1]}"
                       " cannot be compared")
    return score >= minimum, f"SSIM {score:.3f} {'>=' if score >= minimum else '<'} {minimum}"


def _compared_with(ctx: StepContext, reference: str | None, original: str | None) -> tuple[str, Image.Image | Verdict]:
    """(its name in feedback, the image to compare with): a gold file, or a file of the task as it
    is now (OSWorld compares with the task's original file read from the VM after the agent's turn)."""
    from PIL import Image

    if reference is not None:
        with Image.open(gold_file(ctx, reference)) as gold:
            gold.load()
            return reference, gold
    assert original is not None  # one_of
    return Path(original).name, _read(ctx.path(original), "the original image to compare with")


@judge("image.structure_similar", one_of=("reference", "original"))
def image_structure_similar(ctx: StepContext, path: str, reference: str | None = None, original: str | None = None,
                            min_ssim: float = 0.9, flip: Literal["horizontal", "vertical"] | None = None,
                            as_stored: bool = False) -> Verdict:
    """The image has the same size as ``reference`` (in the suite's gold/ folder, else ${FILES}) or
    ``original`` (a file of the task, as it is when judged) and its RGB structure is similar: mean SSIM
    over R, G and B with a 7x7 window at least ``min_ssim``, after flipping it first when ``flip`` says
    so (a mirrored copy then passes). As OSWorld's GIMP metrics check structure
    (``check_structure_sim``, ``check_image_mirror`` with 0.99). ``as_stored: true`` compares the
    pixel arrays as they are, as AgentStudio's copies of those checks do: no RGB conversion (alpha is
    a channel; a single-band image's columns are), and arrays of different shapes fail."""
    from PIL import Image

    name, other = _compared_with(ctx, reference, original)
    if isinstance(other, Verdict):
        return other
    image = _read(ctx.path(path), f"an image like {name}")
    if isinstance(image, Verdict):
        return image
    if flip is not None:
        image = image.transpose(Image.Transpose.FLIP_LEFT_RIGHT if flip == "horizontal" else Image.Transpose.FLIP_TOP_BOTTOM)
    similar, how = _similarity(image, other, min_ssim, as_stored)
    what = f"{Path(path).name}{' flipped ' + flip + 'ly' if flip else ''}"
    if similar:
        return Verdict.ok(f"{what} has the structure of {name} ({how})")
    return Verdict.fail(f"{what} does not have the structure of {name}: {how}")


Change = Literal["darker", "more_saturated", "more_contrast"]


def _adjusted(image: Image.Image, original: Image.Image, change: Change, as_stored: bool = False) -> tuple[bool, str]:
    """Whether ``image`` is ``original`` with ``change`` made, and what was measured (``as_stored``:
    structure compared on the arrays as they are, as AgentStudio does)."""
    from . import _image_measures as m

    if change == "darker":
        mine, theirs = m.brightness(image), m.brightness(original)
        if not mine or not theirs:
            # OSWorld's metric divides by the brightness to normalise it: a black image scores 0
            return False, f"mean brightness {mine:.1f} against {theirs:.1f}; a black image cannot be normalised"
        error = m.stored_normalised_mse(image, original) if as_stored else m.normalised_mse(image, original)
        if error is None:
            return False, f"{image.mode} {image.size} and {original.mode} {original.size} cannot be compared as stored"
        same = error < 0.03
        return mine < theirs and same, (f"mean brightness {mine:.1f} against {theirs:.1f}; at equal brightness the"
                                        f" mean squared error is {error:.4f} ({'<' if same else '>='} 0.03)")
    if change == "more_saturated":
        mine, theirs = m.saturation(image), m.saturation(original)
        hsv, original_hsv = image.convert("HSV").split(), original.convert("HSV").split()
        hue_same, hue = _similarity(hsv[0], original_hsv[0], 0.9, as_stored)
        value_same, value = _similarity(hsv[2], original_hsv[2], 0.9, as_stored)
        return mine > theirs and hue_same and value_same, (f"mean saturation {mine:.1f} against {theirs:.1f};"
                                                          f" hue {hue}; value {value}")
    mine, theirs = m.contrast(image), m.contrast(original)
    same, how = _similarity(image, original, 0.65, as_stored)
    return mine > theirs and same, f"contrast (standard deviation) {mine:.1f} against {theirs:.1f}; structure {how}"


@judge("image.adjusted", one_of=("reference", "original"))
def image_adjusted(ctx: StepContext, path: str, change: Change, reference: str | None = None,
                   original: str | None = None, as_stored: bool = False) -> Verdict:
    """The image is the original (``reference`` in gold/ or ${FILES}, or ``original``, a file of the
    task as it is when judged) with one adjustment, measured as OSWorld's GIMP metrics do: ``darker``
    (lower mean grayscale brightness, and at equal brightness a mean squared error under 0.03),
    ``more_saturated`` (higher mean HSV saturation; hue and value channels SSIM >= 0.9) or
    ``more_contrast`` (higher standard deviation of the pixel values; RGB SSIM >= 0.65). ``as_stored``:
    the structure compared on the pixel arrays as they are, as AgentStudio's copies do (see
    image.structure_similar)."""
    name, other = _compared_with(ctx, reference, original)
    if isinstance(other, Verdict):
        return other
    image = _read(ctx.path(path), f"{name} {change.replace('_', ' ')}")
    if isinstance(image, Verdict):
        return image
    passed, how = _adjusted(image, other, change, as_stored)
    what = f"{Path(path).name} is{'' if passed else ' not'} {name} {change.replace('_', ' ')}: {how}"
    return Verdict.ok(what) if passed else Verdict.fail(what)


@judge("image.properties")
def image_properties(ctx: StepContext, path: str, format: str | None = None, mode: str | None = None) -> Verdict:
    """The file is an image in ``format`` (as Pillow names it: PNG, JPEG, GIF, TIFF, WEBP, BMP) and
    ``mode`` (P for palette-based/indexed, L grayscale, RGB, RGBA, ...), whatever its name says."""
    p = ctx.path(path)
    image = _read(p, f"a {format or ''} image".replace("  ", " "))
    if isinstance(image, Verdict):
        return image
    wrong = []
    if format is not None and (image.format or "").upper() != format.upper():
        wrong.append(f"its format should be {format} but is {image.format}")
    if mode is not None and image.mode != mode:
        wrong.append(f"its mode should be {mode} but is {image.mode}")
    found = f"{p.name} is a {image.format} image in mode {image.mode}"
    if wrong:
        return Verdict.fail(found + ": " + "; ".join(wrong), format=image.format, mode=image.mode)
    return Verdict.ok(found, format=image.format, mode=image.mode)
