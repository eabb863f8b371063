"""Presentation checks read from the pptx's XML as OSWorld's Impress metrics read them
(desktop-env's slides.py: ``check_transition``, ``check_page_number_colors``). Each returns what
is wrong, or None."""

from __future__ import annotations

import zipfile
from pathlib import Path
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
