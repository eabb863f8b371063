"""compare_images on OSWorld's background_image_in_slide getter -> pptx.background_image (verdicts
against desktop-env: osworld_conformance/test_conformance_slide_background.py)."""

from __future__ import annotations

from typing import Any

from deskact.runtime.importers.osworld_metrics import Translation, translate_evaluator


def translate(result: dict[str, Any], options: dict[str, Any] | None = None) -> Translation:
    evaluator = {"func": "compare_images", "result": result, "options": options or {},
                 "expected": {"type": "cloud_file", "path": "https://x.invalid/g.png", "dest": "gold_landscape.png"}}
    return translate_evaluator(evaluator, lambda url, name: f"t/{name}",
                               lambda p: "${HOME}" + p.removeprefix("/home/user"), lambda c: str(c))


SLIDE = {"type": "background_image_in_slide", "ppt_file_path": "/home/user/Desktop/a.pptx", "slide_index": 1,
         "dest": "landscape.png"}


def test_a_slides_background_picture_becomes_pptx_background_image() -> None:
    assert translate(SLIDE).judge == [{"pptx.background_image": {
        "path": "${HOME}/Desktop/a.pptx", "slide": 1, "reference": "t/gold_landscape.png"}}]
    assert translate({**SLIDE, "slide_index": "0"}).judge[0]["pptx.background_image"]["slide"] == 0


def test_other_results_keep_compare_images_own_translation_and_odd_ones_are_reported() -> None:
    out = translate({"type": "vm_file", "path": "/home/user/x.png", "dest": "x.png"})
    assert out.judge == [{"image.same_gray": {"path": "${HOME}/x.png", "reference": "t/gold_landscape.png"}}]
    assert translate({**SLIDE, "slide_index": -1}).reasons
    assert translate({**SLIDE, "slide_index": True}).reasons
    assert translate({k: v for k, v in SLIDE.items() if k != "ppt_file_path"}).reasons
    assert translate(SLIDE, {"reference_base_result": 0.5}).reasons
