"""Official OSWorld GIMP tasks whose metrics locate things by colour rules (check_green_background,
check_textbox_on_leftside, check_triangle_position), imported and validated in worlds with GIMP
running: the reference passes, a do-nothing agent and the explorer fail. The task files are
unmodified copies (fixtures/osworld_gimp, README); the .xcf and .png inputs (Drive files, not public
offline) are stand-ins made here by a headless GIMP: a black disc layer over a white background
layer, a text layer at the right of an orange one, and a yellow triangle layer at the left of a
white one (with a small black mark, so the triangle is the second least common colour the metric
takes for the shape).

The tasks' postconfig exports GIMP's open image by keyboard (shift+ctrl+e, the name, Enter twice),
so a reference must leave the edit in GIMP itself: it edits the .xcf with GIMP's Script-Fu in batch
(the same operation as the menus, without screen coordinates) and reopens it in GIMP."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from deskact.runtime.config import Config

sys.path.insert(0, str(Path(__file__).parent))
from imported_suite import validate_imported

EXAMPLES = Path(__file__).parent / "fixtures" / "osworld_gimp" / "examples"
GREEN = "gimp/734d6579-c07d-47a8-9ae2-13339795476b.json"
TEXTBOX = "gimp/e2dd0213-26db-4349-abe5-d5667bfd725c.json"
TRIANGLE = "gimp/f4aec372-4fb0-4df5-a52b-79e0e2a5d6ce.json"

# Edit the task's .xcf in batch, then quit the GIMP showing it and reopen the edited file in it.
REOPEN = """import os, subprocess
xcf = os.path.expanduser("~/Desktop/{name}.xcf")
script = ('(let* ((img (car (gimp-xcf-load RUN-NONINTERACTIVE "' + xcf + '" "' + xcf + '")))'
          ' (layers (cadr (gimp-image-get-layers img))) (top (vector-ref layers 0))'
          ' (bottom (vector-ref layers (- (vector-length layers) 1))))'
          ' {edit} (gimp-xcf-save 0 img top "' + xcf + '" "' + xcf + '"))')
subprocess.run(["gimp-console", "-i", "-d", "-f", "-b", script, "-b", "(gimp-quit 0)"],
               check=True, capture_output=True, timeout=300)
windows.activate("{name}.xcf-")
keyboard.hotkey("ctrl", "q")  # the image open in GIMP is unchanged: it quits without asking
windows.wait_closed("{name}.xcf-", timeout=60)
apps.launch(["gimp", "-s", xcf], window="{name}.xcf-", timeout=180)
exit()
"""
REFERENCES = {
    "osworld-gimp-734d6579": REOPEN.format(
        name="white_background_with_object",
        edit="(gimp-context-set-foreground (list 0 200 0)) (gimp-drawable-fill bottom FILL-FOREGROUND)"),
    "osworld-gimp-e2dd0213": REOPEN.format(
        name="orange_background", edit="(gimp-layer-set-offsets top 0 (cadr (gimp-drawable-offsets top)))"),
    # The triangle's centroid is at (50, 120) of the 300x200 picture: moved by (100, -20) to the centre.
    "osworld-gimp-f4aec372": REOPEN.format(name="Triangle_On_The_Side", edit="(gimp-layer-set-offsets top 100 -20)"),
}

# Stand-ins: (xcf, flattened png) per task, made by one headless GIMP run on the host.
STANDINS = """
(define (standin img top xcf png)
  (gimp-xcf-save 0 img top xcf xcf)
  (let ((flat (car (gimp-image-flatten img)))) (file-png-save-defaults RUN-NONINTERACTIVE img flat png png)))
(let* ((img (car (gimp-image-new 200 200 RGB)))
       (bg (car (gimp-layer-new img 200 200 RGB-IMAGE "Background" 100 LAYER-MODE-NORMAL)))
       (obj (car (gimp-layer-new img 200 200 RGBA-IMAGE "Object" 100 LAYER-MODE-NORMAL))))
  (gimp-image-insert-layer img bg 0 0)
  (gimp-image-insert-layer img obj 0 0)
  (gimp-context-set-background (list 255 255 255))
  (gimp-drawable-fill bg FILL-BACKGROUND)
  (gimp-drawable-fill obj FILL-TRANSPARENT)
  (gimp-image-select-ellipse img CHANNEL-OP-REPLACE 60 50 80 100)
  (gimp-context-set-foreground (list 0 0 0))
  (gimp-drawable-edit-fill obj FILL-FOREGROUND)
  (gimp-selection-none img)
  (standin img obj "{dir}/green.xcf" "{dir}/green.png"))
