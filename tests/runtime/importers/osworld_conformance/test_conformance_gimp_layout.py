"""OSWorld's GIMP metrics of where things are in an image (desktop-env's metrics/gimp.py:
check_green_background, check_textbox_on_leftside, check_triangle_position, check_image_size,
check_structure_sim_resized) and the judges the importer translates them to (image.green_background,
image.dark_at_left, image.shape_centred, image.content_size, image.structure_resized) agree on right
and near-miss results, the metrics' quirks included."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from PIL import Image, ImageDraw

pytestmark = pytest.mark.conformance

DESKTOP = "/home/user/Desktop/"
Make = Callable[[], Image.Image]


def _vm(name: str) -> dict[str, str]:
    return {"type": "vm_file", "path": DESKTOP + name, "dest": name}


def _agree(desktop_env: Any, deskact: Any, evaluator: dict[str, Any], args: list[Any], verdict: bool) -> None:
    theirs = desktop_env.passes("gimp", evaluator["func"], *args)
    ours = deskact.passes(evaluator)
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


def _save(deskact: Any, name: str, image: Image.Image) -> str:
    path = deskact.home_file(DESKTOP + name)
    image.save(path)
    return str(path)


# --- check_green_background ---------------------------------------------------------------

def _object(background: tuple[int, ...], size: tuple[int, int] = (40, 40), mode: str = "RGB",
            thing: tuple[int, ...] = (0, 0, 0)) -> Make:
    """A black disc (the object layer) on a filled background."""
    def make() -> Image.Image:
        image = Image.new(mode, size, background)
        ImageDraw.Draw(image).ellipse((10, 8, 26, 30), fill=thing)
        return image

    return make


WHITE, GREEN = (255, 255, 255), (20, 180, 40)


def _one_white_pixel() -> Image.Image:
    image = _object(GREEN)()
    image.putpixel((39, 0), WHITE)
    return image


@pytest.mark.parametrize(("result", "original", "verdict"), [
    (_object(GREEN), _object(WHITE), True),
    (_object(GREEN, thing=GREEN), _object(WHITE), True),  # the object is black in the original: not looked at
    (_object((180, 180, 40)), _object(WHITE), False),  # green equal to red is not green
    (_object((40, 180, 180)), _object(WHITE), False),
    (_one_white_pixel, _object(WHITE), False),
    (_object(WHITE), _object(WHITE), False),
    (_object(GREEN, mode="RGBA"), _object(WHITE, mode="RGBA"), True),
    (_object(GREEN, size=(48, 40)), _object(WHITE, size=(48, 40)), False),  # read as rows by columns: square only
    (_object(GREEN, size=(40, 48)), _object(WHITE, size=(40, 48)), False),
    (_object(GREEN, size=(50, 50)), _object(WHITE), True),  # a larger export: its top-left part is read
    (_object(GREEN, size=(30, 30)), _object(WHITE), False),
    (_object((120,), mode="L", thing=(0,)), _object(WHITE), False),
    (_object(GREEN), _object((255,), mode="L", thing=(0,)), False),  # a single-band original cannot be read
    (_object(WHITE), _object((0, 0, 0)), True),  # an all-black original asks nothing
    (_object(GREEN), _object((255, 255), mode="LA", thing=(0, 255)), False),  # LA: every pixel counts, the disc too
    (_object(GREEN, thing=GREEN), _object((255, 255), mode="LA", thing=(0, 255)), True),
])
def test_check_green_background(desktop_env: Any, deskact: Any, result: Make, original: Make, verdict: bool) -> None:
    src = _save(deskact, "green_background_with_object.png", result())
    tgt = _save(deskact, "white_background_with_object.png", original())
    evaluator = {"func": "check_green_background", "result": _vm("green_background_with_object.png"),
                 "expected": _vm("white_background_with_object.png")}
    _agree(desktop_env, deskact, evaluator, [src, tgt], verdict)


# --- check_textbox_on_leftside -------------------------------------------------------------

def _text_at(x: int | None, mode: str = "RGB", ink: tuple[int, ...] = (20, 20, 20)) -> Make:
    """A 100x60 orange picture with a dark text-like block whose left edge is at column ``x``."""
    def make() -> Image.Image:
        image = Image.new("RGB", (100, 60), (240, 140, 30))
        if x is not None:
            ImageDraw.Draw(image).rectangle((x, 20, x + 30, 30), fill=ink[:3])
        return image.convert(mode) if mode != "RGBA" else image.convert("RGBA")

    return make


def _transparent_black_edge() -> Image.Image:
    image = _text_at(60, "RGBA")()
    pixels = np.asarray(image).copy()
    pixels[:, :3] = (0, 0, 0, 0)  # transparent black: dark once alpha is dropped
    return Image.fromarray(pixels, "RGBA")


@pytest.mark.parametrize(("make", "verdict"), [
    (_text_at(0), True),
    (_text_at(4), True),
    (_text_at(5), False),  # 5 is not below 5 % of 100
    (_text_at(60), False),
    (_text_at(None), False),
    (_text_at(2, ink=(140, 140, 140)), False),  # grey is not dark
    (_text_at(2, ink=(120, 120, 120)), True),
    (_text_at(3, "P"), True),
    (_text_at(3, "L"), True),
    (_transparent_black_edge, True),
])
def test_check_textbox_on_leftside(desktop_env: Any, deskact: Any, make: Make, verdict: bool) -> None:
    src = _save(deskact, "leftside_textbox.png", make())
    evaluator = {"func": "check_textbox_on_leftside", "result": _vm("leftside_textbox.png")}
    _agree(desktop_env, deskact, evaluator, [src], verdict)


# --- check_triangle_position ---------------------------------------------------------------

YELLOW = (250, 220, 20)


def _triangle(cx: int, cy: int, outline: bool = True, size: tuple[int, int] = (200, 120), half: int = 24) -> Make:
    """A yellow triangle with its centroid at about (cx, cy) on white; with a black outline (fewer
    pixels than the triangle, so the triangle is the second least common colour)."""
    def make() -> Image.Image:
        image = Image.new("RGB", size, WHITE)
        points = [(cx - half, cy + half // 2), (cx + half, cy + half // 2), (cx, cy - half)]
        ImageDraw.Draw(image).polygon(points, fill=YELLOW, outline=(0, 0, 0) if outline else None)
        return image

    return make


def _triangle_centroid_at(row: float) -> Make:
    """A filled square (the shape) placed so that its centroid row is ``row``, centred across."""
    def make() -> Image.Image:
        image = Image.new("RGB", (200, 100), WHITE)
        draw = ImageDraw.Draw(image)
        top = int(row - 4.5)
        draw.rectangle((95, top, 104, top + 9), fill=YELLOW)
        draw.point([(0, 0), (199, 99)], fill=(0, 0, 0))
        return image

    return make


def _tied(centred_both: bool) -> Make:
    """Two colours with the same count (one pixel each) at the second place: OSWorld's pick depends
    on numpy's sort."""
    def make() -> Image.Image:
        image = Image.new("RGB", (100, 100), WHITE)
        draw = ImageDraw.Draw(image)
        draw.rectangle((10, 10, 89, 89), fill=YELLOW)
        image.putpixel((50, 50), (1, 2, 3))
        image.putpixel((49, 51) if centred_both else (5, 5), (4, 5, 6))
        return image

    return make


