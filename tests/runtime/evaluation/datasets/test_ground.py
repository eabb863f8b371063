"""deskact datasets ground: instructions, box fix-ups and the scaled boxes (no display), and a real
generation in worlds whose proofs are checked to reject a wrong box."""

from __future__ import annotations

import json
import random
import shutil
import time
from pathlib import Path

import pytest
from deskact.runtime.config import Config
from deskact.runtime.evaluation.datasets import ground_targets as targets
from deskact.runtime.evaluation.datasets import ground_text as text
from deskact.runtime.evaluation.datasets import ground_tree as tree
from deskact.runtime.evaluation.datasets.ground_proof import reacted
from deskact.runtime.evaluation.samples import in_box, load_dataset
from deskact.runtime.screen_scale import fit_scale


def test_names_instructions_and_cells() -> None:
    assert text.clean_name("_Bold (Ctrl+B)") == "Bold"
    assert text.clean_name("Character...") == "Character"
    assert text.clean_name("Paste Special      ") == "Paste Special"
    assert [text.column_name(c) for c in (0, 25, 26, 27, 701, 702)] == ["A", "Z", "AA", "AB", "ZZ", "AAA"]
    rng = random.Random(1)
    said = {text.instruction("toggle", "Bold", rng, checked=False) for _ in range(30)}
    assert "click the Bold button" in said and "turn on Bold" in said and "turn off Bold" not in said
    assert all("C4" in text.instruction("cell", "C4", rng) for _ in range(10))
    assert text.instruction("menu", "Slide Show", random.Random(0)).count("'Slide Show'") == 1


def test_reactions() -> None:
    off, on = frozenset({"showing"}), frozenset({"showing", "checked"})
    assert reacted("toggle", off, on) and reacted("toggle", on, off) and not reacted("toggle", on, on)
    assert reacted("menu", off, frozenset({"selected"})) and not reacted("menu", off, off)
    assert reacted("cell", off, frozenset({"focused"})) and not reacted("cell", frozenset({"focused"}), frozenset({"focused"}))
    assert not reacted("tab", off, None)
    with pytest.raises(ValueError, match="dance"):
        reacted("dance", off, on)


def _node(i: int, role: str, box: tuple[int, int, int, int], parent: int | None, name: str = "") -> tree.Node:
    x, y, w, h = box
    return tree.Node(ref=("app", f"/{i}"), role=role, name=name, states=frozenset({"sensitive", "showing"}), box=box,
                     depth=0, parent=parent, visible=(x, y, x + w - 1, y + h - 1), index=i)


def test_libreoffice_offset_moves_vcl_boxes_not_gtk_ones() -> None:
    # A root pane reported 25 px above its parent panel (LibreOffice on GTK 3): its VCL children
    # move down by 25; a GTK box (filler) and what is under it stay; a hidden menu bar hides its menus.
    nodes = [_node(0, "frame", (0, 0, 1920, 1080), None), _node(1, "panel", (0, 44, 1920, 1036), 0),
             _node(2, "root pane", (0, 19, 1920, 1036), 1), _node(3, "tool bar", (0, 58, 800, 39), 2),
             _node(4, "toggle button", (591, 60, 33, 35), 3, "Bold"), _node(5, "filler", (1600, 300, 300, 300), 2),
             _node(6, "check box", (1656, 357, 184, 22), 5, "Master Objects"),
             _node(7, "menu bar", (0, 19, 1920, 0), 2), _node(8, "menu", (0, 19, 35, 19), 7, "File")]
    offsets = targets.lo_offsets(nodes)
    screen = (1920, 1080)
    assert targets.fixed_rect(nodes[4], offsets.get(4), screen, nodes) == (591, 85, 623, 119)
    assert targets.fixed_rect(nodes[6], offsets.get(6), screen, nodes) == (1656, 357, 1839, 378)
    assert targets.fixed_rect(nodes[8], offsets.get(8), screen, nodes) is None
    found = targets.collect(nodes, screen, random.Random(0))
    assert {(t.kind, t.name) for t in found.targets} == {("toggle", "Bold"), ("check", "Master Objects")}


