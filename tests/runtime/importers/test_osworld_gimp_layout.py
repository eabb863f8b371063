"""OSWorld's GIMP metrics of where things are in an image, translated to the image.* judges of
judges/image_layout.py (verdicts against desktop-env: osworld_conformance/test_conformance_gimp_layout.py)."""

from __future__ import annotations

from typing import Any

from deskact.runtime.importers.osworld_metrics import Translation, translate_evaluator


def translate(evaluator: Any) -> Translation:
    return translate_evaluator(evaluator, lambda url, name: f"t/{name}",
                               lambda p: "${HOME}" + p.removeprefix("/home/user"), lambda c: str(c))


def _vm(name: str) -> dict[str, str]:
    return {"type": "vm_file", "path": f"/home/user/Desktop/{name}", "dest": name}


def test_green_background_compares_with_the_tasks_original() -> None:
    out = translate({"func": "check_green_background", "result": _vm("green.png"), "expected": _vm("white.png")})
    assert out.judge == [{"image.green_background": {"path": "${HOME}/Desktop/green.png",
                                                     "original": "${HOME}/Desktop/white.png"}}], out
    gold = {"type": "cloud_file", "path": "https://example.org/w.png", "dest": "w.png"}
    out = translate({"func": "check_green_background", "result": _vm("green.png"), "expected": gold})
    assert out.judge[0]["image.green_background"]["reference"] == "t/w.png", out


def test_one_image_metrics() -> None:
    out = translate({"func": "check_textbox_on_leftside", "result": _vm("leftside_textbox.png")})
    assert out.judge == [{"image.dark_at_left": {"path": "${HOME}/Desktop/leftside_textbox.png", "within": 0.05}}]
    out = translate({"func": "check_triangle_position", "result": _vm("Triangle_In_The_Middle.png")})
    assert out.judge == [{"image.shape_centred": {"path": "${HOME}/Desktop/Triangle_In_The_Middle.png",
                                                  "tolerance": 0.05}}]
    out = translate({"func": "check_triangle_position", "result": _vm("t.png"), "expected": _vm("u.png")})
    assert "takes no argument" in out.reasons[0], out


def test_image_size_rules() -> None:
    def size(rules: dict[str, Any]) -> Translation:
        return translate({"func": "check_image_size", "result": _vm("resized.png"),
                          "expected": {"type": "rule", "rules": rules}})

    assert size({"height": 512}).judge == [{"image.content_size": {"path": "${HOME}/Desktop/resized.png", "height": 512}}]
    assert size({"height": 128, "width": 128.0, "ignore_transparent": True}).judge == [{"image.content_size": {
        "path": "${HOME}/Desktop/resized.png", "width": 128, "height": 128, "ignore_transparent": True}}]
    assert "not a whole number" in size({"height": "512"}).reasons[0]
    assert "not a whole number" in size({"height": 12.5}).reasons[0]
    assert "not true or false" in size({"height": 5, "ignore_transparent": "yes"}).reasons[0]


def test_the_resize_task_translates_whole() -> None:
    """gimp-d16c99dc: the original's height (as the task file has it) and the export's structure."""
    out = translate({"func": ["check_image_size", "check_structure_sim_resized"],
                     "expected": [{"type": "rule", "rules": {"height": 512}}, _vm("dog_with_background.png")],
                     "result": [_vm("dog_with_background.png"), _vm("resized.png")]})
    assert not out.reasons, out.reasons
    assert out.judge == [
        {"image.content_size": {"path": "${HOME}/Desktop/dog_with_background.png", "height": 512}},
        {"image.structure_resized": {"path": "${HOME}/Desktop/resized.png",
                                     "original": "${HOME}/Desktop/dog_with_background.png", "min_ssim": 0.9}}]


def test_the_export_postconfig_keeps_its_pauses_between_keys(tmp_path: Any) -> None:
    """OSWorld exports GIMP's image by keys before judging (shift+ctrl+e, the name and Enter, Enter),
    pausing while each dialog opens: a pause after keys stays, once the focus has moved to another
    window (10 s at most); others are dropped."""
    import json
    import shutil
    from pathlib import Path

    import yaml
    from deskact.runtime.importers import ImportOptions
    from deskact.runtime.importers.osworld import import_osworld

    fixture = Path(__file__).parent / "fixtures" / "osworld_gimp" / "examples" / "gimp" / \
        "734d6579-c07d-47a8-9ae2-13339795476b.json"
    src = tmp_path / "examples" / "gimp"
    src.mkdir(parents=True)
    shutil.copy(fixture, src)
    task = json.loads(fixture.read_text())
    task["id"] = "00000000-0000-0000-0000-000000000001"
    task["evaluator"]["postconfig"].insert(0, {"type": "sleep", "parameters": {"seconds": 1}})
    (src / f"{task['id']}.json").write_text(json.dumps(task))
    report = import_osworld(tmp_path / "examples", ImportOptions(out=tmp_path / "out"))
    assert not report.skipped, [s.reasons for s in report.skipped]
    tasks = {t["id"]: t for t in yaml.safe_load((tmp_path / "out" / "imported.yaml").read_text())["tasks"]}
    cmds = [s["shell.run"]["cmd"] for s in tasks["osworld-gimp-734d6579"]["before_judge"]]
    wait = ('; i=0; while [ $$i -lt 100 ] && [ "$$(xdotool getactivewindow 2>/dev/null)" = "$$w" ]; do sleep 0.1;'
            " i=$$((i+1)); done; sleep {}; true")
    focused = "w=$$(xdotool getactivewindow 2>/dev/null); "
    assert cmds == [focused + "xdotool key shift+ctrl+e" + wait.format("0.5"),
                    focused + "xdotool type --delay 20 green_background_with_object && xdotool key Return" + wait.format(2),
                    focused + "xdotool key Return" + wait.format(5)], cmds
    first = [s["shell.run"]["cmd"] for s in tasks["osworld-gimp-00000000"]["before_judge"]]
    assert first == cmds, first  # a pause before any key is dropped