@pytest.mark.parametrize(("make", "verdict"), [
    (_triangle(100, 60), True),
    (_triangle(104, 62), True),
    (_triangle(111, 60), False),  # 11 columns off: 5 % of 200 is 10
    (_triangle(40, 60), False),
    (_triangle(100, 60, outline=False), True),  # two colours: the second least common is the white around
    (_triangle(58, 60, outline=False, half=58), False),  # the white's centroid pushed 11 columns off
    (_triangle(40, 60, outline=False, half=40), True),  # ... or only 7
    (_triangle(60, 60, size=(120, 120)), True),
    (_triangle_centroid_at(50), True),
    (_triangle_centroid_at(54.5), True),
    (_triangle_centroid_at(55.5), False),
    (_tied(True), True),
    (lambda: Image.new("RGB", (50, 50), WHITE), False),  # one colour: no shape
    (lambda: _triangle(100, 60)().convert("L"), False),  # single-band: the metric cannot count colours
    (lambda: _triangle(100, 60)().convert("RGBA"), True),
])
def test_check_triangle_position(desktop_env: Any, deskact: Any, make: Make, verdict: bool) -> None:
    src = _save(deskact, "Triangle_In_The_Middle.png", make())
    evaluator = {"func": "check_triangle_position", "result": _vm("Triangle_In_The_Middle.png")}
    _agree(desktop_env, deskact, evaluator, [src], verdict)


def test_a_tie_for_the_shape_colour_passes_only_if_every_pick_would(desktop_env: Any, deskact: Any) -> None:
    """The one place the judge may be stricter than OSWorld: which of equally rare colours the metric
    takes is numpy's sort's choice (it differs between numpy 1.26 and 2.x here); the judge fails
    unless every choice is centred, so it never passes where OSWorld could fail."""
    src = _save(deskact, "Triangle_In_The_Middle.png", _tied(False)())
    evaluator = {"func": "check_triangle_position", "result": _vm("Triangle_In_The_Middle.png")}
    assert not deskact.passes(evaluator)
    desktop_env.passes("gimp", "check_triangle_position", src)  # either verdict: it depends on the pick


# --- check_image_size ----------------------------------------------------------------------

def _canvas(size: tuple[int, int], box: tuple[int, int, int, int] | None = None, mode: str = "RGB") -> Make:
    """A picture of ``size``; with ``box``, only that box is opaque (the rest transparent)."""
    def make() -> Image.Image:
        image = Image.new("RGBA", size, (30, 90, 160, 255 if box is None else 0))
        if box is not None:
            ImageDraw.Draw(image).rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=(200, 120, 40, 255))
        if mode == "P":
            return image.convert("RGB").convert("P", palette=Image.Palette.ADAPTIVE, colors=4) if box is None else \
                _palette_with_transparency(image)
        return image.convert(mode) if mode != "RGBA" else image

    return make