def test_scaled_boxes_map_back_into_the_real_box() -> None:
    # The scaled sample's box is the real one times fit_scale: any point a model picks in it maps
    # back (image / scale, rounded as the gui toolkit does) to a pixel of the real box.
    scale = fit_scale(1920, 1080, 1280, 800)
    rng = random.Random(3)
    for _ in range(2000):
        x0, y0 = rng.randint(0, 1800), rng.randint(0, 1000)
        x1, y1 = x0 + rng.randint(0, 80), y0 + rng.randint(0, 40)
        box = [x0 * scale, y0 * scale, x1 * scale, y1 * scale]
        px, py = rng.uniform(box[0], box[2]), rng.uniform(box[1], box[3])
        assert in_box(px, py, box)
        assert x0 <= round(px / scale) <= x1 and y0 <= round(py / scale) <= y1


# -- in worlds -------------------------------------------------------------------------------------

NEEDED = ("Xvfb", "openbox", "mousepad", "chromium")


def _config() -> Config:
    from deskact.runtime.world.world import world_status

    ok, why = world_status()
    if not ok:
        pytest.skip(f"this machine cannot make worlds: {why}")
    missing = [p for p in NEEDED if shutil.which(p) is None]
    if missing:
        pytest.skip(f"needs {', '.join(missing)}")
    cfg = Config()
    cfg.world.enabled = "on"
    cfg.display.width, cfg.display.height = 1280, 800
    cfg.observation.max_width, cfg.observation.max_height = 960, 600
    return cfg


@pytest.mark.display
@pytest.mark.bwrap
@pytest.mark.slow
@pytest.mark.timeout(900)
def test_generate_small_set_with_real_proofs(requires_xvfb: None, tmp_path: Path) -> None:
    from deskact.runtime.evaluation.datasets.ground import generate

    cfg = _config()
    report = generate(tmp_path / "ground", cfg, ["mousepad", "chromium"], per_app=6, workers=1)
    assert report.apps["mousepad"].proven == 6, report.apps["mousepad"]
    assert report.apps["chromium"].proven == 6, report.apps["chromium"]
    screen, scaled = load_dataset(tmp_path / "ground" / "screen"), load_dataset(tmp_path / "ground" / "scaled")
    assert len(screen) == len(scaled) == 12
    assert {s.app for s in screen} == {"mousepad", "chromium"}
    scale = fit_scale(1280, 800, 960, 600)
    for real, small in zip(screen, scaled, strict=True):
        assert real.id == small.id and real.instruction == small.instruction
        assert (real.width, real.height) == (1280, 800) and (small.width, small.height) == (960, 600)
        assert small.box == pytest.approx([v * scale for v in real.box])
        from PIL import Image

        with Image.open(screen.path(real.image)) as img:
            assert img.size == (1280, 800)
    report_json = json.loads((tmp_path / "ground" / "report.json").read_text())
    assert report_json["proven"] == 12


@pytest.mark.display
@pytest.mark.bwrap
@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_wrong_box_is_not_proven(requires_xvfb: None) -> None:
    """The proof is the app's reaction to a real click: the File menu's sample clicked at the Edit
    menu's centre (or on empty text) is rejected; at its own centre it is proven, and undone."""
    from deskact.runtime.evaluation.datasets.ground import ground_config, scene_task
    from deskact.runtime.evaluation.datasets.ground_apps import APPS
    from deskact.runtime.evaluation.datasets.ground_input import XInput
    from deskact.runtime.evaluation.datasets.ground_proof import Prover
    from deskact.runtime.run.task_env import TaskEnv
    from deskact.runtime.run.worker import Worker

    cfg = ground_config(_config())
    scene = APPS["mousepad"].scenes(random.Random(0), 1)[0]
    with Worker(cfg) as worker, TaskEnv(scene_task(scene), worker) as env:
        env.reset()
        size = env.display.size
        deadline = time.monotonic() + 60
        while not (nodes := tree.read_window(env.a11y_bus, size)) and time.monotonic() < deadline:
            time.sleep(0.5)
        found = {t.name: t for t in targets.collect(nodes, size, random.Random(0)).targets if t.kind == "menu"}
        assert {"File", "Edit"} <= set(found)
        xin = XInput(env.display.name)
        try:
            prover = Prover(env.a11y_bus, xin)
            wrong = prover.prove(found["File"], point=found["Edit"].centre())
            assert not wrong.ok and wrong.reason == "no reaction"
            right = prover.prove(found["File"])
            assert right.ok and right.restored
            assert not {"selected", "expanded"} & (prover.states(found["File"].ref) or frozenset())
        finally:
            xin.close()
