"""AgentStudio's GIMP checks (agent_studio/envs/desktop_env/evaluators/gimp/gimp_evaluator.py), as
table-driven cases read from its source: the agent's image (src_path) against a data file
(tgt_path); scikit-image's SSIM on the pixel arrays as stored (no RGB conversion: an RGBA export
against an RGB original has arrays of other shapes, so scikit-image raises and the check fails);
the brightness check's MSE on the arrays as stored. Each case runs the importer's translation."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from deskact.runtime.importers.agentstudio import convert
from deskact.runtime.importers.common import ImportOptions, Untranslatable
from deskact.runtime.tasks.steps import StepContext, run_judge
from PIL import Image, ImageEnhance

TGT = "${AS_ROOT}/data/0000/berry.png"
SRC = "${AS_ROOT}/gimp_workspace/out.png"
Edit = Callable[[Image.Image], Image.Image]
MIRROR = Image.Transpose.FLIP_LEFT_RIGHT


def _berry() -> Image.Image:
    rng = np.random.default_rng(3)
    y, x = np.mgrid[0:48, 0:64]
    base = np.stack([150 + x, 40 + 2 * y, 90 - x], axis=-1) + rng.normal(0, 3, (48, 64, 3))
    return Image.fromarray(np.clip(base, 0, 255).astype(np.uint8))


def _task(function: str) -> dict:
    return {"task_id": "0000", "instruction": "Edit the photo in GIMP.", "visual": True,
            "reset_procedure": [{"evaluator": "process", "function": "create_process",
                                 "params": {"cmd": ["gimp", "${AS_ROOT}/gimp_workspace/berry.png"], "wait_for": "gimp"}}],
            "eval_procedure": [{"evaluator": "gimp", "function": function, "params": {"src_path": SRC, "tgt_path": TGT}}]}


def _judged(ctx: StepContext, tmp_path: Path, function: str, edit: Edit) -> bool:
    root = tmp_path / "as_root"
    (root / "data" / "0000").mkdir(parents=True)
    _berry().save(root / "data" / "0000" / "berry.png")
    task, _ = convert(_task(function), "gimp/0000.json", ImportOptions(out=tmp_path / "suite", files_root=root))
    assert task["reset"] == [{"apps.gimp": {"path": "${WORKSPACE}/gimp_workspace/berry.png", "timeout": 120}}]
    assert ctx.gold is not None
    (ctx.gold / "data" / "0000").mkdir(parents=True)
    (ctx.gold / "data" / "0000" / "berry.png").write_bytes((tmp_path / "suite" / "gold" / "data" / "0000" / "berry.png").read_bytes())
    (ctx.workspace / "gimp_workspace").mkdir()
    edit(_berry()).save(ctx.workspace / "gimp_workspace" / "out.png")
    judges = [(name, {k: v.replace("${WORKSPACE}", str(ctx.workspace)) if isinstance(v, str) else v for k, v in params.items()})
              for s in task["judge"] for name, params in s.items()]
    verdicts = [run_judge(name, params, ctx) for name, params in judges]
    assert not any(v.error for v in verdicts), [v.feedback for v in verdicts]
    return all(v.passed for v in verdicts)


@pytest.mark.parametrize(("function", "edit", "passes"), [
    ("check_structure_sim", lambda im: im, True),
    ("check_structure_sim", lambda im: im.convert("RGBA"), False),  # 4 channels against 3: scikit-image raises
    ("check_structure_sim", lambda im: im.resize((32, 24)), False),  # other shapes: scikit-image raises
    ("check_file_exists_and_structure_sim", lambda im: im.rotate(180), False),
    ("check_image_mirror", lambda im: im.transpose(MIRROR), True),
    ("check_image_mirror", lambda im: im, False),
    ("check_palette_and_structure_sim", lambda im: im.quantize(256), True),
    ("check_palette_and_structure_sim", lambda im: im, False),
    ("check_brightness_decrease_and_structure_sim", lambda im: ImageEnhance.Brightness(im).enhance(0.7), True),
    ("check_brightness_decrease_and_structure_sim", lambda im: ImageEnhance.Brightness(im).enhance(1.2), False),
    ("check_brightness_decrease_and_structure_sim", lambda im: ImageEnhance.Brightness(im).enhance(0.7).convert("RGBA"), False),
    ("check_saturation_increase_and_structure_sim", lambda im: ImageEnhance.Color(im).enhance(1.5), True),
    ("check_saturation_increase_and_structure_sim", lambda im: ImageEnhance.Color(im).enhance(0.6), False),
    ("check_contrast_increase_and_structure_sim", lambda im: ImageEnhance.Contrast(im).enhance(1.5), True),
    ("check_contrast_increase_and_structure_sim", lambda im: ImageEnhance.Contrast(im).enhance(0.7), False),
])
def test_gimp_checks(ctx: StepContext, tmp_path: Path, function: str, edit: Edit, passes: bool) -> None:
    assert _judged(ctx, tmp_path, function, edit) is passes


def test_heuristic_checks_are_reported(tmp_path: Path) -> None:
    task = _task("check_triangle_position")
    task["eval_procedure"][0]["params"] = {"tgt_path": SRC}
    with pytest.raises(Untranslatable, match="colour heuristics"):
        convert(task, "gimp/0000.json", ImportOptions(out=tmp_path / "suite"))
