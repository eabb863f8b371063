"""OSWorld's compare_images on its background_image_in_slide getter (desktop-env's getters/impress.py
and metrics/vlc.py, run in the conformance venv) and pptx.background_image, the judge the importer
translates them to, agree on presentations with the right background picture and near misses: a
pixel off, on the wrong slide, a picture shape instead of the background, a plain fill, an external
linked picture, a colour change grayscale does not see."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.conformance

PPTX = "/home/user/Desktop/Robotic_Workshop_Infographics.pptx"
GOLD_URL = "https://example.invalid/gold_landscape.png"
EVALUATOR = {"func": "compare_images",
             "result": {"type": "background_image_in_slide", "ppt_file_path": PPTX, "slide_index": 1,
                        "dest": "landscape.png"},
             "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "gold_landscape.png"}}
BG = ('<p:bg xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"'
      ' xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"'
      ' xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><p:bgPr>{fill}'
      '<a:effectLst/></p:bgPr></p:bg>')
BLIP = '<a:blipFill><a:blip r:embed="{rid}"/><a:stretch><a:fillRect/></a:stretch></a:blipFill>'


def picture(change: tuple[int, int, tuple[int, int, int]] | None = None, size: tuple[int, int] = (64, 48)) -> bytes:
    """A 64x48 landscape-like PNG (sky, hills, a sun); ``change``: one pixel set to a colour."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (64, 48), (110, 160, 230))
    draw = ImageDraw.Draw(image)
    draw.polygon([(0, 30), (20, 18), (40, 28), (64, 14), (64, 48), (0, 48)], fill=(40, 120, 50))
    draw.ellipse((44, 4, 56, 16), fill=(250, 220, 60))
    if change is not None:
        image.putpixel((change[0], change[1]), change[2])
    image = image.resize(size, Image.Resampling.LANCZOS) if size != (64, 48) else image
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def presentation(path: Path, background: dict[int, bytes | str] | None = None, shapes: dict[int, bytes] | None = None,
                 slides: int = 3, solid: int | None = None) -> None:
    """A presentation of ``slides`` slides; ``background``: slide index -> picture bytes (embedded,
    as LibreOffice saves a background picture) or a path (linked as file://)."""
    from lxml import etree
    from pptx import Presentation
    from pptx.opc.constants import RELATIONSHIP_TYPE as RT
    from pptx.util import Inches

    deck = Presentation()
    for i in range(slides):
        slide = deck.slides.add_slide(deck.slide_layouts[6])
        fill = None
        if background and i in background:
            given = background[i]
            if isinstance(given, bytes):
                _, rid = slide.part.get_or_add_image_part(io.BytesIO(given))
            else:
                rid = slide.part.relate_to("file://" + given, RT.IMAGE, is_external=True)
            fill = BLIP.format(rid=rid)
        elif solid == i:
            fill = '<a:solidFill><a:srgbClr val="336699"/></a:solidFill>'
        if fill is not None:
            c_sld = slide._element.cSld  # python-pptx has no API for a picture background
            c_sld.insert(0, etree.fromstring(BG.format(fill=fill)))
        if shapes and i in shapes:
            slide.shapes.add_picture(io.BytesIO(shapes[i]), Inches(1), Inches(1))
    deck.save(str(path))


@pytest.fixture
def gold(tmp_path: Path) -> Path:
    path = tmp_path / "gold_landscape.png"
    path.write_bytes(picture())
    return path


def _agree(desktop_env: Any, deskact: Any, gold: Path, verdict: bool, linked: dict[str, Path] | None = None) -> None:
    local = deskact.home_file(PPTX)
    found = desktop_env.getter("impress", "get_background_image_in_slide", "", {PPTX: local, **(linked or {})},
                               EVALUATOR["result"])
    theirs = bool(found) and desktop_env.passes("vlc", "compare_images", found, str(gold))
    ours = deskact.passes(EVALUATOR, gold={GOLD_URL: gold})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


@pytest.mark.parametrize(("what", "spec", "verdict"), [
    ("the frame as slide 2's background", {"background": {1: picture()}}, True),
    ("a pixel off", {"background": {1: picture((10, 40, (255, 0, 0)))}}, False),
    ("on slide 1 instead", {"background": {0: picture()}}, False),
    ("on slides 1 and 2", {"background": {0: picture((1, 1, (0, 0, 0))), 1: picture()}}, True),
    ("a picture on slide 2, not its background", {"shapes": {1: picture()}}, False),
    ("a plain fill on slide 2", {"solid": 1}, False),
    ("scaled up twice", {"background": {1: picture(size=(128, 96))}}, False),
    ("a one-slide presentation", {"background": {0: picture()}, "slides": 1}, False),
])
def test_background_image_in_slide(desktop_env: Any, deskact: Any, gold: Path, what: str, spec: dict[str, Any],
                                   verdict: bool) -> None:
    presentation(deskact.home_file(PPTX), **spec)
    _agree(desktop_env, deskact, gold, verdict)


def test_a_grey_equal_colour_change_passes_in_both(desktop_env: Any, deskact: Any, gold: Path) -> None:
    """compare_images looks at grayscale only: a pixel whose colour changes but whose grey (PIL's
    L) does not is the same picture to it."""
    from PIL import Image

    sky = Image.open(io.BytesIO(picture())).convert("RGB").getpixel((2, 2))
    grey = Image.new("RGB", (1, 1), sky).convert("L").getpixel((0, 0))
    twin = next((r, g, b) for r in range(256) for g in range(256) for b in (sky[2],)
                if (r, g, b) != sky and Image.new("RGB", (1, 1), (r, g, b)).convert("L").getpixel((0, 0)) == grey)
    presentation(deskact.home_file(PPTX), background={1: picture((2, 2, twin))})
    _agree(desktop_env, deskact, gold, True)


def test_a_linked_background_picture_is_read_where_it_points(desktop_env: Any, deskact: Any, gold: Path) -> None:
    """A file:// target: the getter fetches that file from the machine (the VM; here the world)."""
    linked = deskact.home_file("/home/user/Pictures/landscape.png")
    linked.write_bytes(picture())
    presentation(deskact.home_file(PPTX), background={1: str(linked)})
    _agree(desktop_env, deskact, gold, True, linked={str(linked): linked})
    linked.write_bytes(picture((5, 5, (0, 0, 0))))
    _agree(desktop_env, deskact, gold, False, linked={str(linked): linked})
