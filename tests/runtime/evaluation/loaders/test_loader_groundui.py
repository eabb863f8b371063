"""GroundUI records (AgentStudio's grounding format) read from the fixture in that format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from deskact.runtime.evaluation.loaders import detect, load_any
from deskact.runtime.evaluation.samples import DatasetError, GroundSample, in_box

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "evaluation" / "groundui"


def test_groundui_records_become_ground_samples() -> None:
    path = FIXTURE / "metadata_1k.jsonl"
    assert detect(path) == "groundui"
    ds = load_any(path)
    assert ds.info.kind == "ground" and len(ds) == 6
    first = ds.samples[0]
    assert isinstance(first, GroundSample)
    assert (first.image, first.width, first.height, first.box) == ("images/desktop_calc_screen1.png", 320, 200,
                                                                  [8, 24, 48, 42])
    assert (first.instruction, first.platform, first.source) == ("Click the Bold button.", "desktop", "groundui/omniact")
    assert [s.platform for s in ds] == ["desktop", "desktop", "web", "web", "mobile", "mobile"]
    assert len({s.id for s in ds}) == 6  # two records per screenshot, each its own id


def test_a_box_given_at_another_resolution_is_mapped_onto_the_image() -> None:
    # Line 2 gives its box at 640x400 for the 320x200 image: halved, it is the Underline button.
    second = load_any(FIXTURE / "metadata_1k.jsonl").samples[1]
    assert isinstance(second, GroundSample)
    assert second.box == [96, 24, 150, 42]
    assert in_box(123, 33, second.box) and not in_box(200, 60, second.box)


def test_errors_name_the_line_and_the_field(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "a.png").write_bytes((FIXTURE / "images" / "web_shop_screen1.png").read_bytes())
    good = {"image": "a.png", "instruction": "Click", "bbox": [1, 2, 3, 4], "resolution": [320, 200],
            "source": "x", "platform": "web"}
    path = tmp_path / "metadata.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps({**good, "image": "missing.png"}) + "\n")
    with pytest.raises(DatasetError, match=r"metadata.jsonl:2: field 'image': no such file .*missing.png"):
        load_any(path)
    path.write_text(json.dumps({**good, "bbox": [1, 2, 3]}) + "\n")
    with pytest.raises(DatasetError, match=r"metadata.jsonl:1: field 'bbox'/'resolution'"):
        load_any(path)
    path.write_text(json.dumps({**good, "image": "../a.png"}) + "\n")
    with pytest.raises(DatasetError, match="leaves the dataset folder"):
        load_any(path)


def test_a_box_with_no_area_is_left_out_and_counted(tmp_path: Path) -> None:
    # GroundUI-1K's line 68 has bbox [336, 652, 466, 652]: no point is ever inside it.
    (tmp_path / "images").symlink_to(FIXTURE / "images")
    lines = (FIXTURE / "metadata_1k.jsonl").read_text().splitlines()
    flat = json.loads(lines[0]) | {"bbox": [8, 30, 48, 30]}
    (tmp_path / "metadata.jsonl").write_text("\n".join([lines[0], json.dumps(flat), lines[2]]) + "\n")
    ds = load_any(tmp_path / "metadata.jsonl")
    assert [s.id for s in ds] == ["desktop_calc_screen1-0", "web_shop_screen1-2"]
    assert "Left out 1 records: a box with no area (or inverted): 1." in ds.info.description