(let* ((img (car (gimp-image-new 300 200 RGB)))
       (bg (car (gimp-layer-new img 300 200 RGB-IMAGE "Background" 100 LAYER-MODE-NORMAL))))
  (gimp-image-insert-layer img bg 0 0)
  (gimp-context-set-background (list 245 140 30))
  (gimp-drawable-fill bg FILL-BACKGROUND)
  (gimp-context-set-foreground (list 0 0 0))
  (standin img (car (gimp-text-fontname img -1 170 80 "Hello" 0 TRUE 32 PIXELS "Sans-serif"))
           "{dir}/text.xcf" "{dir}/text.png"))
(let* ((img (car (gimp-image-new 300 200 RGB)))
       (bg (car (gimp-layer-new img 300 200 RGB-IMAGE "Background" 100 LAYER-MODE-NORMAL)))
       (tri (car (gimp-layer-new img 300 200 RGBA-IMAGE "Triangle" 100 LAYER-MODE-NORMAL))))
  (gimp-image-insert-layer img bg 0 0)
  (gimp-image-insert-layer img tri 0 0)
  (gimp-context-set-background (list 255 255 255))
  (gimp-drawable-fill bg FILL-BACKGROUND)
  (gimp-drawable-fill tri FILL-TRANSPARENT)
  (gimp-context-set-antialias FALSE)
  (gimp-context-set-foreground (list 0 0 0))
  (gimp-image-select-rectangle img CHANNEL-OP-REPLACE 290 190 4 4)
  (gimp-drawable-edit-fill bg FILL-FOREGROUND)
  (gimp-image-select-polygon img CHANNEL-OP-REPLACE 6 (vector 20 140 80 140 50 80))
  (gimp-context-set-foreground (list 250 220 20))
  (gimp-drawable-edit-fill tri FILL-FOREGROUND)
  (gimp-selection-none img)
  (standin img tri "{dir}/triangle.xcf" "{dir}/triangle.png"))
"""


def _id(url: str) -> str:
    return parse_qs(urlsplit(url).query)["id"][0]


def _standins(tmp: Path) -> dict[str, Path]:
    home = tmp / "gimp-home"
    home.mkdir()
    script = " ".join(line.strip() for line in STANDINS.format(dir=tmp).splitlines())
    subprocess.run(["gimp-console", "-i", "-d", "-b", script, "-b", "(gimp-quit 0)"], env={"HOME": str(home), "PATH": "/usr/bin:/bin"},
                   check=True, capture_output=True, timeout=300)
    return {name: tmp / name for name in ("green.xcf", "green.png", "text.xcf", "triangle.xcf", "triangle.png")}


def _serve(file_host: Any, made: dict[str, Path]) -> None:
    for rel, inputs in ((GREEN, {".xcf": "green.xcf", ".png": "green.png"}), (TEXTBOX, {".xcf": "text.xcf"}),
                        (TRIANGLE, {".xcf": "triangle.xcf", ".png": "triangle.png"})):
        task = json.loads((EXAMPLES / rel).read_text())
        for item in task["config"][0]["parameters"]["files"]:
            file_host.served[_id(item["url"])] = made[inputs[Path(item["path"]).suffix]].read_bytes()


@pytest.mark.slow
@pytest.mark.display
@pytest.mark.bwrap
@pytest.mark.timeout(1800)  # GIMP starts for each task and model, and the references run it in batch too
def test_gimp_colour_rule_tasks_validate(tmp_path: Path, file_host: Any) -> None:
    from deskact.runtime.world.world import world_status

    if not world_status()[0] or shutil.which("gimp-console") is None:
        pytest.skip("needs worlds and GIMP")
    src = tmp_path / "src"
    for rel in (GREEN, TEXTBOX, TRIANGLE):
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(EXAMPLES / rel, src / rel)
    _serve(file_host, _standins(tmp_path))
    config = Config()
    config.agent.step_timeout = 300  # the reference's one cell runs GIMP in batch, then starts it again
    config.agent.max_time = 600
    validate_imported(src, tmp_path, file_host, REFERENCES, config=config)
