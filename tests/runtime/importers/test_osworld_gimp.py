"""OSWorld's GIMP tasks: their metrics and their launch of GIMP, translated (verdicts against
desktop-env: osworld_conformance/test_conformance_gimp.py)."""

from __future__ import annotations

from typing import Any

from deskact.runtime.importers.osworld_metrics import Translation, translate_evaluator
from deskact.runtime.importers.osworld_setup import gimp_start


def translate(evaluator: Any) -> Translation:
    return translate_evaluator(evaluator, lambda url, name: f"t/{name}",
                               lambda p: "${HOME}" + p.removeprefix("/home/user"), lambda c: str(c))


def _files(func: str, expected_type: str = "vm_file") -> dict[str, Any]:
    expected = ({"type": "vm_file", "path": "/home/user/Desktop/berry.png", "dest": "berry.png"}
                if expected_type == "vm_file" else
                {"type": "cloud_file", "path": "https://example.org/gold.png", "dest": "gold.png"})
    return {"func": func, "result": {"type": "vm_file", "path": "/home/user/Desktop/berry_mirror.png", "dest": "m.png"},
            "expected": expected}


def test_the_original_is_the_tasks_file_and_a_web_file_is_gold() -> None:
    out = translate(_files("check_image_mirror"))
    assert out.judge == [{"image.structure_similar": {
        "path": "${HOME}/Desktop/berry_mirror.png", "original": "${HOME}/Desktop/berry.png", "min_ssim": 0.99,
        "flip": "horizontal"}}], out
    out = translate(_files("check_structure_sim", "cloud_file"))
    assert out.judge[0]["image.structure_similar"]["reference"] == "t/gold.png", out


def test_adjustments_palette_and_their_options() -> None:
    out = translate(_files("check_brightness_decrease_and_structure_sim"))
    assert out.judge[0]["image.adjusted"]["change"] == "darker"
    out = translate({**_files("check_brightness_decrease_and_structure_sim"), "options": {"threshold": 0.1}})
    assert out.reasons and "threshold" in out.reasons[0], out
    out = translate(_files("check_palette_and_structure_sim"))
    assert [next(iter(j)) for j in out.judge] == ["image.properties", "image.structure_similar"]
    assert out.judge[0]["image.properties"]["mode"] == "P"


def test_config_status_reads_the_profile_file() -> None:
    evaluator = {"func": "check_config_status", "result": {"type": "gimp_config_file", "file_name": "gimprc", "dest": "g"},
                 "expected": {"type": "rule", "rules": {"type:": "key-value", "key": "theme", "value": '"Light"'}}}
    out = translate(evaluator)
    assert out.judge == [{"gimp.config": {"file": "gimprc", "key": "theme", "value": '"Light"'}}], out
    bad = {**evaluator, "result": {"type": "gimp_config_file", "file_name": "../x"}}
    assert "only a file of the GIMP profile folder" in translate(bad).reasons[0]


def test_the_sharpness_metric_is_reported() -> None:
    out = translate({"func": "check_sharper", "result": {"type": "vm_file", "path": "/home/user/a.png"},
                     "expected": {"type": "vm_file", "path": "/home/user/b.png"}})
    assert out.reasons == ["func check_sharper: no deskact judge checks the same thing"]


def test_a_launch_of_gimp_becomes_apps_gimp() -> None:
    assert gimp_start(["gimp", "/home/user/Desktop/berry.png"]) == {"path": "${HOME}/Desktop/berry.png"}
    assert gimp_start(["gimp", "~/Desktop/a"]) == {"path": "${HOME}/Desktop/a"}  # "a b.png" split by a shell
    assert gimp_start(["gimp"]) == {}
    assert gimp_start(["gimp", "--no-data", "/home/user/a.png"]) is None
    assert gimp_start(["gimp", "/tmp/a.png"]) is None
    assert gimp_start(["vlc", "/home/user/a.mp4"]) is None
