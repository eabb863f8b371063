"""OSWorld's GIMP metrics (desktop-env's metrics/gimp.py) and the judges the importer translates them
to (image.structure_similar, image.adjusted, image.properties, gimp.config) agree on right and
near-miss results."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image, ImageEnhance

pytestmark = pytest.mark.conformance

ORIGINAL = "/home/user/Desktop/photo.png"
RESULT = "/home/user/Desktop/edited.png"
Edit = Callable[[Image.Image], Image.Image]


def _photo(seed: int = 7) -> Image.Image:
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:48, 0:64]
    base = np.stack([90 + 2 * x, 70 + 3 * y, 210 - 2 * x], axis=-1) + rng.normal(0, 3, (48, 64, 3))
    return Image.fromarray(np.clip(base, 0, 255).astype(np.uint8))


def _stripes(im: Image.Image) -> Image.Image:
    return Image.fromarray(((np.indices((im.height, im.width)).sum(axis=0) // 4 % 2) * 120).astype(np.uint8))


def _run(desktop_env: Any, deskact: Any, func: str, edit: Edit, verdict: bool, original: Edit = lambda im: im) -> None:
    original(_photo()).save(deskact.home_file(ORIGINAL))
    edit(_photo()).save(deskact.home_file(RESULT))
    evaluator = {"func": func, "result": {"type": "vm_file", "path": RESULT, "dest": "edited.png"},
                 "expected": {"type": "vm_file", "path": ORIGINAL, "dest": "photo.png"}}
    theirs = desktop_env.passes("gimp", func, str(deskact.home_file(RESULT)), str(deskact.home_file(ORIGINAL)))
    ours = deskact.passes(evaluator)
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


MIRROR = Image.Transpose.FLIP_LEFT_RIGHT


@pytest.mark.parametrize(("func", "edit", "verdict"), [
    ("check_structure_sim", lambda im: im, True),
    ("check_structure_sim", lambda im: ImageEnhance.Brightness(im).enhance(0.95), True),
    ("check_structure_sim", lambda im: im.transpose(MIRROR), False),
    ("check_structure_sim", lambda im: im.resize((32, 24)), False),
    ("check_structure_sim", lambda im: im.convert("RGBA"), True),
    ("check_file_exists_and_structure_sim", lambda im: im, True),
    ("check_file_exists_and_structure_sim", lambda im: im.rotate(180), False),
    ("check_image_mirror", lambda im: im.transpose(MIRROR), True),
    ("check_image_mirror", lambda im: im.transpose(Image.Transpose.FLIP_TOP_BOTTOM), False),
    ("check_image_mirror", lambda im: im, False),
    ("check_brightness_decrease_and_structure_sim", lambda im: ImageEnhance.Brightness(im).enhance(0.7), True),
    ("check_brightness_decrease_and_structure_sim", lambda im: ImageEnhance.Brightness(im).enhance(1.2), False),
    ("check_brightness_decrease_and_structure_sim", _stripes, False),
    ("check_saturation_increase_and_structure_sim", lambda im: ImageEnhance.Color(im).enhance(1.5), True),
    ("check_saturation_increase_and_structure_sim", lambda im: ImageEnhance.Color(im).enhance(0.6), False),
    ("check_saturation_increase_and_structure_sim", lambda im: ImageEnhance.Color(im.transpose(MIRROR)).enhance(1.5), False),
    ("check_contrast_increase_and_structure_sim", lambda im: ImageEnhance.Contrast(im).enhance(1.5), True),
    ("check_contrast_increase_and_structure_sim", lambda im: ImageEnhance.Contrast(im).enhance(0.7), False),
    ("check_contrast_increase_and_structure_sim", lambda im: ImageEnhance.Contrast(im.rotate(180)).enhance(1.5), False),
    ("check_palette_and_structure_sim", lambda im: im.convert("P", palette=Image.Palette.ADAPTIVE), True),
    ("check_palette_and_structure_sim", lambda im: im, False),
    ("check_palette_and_structure_sim", lambda im: im.rotate(180).convert("P", palette=Image.Palette.ADAPTIVE), False),
])
def test_image_metrics(desktop_env: Any, deskact: Any, func: str, edit: Edit, verdict: bool) -> None:
    _run(desktop_env, deskact, func, edit, verdict)


def test_the_original_is_read_as_the_agent_left_it(desktop_env: Any, deskact: Any) -> None:
    """The agent saved its mirror over the original too: both metrics compare with that file."""
    _run(desktop_env, deskact, "check_image_mirror", lambda im: im.transpose(MIRROR), False,
         original=lambda im: im.transpose(MIRROR))


GIMPRC = '# GIMP gimprc\n\n(undo-levels 5)\n(theme "Dark")\n(session-info "toplevel"\n    (position 10 20))\n'


@pytest.mark.parametrize(("file", "text", "key", "value", "verdict"), [
    ("gimprc", GIMPRC + "(undo-levels 100)\n", "undo-levels", "100", True),
    ("gimprc", GIMPRC, "undo-levels", "100", False),
    ("gimprc", GIMPRC.replace("Dark", "Light"), "theme", '"Light"', True),
    ("gimprc", GIMPRC, "theme", '"Light"', False),
    ("gimprc", GIMPRC, "position", "20", True),  # an inner line of a nested entry counts as a line
    ("gimprc", "", "theme", '"Light"', False),
    ("action-history", '(history-item "filters-vignette" 1)\n', ["history-item", '"filters-vignette"'], "1", True),
    ("action-history", '(history-item "filters-vignette" 2)\n', ["history-item", '"filters-vignette"'], "1", False),
    ("sessionrc", "(hide-docks yes)\n", "hide-docks", "yes", True),
    ("sessionrc", "(hide-docks no)\n", "hide-docks", "yes", False),
])
def test_check_config_status(desktop_env: Any, deskact: Any, file: str, text: str, key: Any, value: str,
                             verdict: bool) -> None:
    path: Path = deskact.home_file(f"/home/user/.config/GIMP/2.10/{file}")
    path.write_text(text)
    rule = {"type:": "key-value", "key": key, "value": value}
    evaluator = {"func": "check_config_status", "result": {"type": "gimp_config_file", "file_name": file, "dest": file},
                 "expected": {"type": "rule", "rules": rule}}
    # The getter hands the metric None for an empty file (no content), and the metric scores it 0.
    theirs = desktop_env.passes("gimp", "check_config_status", str(path) if text else None, rule)
    ours = deskact.passes(evaluator)
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


@pytest.mark.parametrize(("size", "max_size", "verdict"), [
    (599_999, 600_000, True),
    (600_000, 600_000, False),  # under the limit, not at it
    (700_000, 600_000, False),
    (10, 10.5, True),
])
def test_check_image_file_size(desktop_env: Any, deskact: Any, size: int, max_size: float, verdict: bool) -> None:
    path: Path = deskact.home_file("/home/user/Desktop/compressed.jpeg")
    path.write_bytes(b"\xff" * size)
    rule = {"max_size": max_size}
    evaluator = {"func": "check_image_file_size", "result": {"type": "vm_file", "path": "/home/user/Desktop/compressed.jpeg",
                                                             "dest": "compressed.jpeg"},
                 "expected": {"type": "rule", "rules": rule}}
    theirs = desktop_env.passes("gimp", "check_image_file_size", str(path), rule)
    ours = deskact.passes(evaluator)
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback
