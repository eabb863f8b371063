"""Presentation checks as OSWorld's Impress metrics make them (desktop-env's slides.py:
``check_transition``, ``check_page_number_colors`` read from the XML; the background colour and
the stretched picture through python-pptx). Each returns what is wrong, or None."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"


def slide_transition(path: Path, index: int, kind: str) -> str | None:
    """Slide ``index`` (the file ppt/slides/slide<index+1>.xml) has a ``p:transition`` whose first
    one holds a ``p:<kind>`` element."""
    with zipfile.ZipFile(str(path)) as z:
        try:
            root = ElementTree.fromstring(z.read(f"ppt/slides/slide{index + 1}.xml"))
        except KeyError:
            return f"it has no slide {index}"
    transition = root.find(f".//{_P}transition")
    if transition is None:
        return f"slide {index} has no transition"
    if transition.find(f".//{_P}{kind}") is None:
        kinds = sorted({child.tag.rsplit('}', 1)[-1] for child in transition.iter()} - {"transition"})
        return f"slide {index}'s transition is not {kind} (it holds {kinds})"
    return None


def _is(color: str, r: int, g: int, b: int, threshold: int = 50) -> bool:
    if color == "red":
        return r > g + threshold and r > b + threshold
    if color == "blue":
        return b > g + threshold and b > r + threshold
    if color == "green":
        return g > r + threshold and g > b + threshold
    return r < threshold and g < threshold and b < threshold


def master_number_color(path: Path, color: str) -> str | None:
    """The second-to-last ``a:srgbClr`` inside an ``a:solidFill`` of slideMaster1.xml is ``color``."""
    with zipfile.ZipFile(str(path)) as z:
        try:
            root = ElementTree.fromstring(z.read("ppt/slideMasters/slideMaster1.xml"))
        except KeyError:
            return "it has no slide master"
    colors = [c.get("val") for fill in root.iter(f"{_A}solidFill") for c in fill.iter(f"{_A}srgbClr")]
    if len(colors) < 2:
        return "its slide master has fewer than two solid RGB colours"
    value = colors[-2]
    if value is None:
        return "its slide master's slide number colour has no value"
    # OSWorld reads the digits at [1:3], [3:5] and [5:7] as if the value began with '#': of
    # "FF0000" it reads F0, 00 and 0. Kept, so that the verdicts stay the same.
    try:
        r, g, b = int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16)
    except ValueError:
        return f"its slide number colour {value} cannot be read as OSWorld reads it"
    if not _is(color, r, g, b):
        return f"its slide number colour {value} is not {color} (read as OSWorld reads it: {r}, {g}, {b})"
    return None


def _fill_rgb(fill: Any) -> Any:
    try:
        return fill.fore_color.rgb if hasattr(fill.fore_color, "rgb") else None
    except (AttributeError, TypeError):
        return None


def background_not_rgb(prs: Any, rgb: list[int], original: list[int] | None) -> str | None:
    """``evaluate_presentation_fill_to_rgb_distance`` at its full score: every slide's background
    (its own solid fill, or the master's when it follows the master) is exactly ``rgb`` (and,
    with ``original``, is not that colour)."""
    if not len(prs.slides):
        return "it has no slides (OSWorld's score divides by their number)"
    for n, slide in enumerate(prs.slides):
        fill = slide.background.fill
        if fill.type == 5:  # follows the master
            fill = slide.slide_layout.slide_master.background.fill
        color = _fill_rgb(fill) if fill.type == 1 else None
        if color is None:
            return f"slide {n}'s background is not a solid RGB colour"
        if original is not None and list(color) == list(original):
            return f"slide {n}'s background is still {color}"
        if list(color) != list(rgb):
            return f"slide {n}'s background is {color}, not {''.join(f'{c:02X}' for c in rgb)}"
    return None


def image_not_stretched(prs: Any, original: Any) -> str | None:
    """``check_image_stretch_and_center``: the first picture of the original's first slide is on
    the first slide (same image bytes), filling the slide and centred, each within half an inch."""
    from pptx.util import Inches

    if not len(prs.slides) or not len(original.slides):
        return "a first slide is missing"
    pictures = [s for s in original.slides[0].shapes if s.shape_type == 13]
    if not pictures:
        return "the gold presentation's first slide has no picture"
    blob = pictures[0].image.blob
    found = [s for s in prs.slides[0].shapes if s.shape_type == 13 and s.image.blob == blob]
    if not found:
        return "the first slide lacks the picture"
    pic, width, height, slack = found[-1], original.slide_width, original.slide_height, Inches(0.5)
    if (abs(pic.width - width) > slack or abs(pic.height - height) > slack
            or abs(pic.left - (width - pic.width) / 2) > slack or abs(pic.top - (height - pic.height) / 2) > slack):
        return (f"the picture is {pic.width}x{pic.height} at {pic.left},{pic.top} EMU; it should fill the"
                f" {width}x{height} slide, centred")
    return None