def _palette_with_transparency(image: Image.Image) -> Image.Image:
    pal = Image.new("P", image.size, 0)
    pal.putpalette([0, 0, 0, 200, 120, 40])
    pal.paste(1, image.getchannel("A").point(lambda a: 255 if a else 0).getbbox())
    pal.info["transparency"] = 0
    return pal


@pytest.mark.parametrize(("make", "rule", "verdict"), [
    (_canvas((300, 512)), {"height": 512}, True),
    (_canvas((300, 511)), {"height": 512}, False),
    (_canvas((128, 128)), {"height": 128, "width": 128}, True),
    (_canvas((128, 129)), {"height": 128, "width": 128}, False),
    (_canvas((129, 128)), {"height": 128, "width": 128}, False),
    (_canvas((300, 600), (10, 40, 250, 552), "RGBA"), {"height": 512}, False),  # the canvas counts
    (_canvas((300, 600), (10, 40, 250, 552), "RGBA"), {"height": 512, "ignore_transparent": True}, True),
    (_canvas((300, 600), (10, 40, 250, 552), "RGBA"), {"height": 600, "ignore_transparent": True}, False),
    (_canvas((300, 600), (10, 40, 250, 552), "LA"), {"height": 512, "ignore_transparent": True}, True),
    (_canvas((300, 600), (10, 40, 250, 552), "P"), {"height": 512}, True),  # a transparency entry: the box counts
    (_canvas((300, 600), (10, 40, 250, 552), "P"), {"height": 600}, False),
    (lambda: Image.new("RGBA", (300, 600), (0, 0, 0, 0)), {"height": 0, "ignore_transparent": True}, True),
    (_canvas((300, 600)), {}, True),
])
def test_check_image_size(desktop_env: Any, deskact: Any, make: Make, rule: dict[str, Any], verdict: bool) -> None:
    src = _save(deskact, "resized.png", make())
    evaluator = {"func": "check_image_size", "result": _vm("resized.png"), "expected": {"type": "rule", "rules": rule}}
    _agree(desktop_env, deskact, evaluator, [src, rule], verdict)


# --- check_structure_sim_resized -----------------------------------------------------------

def _photo(size: tuple[int, int] = (96, 64)) -> Image.Image:
    rng = np.random.default_rng(3)
    y, x = np.mgrid[0:64, 0:96]
    base = np.stack([60 + 2 * x, 50 + 3 * y, 220 - 2 * x], axis=-1) + rng.normal(0, 1, (64, 96, 3))
    base[20:44, 30:60] = (240, 230, 40)
    return Image.fromarray(np.clip(base, 0, 255).astype(np.uint8)).resize(size)


def _padded(inner: Image.Image, size: tuple[int, int], at: tuple[int, int]) -> Image.Image:
    canvas = Image.new("RGBA", size, (0, 0, 0, 0))
    canvas.paste(inner.convert("RGBA"), at)
    return canvas


@pytest.mark.parametrize(("make", "verdict"), [
    (lambda: _photo((48, 32)), True),
    (lambda: _photo((192, 128)), True),
    (lambda: _photo((48, 32)).rotate(180), False),
    (lambda: _photo((48, 32)).transpose(Image.Transpose.FLIP_LEFT_RIGHT), False),
    (lambda: _padded(_photo((48, 32)), (96, 64), (20, 10)), True),  # the layer shrunk on its canvas: cropped first
    (lambda: _padded(_photo((48, 32)), (96, 64), (20, 10)).convert("RGB"), False),  # flattened: the border counts
    (lambda: Image.new("RGBA", (96, 64), (0, 0, 0, 0)), False),
    (lambda: _photo().convert("P", palette=Image.Palette.ADAPTIVE), True),
    (lambda: _photo((48, 32)).convert("P", palette=Image.Palette.ADAPTIVE), False),  # a palette resizes by nearest
    (lambda: _photo((5, 4)), False),  # tiny: resized to the original's size first, too blurred
])
def test_check_structure_sim_resized(desktop_env: Any, deskact: Any, make: Make, verdict: bool) -> None:
    src = _save(deskact, "resized.png", make())
    tgt = _save(deskact, "dog_with_background.png", _photo())
    evaluator = {"func": "check_structure_sim_resized", "result": _vm("resized.png"),
                 "expected": _vm("dog_with_background.png")}
    _agree(desktop_env, deskact, evaluator, [src, tgt], verdict)


def test_a_too_small_original_fails_both(desktop_env: Any, deskact: Any) -> None:
    src = _save(deskact, "resized.png", _photo((12, 8)))
    tgt = _save(deskact, "dog_with_background.png", _photo((6, 4)))
    evaluator = {"func": "check_structure_sim_resized", "result": _vm("resized.png"),
                 "expected": _vm("dog_with_background.png")}
    _agree(desktop_env, deskact, evaluator, [src, tgt], False)
