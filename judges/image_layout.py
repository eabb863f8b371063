"""image.* judges of where things are in an edited image, by the rules OSWorld's GIMP metrics use
(desktop-env's metrics/gimp.py): a background turned green, dark pixels at the left edge, a shape
moved to the centre, the size of what is not transparent, the structure after resizing.

Each rule is kept as the metric applies it, quirks included, because the task's verdict depends on
them (see each judge's docstring). PIL and numpy are imported where used (see image.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from pydantic import Field

from ..runtime.tasks.steps import StepContext, Verdict, judge
from .image import _compared_with, _read

if TYPE_CHECKING:
    import numpy as np
    from PIL import Image

Fraction = Annotated[float, Field(gt=0, le=1)]


def _described(image: Image.Image) -> str:
    return f"{image.mode} {image.size[0]}x{image.size[1]}"


def not_green_where_lit(image: Image.Image, original: Image.Image) -> tuple[int, int, str]:
    """(pixels checked, pixels not green, what stopped the check) for check_green_background's rule:
    every pixel of ``original`` whose first three values are not all 0 must, at the same place in
    ``image``, have G above R and above B. The metric reads pixel ``[x, y]`` of the arrays (row x,
    column y) for x across the width and y across the height, so only a square original is read
    whole (any other raises), a single-band one not at all; a two-band (LA) original counts every
    pixel as lit; ``image`` needs three bands or more and may be larger (its top-left part is read).
    A non-empty third item means the metric fails (or raises) before deciding pixel by pixel."""
    import numpy as np

    lit_in, img = np.asarray(original), np.asarray(image)
    height, width = lit_in.shape[:2]
    if width != height:
        return 0, 0, f"the original is {width}x{height}: OSWorld's metric reads it as rows by columns and fails unless square"
    if lit_in.ndim != 3:
        return 0, 0, f"the original is single-band ({original.mode}): OSWorld's metric cannot read its red, green, blue"
    lit = np.ones((height, width), bool) if lit_in.shape[2] < 3 else (lit_in[:, :, :3] != 0).any(axis=2)
    rows, cols = np.nonzero(lit)
    if not len(rows):
        return 0, 0, ""
    if img.ndim != 3 or img.shape[2] < 3:
        return len(rows), len(rows), f"{_described(image)} has no red, green and blue bands to read"
    if rows.max() >= img.shape[0] or cols.max() >= img.shape[1]:
        return len(rows), len(rows), f"{_described(image)} is smaller than the original ({width}x{height})"
    r, g, b = (img[rows, cols, c] for c in range(3))
    return len(rows), int(np.count_nonzero(~((g > r) & (g > b)))), ""


@judge("image.green_background", one_of=("reference", "original"))
def image_green_background(ctx: StepContext, path: str, reference: str | None = None,
                           original: str | None = None) -> Verdict:
    """Every pixel of ``original`` (a file of the task, as it is when judged) or ``reference`` (in
    gold/) that is not black is green in the image: its green value above its red and its blue.
    OSWorld's ``check_green_background``, with its reading of the pixel arrays: the original must be
    square with red, green and blue bands (any alpha is ignored), and only the pixels where the
    original is not black are looked at (the object painted black stays as it is)."""
    name, other = _compared_with(ctx, reference, original)
    if isinstance(other, Verdict):
        return other
    image = _read(ctx.path(path), f"{name} with a green background")
    if isinstance(image, Verdict):
        return image
    checked, wrong, why = not_green_where_lit(image, other)
    what = Path(path).name
    if why:
        return Verdict.fail(f"{what} cannot be checked against {name}: {why}")
    if wrong:
        return Verdict.fail(f"{what} is not green in {wrong} of the {checked} pixels where {name} is not black"
                            " (green should be above red and blue)", not_green=wrong, checked=checked)
    return Verdict.ok(f"{what} is green in all {checked} pixels where {name} is not black", checked=checked)


def leftmost_dark(image: Image.Image) -> int | None:
    """The leftmost column holding a pixel darker than 128 in grayscale (Pillow's "L"), or None."""
    import numpy as np

    columns = np.flatnonzero((np.asarray(image.convert("L")) < 128).any(axis=0))
    return int(columns[0]) if len(columns) else None


@judge("image.dark_at_left")
def image_dark_at_left(ctx: StepContext, path: str, within: Fraction = 0.05) -> Verdict:
    """A dark pixel (grayscale below 128, alpha ignored) lies in the image's leftmost ``within`` of
    its width: OSWorld's ``check_textbox_on_leftside`` (0.05), which takes the leftmost dark pixel
    for the left edge of the text box."""
    image = _read(ctx.path(path), "an image with dark text at its left")
    if isinstance(image, Verdict):
        return image
    width = image.size[0]
    column = leftmost_dark(image)
    where = "has no dark pixel" if column is None else f"has its leftmost dark pixel in column {column}"
    if column is not None and column < width * within:
        return Verdict.ok(f"{Path(path).name} {where}, within the left {within:.0%} of its {width} columns",
                          column=column)
    return Verdict.fail(f"{Path(path).name} {where}; one should be within the left {within:.0%} of its {width}"
                        f" columns (before column {width * within:g})", column=column)


def _pixels_as_keys(pixels: np.ndarray) -> np.ndarray:
    """One integer per pixel, equal for equal colours (Pillow's images have at most 4 bands of 8 bits)."""
    import numpy as np

    keys = np.zeros(pixels.shape[:2], np.uint64)
    for band in range(pixels.shape[2]):
        keys = (keys << np.uint64(8)) | pixels[:, :, band].astype(np.uint64)
    return keys.ravel()


def rare_colour_centroids(image: Image.Image) -> tuple[np.ndarray, int, str]:
    """(centroids (row, column) of every colour that OSWorld's ``check_triangle_position`` may take
    for the shape, their pixel count, what stopped it). The metric sorts the image's colours by
    pixel count, fewest first, and takes the second: when other colours have that same count,
    which one numpy's sort puts there changes between numpy versions and CPUs, so every one of
    them is returned."""
    import numpy as np

    pixels = np.asarray(image)
    if pixels.ndim != 3:
        return np.empty((0, 2)), 0, f"{_described(image)} is single-band: OSWorld's metric cannot count its colours"
    _, labels, counts = np.unique(_pixels_as_keys(pixels), return_inverse=True, return_counts=True)
    if len(counts) < 2:
        return np.empty((0, 2)), 0, f"{_described(image)} has one colour: there is no shape to find"
    count = int(np.sort(counts)[1])
    chosen = np.flatnonzero(counts == count)
    rows, cols = np.indices(pixels.shape[:2])
    sums = [np.bincount(labels, weights=axis.ravel(), minlength=len(counts))[chosen] for axis in (rows, cols)]
    return np.stack(sums, axis=1) / count, count, ""


@judge("image.shape_centred")
def image_shape_centred(ctx: StepContext, path: str, tolerance: Fraction = 0.05) -> Verdict:
    """The shape is in the middle of the image, found as OSWorld's ``check_triangle_position``
    finds it: the pixels of the image's second least common colour (every band compared, alpha
    too), whose centroid must be less than ``tolerance`` (0.05) of the height and of the width from
    the centre. Where several colours share that pixel count, OSWorld's pick among them depends on
    its numpy version and CPU; this judge then passes only if every one of them is centred, so it
    never passes where OSWorld could fail (single-band images and one-colour images fail)."""
    image = _read(ctx.path(path), "an image with a centred shape")
    if isinstance(image, Verdict):
        return image
    import numpy as np

    centroids, count, why = rare_colour_centroids(image)
    what = Path(path).name
    if why:
        return Verdict.fail(f"{what}: {why}")
    size = np.array([image.size[1], image.size[0]], float)
    off = np.abs(centroids - size / 2)
    centred = (off < tolerance * size).all(axis=1)
    worst = centroids[int(np.argmax((off / size).max(axis=1)))]
    found = (f"the second least common colour ({count} pixels{f', one of {len(centroids)} colours with as many' if len(centroids) > 1 else ''})"
             f" has its centroid at row {worst[0]:.1f}, column {worst[1]:.1f}")
    if centred.all():
        return Verdict.ok(f"{what}: {found}, within {tolerance:.0%} of the centre ({size[0] / 2:g}, {size[1] / 2:g})")
    return Verdict.fail(f"{what}: {found}; it should be within {tolerance:.0%} of the height and width from the centre"
                        f" (row {size[0] / 2:g}, column {size[1] / 2:g})")


def _has_transparency(image: Image.Image) -> bool:
    return image.mode in ("RGBA", "LA") or "transparency" in image.info


def opaque_box(image: Image.Image) -> tuple[int, int, int, int] | None:
    """The bounding box of the pixels whose alpha is not 0 (the image converted to RGBA)."""
    rgba = image if image.mode == "RGBA" else image.convert("RGBA")
    return rgba.getchannel("A").getbbox()


def content_size(image: Image.Image, ignore_transparent: bool) -> tuple[int, int]:
    """(width, height) as OSWorld's ``check_image_size`` measures it: the size of the opaque
    pixels' bounding box (0x0 when none) if the image has a transparency entry (a palette or
    grayscale PNG's transparent colour), or if ``ignore_transparent`` and its mode is RGBA or LA;
    otherwise the image's size. (Its condition reads ``ignore and mode or transparency``.)"""
    if (ignore_transparent and image.mode in ("RGBA", "LA")) or "transparency" in image.info:
        box = opaque_box(image)
        return (0, 0) if box is None else (box[2] - box[0], box[3] - box[1])
    return image.size


@judge("image.content_size")
def image_content_size(ctx: StepContext, path: str, width: int | None = None, height: int | None = None,
                       ignore_transparent: bool = False) -> Verdict:
    """The image is ``width`` x ``height`` pixels (either may be omitted) as OSWorld's
    ``check_image_size`` measures it: an image with a transparency entry (a palette or grayscale
    PNG's transparent colour), or with ``ignore_transparent`` an RGBA or LA image, is measured by
    the bounding box of its pixels that are not fully transparent; any other by its size."""
    image = _read(ctx.path(path), "an image")
    if isinstance(image, Verdict):
        return image
    w, h = content_size(image, ignore_transparent)
    what = f"{Path(path).name} ({_described(image)}) measures {w}x{h}"
    wrong = [f"its {side} should be {want}" for side, want, got in (("width", width, w), ("height", height, h))
             if want is not None and got != want]
    if wrong:
        return Verdict.fail(f"{what}: {'; '.join(wrong)}", width=w, height=h)
    return Verdict.ok(what, width=w, height=h)


def resized_for_comparison(image: Image.Image, size: tuple[int, int]) -> Image.Image | None:
    """``image`` as OSWorld's ``check_structure_sim_resized`` compares it: an image with
    transparency (mode RGBA or LA, or a transparency entry) cropped to its opaque pixels' box and
    converted to RGB (None when it has none), then resized with Pillow's default filter (bicubic;
    nearest for palette images) to ``size``."""
    if _has_transparency(image):
        rgba = image if image.mode == "RGBA" else image.convert("RGBA")
        box = opaque_box(rgba)
        if box is None:
            return None
        image = rgba.crop(box).convert("RGB")
    return image.resize(size)


@judge("image.structure_resized", one_of=("reference", "original"))
def image_structure_resized(ctx: StepContext, path: str, reference: str | None = None, original: str | None = None,
                            min_ssim: float = 0.9) -> Verdict:
    """The image, resized to the size of ``original`` (a file of the task, as it is when judged) or
    ``reference`` (in gold/), has its RGB structure: mean SSIM over R, G and B (7x7 window) at least
    ``min_ssim``. As OSWorld's ``check_structure_sim_resized``: an image with transparency (RGBA,
    LA, or a transparency entry) is first cropped to the box of its pixels that are not fully
    transparent (a fully transparent one fails), and the resize uses Pillow's default filter."""
    from ._image_measures import rgb_ssim

    name, other = _compared_with(ctx, reference, original)
    if isinstance(other, Verdict):
        return other
    image = _read(ctx.path(path), f"a resized {name}")
    if isinstance(image, Verdict):
        return image
    what = Path(path).name
    resized = resized_for_comparison(image, other.size)
    if resized is None:
        return Verdict.fail(f"{what} is fully transparent: nothing to compare with {name}")
    score = rgb_ssim(resized, other)
    if score is None:
        return Verdict.fail(f"{what} resized to {_described(other)} cannot be compared: a side is under 7 pixels")
    how = f"SSIM {score:.3f} {'>=' if score >= min_ssim else '<'} {min_ssim}"
    if score >= min_ssim:
        return Verdict.ok(f"{what} resized to {other.size[0]}x{other.size[1]} has the structure of {name} ({how})")
    return Verdict.fail(f"{what} resized to {other.size[0]}x{other.size[1]} does not have the structure of {name}: {how}")
