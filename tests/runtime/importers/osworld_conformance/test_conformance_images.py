"""OSWorld's compare_images (desktop-env's vlc.py: grayscale SSIM, solved at 1) and deskact's
image.same_gray agree on right and near-miss images."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PIL import Image

pytestmark = pytest.mark.conformance

RESULT = "/home/user/Desktop/res.png"
GOLD_URL = "https://example.org/gold/res.png"


def _picture(path: Path, size: tuple[int, int] = (40, 30), color: tuple[int, int, int] = (255, 0, 0),
             dot: tuple[int, int, int] | None = None, fmt: str = "PNG") -> Path:
    image = Image.new("RGB", size, (250, 250, 250))
    for x in range(5, 20):
        for y in range(5, 15):
            image.putpixel((x, y), color)
    if dot is not None:
        image.putpixel((30, 20), dot)
    image.save(path, fmt)
    return path


@pytest.mark.parametrize(("change", "verdict"), [
    ({}, True),
    ({"dot": (0, 0, 0)}, False),
    ({"color": (0, 130, 0)}, True),  # another colour of the same grey (76 of 255)
    ({"color": (0, 0, 255)}, False),
    ({"size": (80, 60)}, False),
    ({"fmt": "GIF"}, True),  # a GIF of the same picture: the same grey pixels
])
def test_compare_images(desktop_env: Any, deskact: Any, change: dict[str, Any], verdict: bool) -> None:
    gold = _picture(deskact.ctx.gold.parent / "expected.png")
    result = _picture(deskact.home_file(RESULT), **change)
    evaluator = {"func": "compare_images", "result": {"type": "vm_file", "path": RESULT, "dest": "res.png"},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "res_gold.png"}}
    theirs = desktop_env.passes("vlc", "compare_images", str(result), str(gold))
    ours = deskact.passes(evaluator, {GOLD_URL: gold})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


@pytest.mark.parametrize(("change", "verdict"), [
    ({}, True),
    ({"dot": (0, 0, 0)}, False),
    ({"color": (0, 130, 0)}, False),  # the same grey is not the same picture here
    ({"size": (80, 60)}, False),
])
def test_compare_image_list(desktop_env: Any, deskact: Any, change: dict[str, Any], verdict: bool) -> None:
    golds = [_picture(deskact.ctx.gold.parent / f"expected{n}.png", color=c) for n, c in enumerate([(255, 0, 0), (9, 9, 9)])]
    results = [_picture(deskact.home_file(f"/home/user/Desktop/p{n}.png"), **(change if n == 0 else {}))
               for n in range(2)]
    evaluator = {"func": "compare_image_list",
                 "result": {"type": "vm_file", "path": ["/home/user/Desktop/p0.png", "/home/user/Desktop/p1.png"],
                            "dest": ["p0.png", "p1.png"], "multi": "true"},
                 "expected": {"type": "cloud_file", "path": ["https://example.org/g0.png", "https://example.org/g1.png"],
                              "dest": ["g0.png", "g1.png"], "multi": "true"}}
    # multi with no gives: OSWorld's getters give the metric the first file of each list only
    theirs = desktop_env.passes("gimp", "compare_image_list", str(results[0]), str(golds[0]))
    ours = deskact.passes(evaluator, {"https://example.org/g0.png": golds[0], "https://example.org/g1.png": golds[1]})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback
