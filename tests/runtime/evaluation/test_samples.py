"""The dataset folder format: write, load, and errors that name file, line, field and value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from deskact.runtime.evaluation.samples import (
    Action,
    CriticSample,
    DatasetError,
    GroundSample,
    IdmClip,
    TimedAction,
    TrajectoryStep,
    load_dataset,
    write_dataset,
)
from PIL import Image


def _image(root: Path, name: str) -> str:
    (root / name).parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (40, 20), "white").save(root / name)
    return name


def _ground(root: Path, sid: str = "g1", app: str = "calc") -> GroundSample:
    return GroundSample(id=sid, image=_image(root, f"images/{sid}.png"), width=40, height=20,
                        instruction="click Bold", box=[1, 2, 10, 12], app=app)


def test_round_trip_and_counts(tmp_path: Path) -> None:
    samples = [_ground(tmp_path, "a"), _ground(tmp_path, "b", app="writer")]
    info = write_dataset(tmp_path, samples, kind="ground", name="tiny", source="test")
    assert info.counts == {"samples": 2, "platform": {"desktop": 2}, "app": {"calc": 1, "writer": 1}}
    loaded = load_dataset(tmp_path / "dataset.yaml")
    assert loaded.info.name == "tiny" and loaded.samples == samples
    assert loaded.path("images/a.png").is_file()


def test_critic_and_clip_counts(tmp_path: Path) -> None:
    shot = _image(tmp_path, "s/1.png")
    critic = [CriticSample(id=f"c{i}", instruction="do it", steps=[TrajectoryStep(screenshot=shot, code="x=1")],
                           success=i % 2 == 0) for i in range(3)]
    assert write_dataset(tmp_path / "c", [], kind="critic", name="empty").counts["samples"] == 0
    (tmp_path / "c2").mkdir()
    _image(tmp_path / "c2", "s/1.png")
    assert write_dataset(tmp_path / "c2", critic, kind="critic", name="c").counts["success"] == 2
    clip = IdmClip(id="k", frames=[shot, shot], width=40, height=20,
                   actions=[TimedAction(t=0.5, action=Action(kind="key", keys=["Enter"]))])
    assert clip.actions[0].action.keys == ["enter"]
    with pytest.raises(ValueError, match="either frames or a video"):
        IdmClip(id="k", width=1, height=1, actions=[])


def test_errors_name_file_line_field_value(tmp_path: Path) -> None:
    write_dataset(tmp_path, [_ground(tmp_path)], kind="ground", name="t")
    bad = {"id": "b", "image": "../secret.png", "width": 40, "height": 20, "instruction": "x", "box": [5, 1, 2, 1]}
    with (tmp_path / "samples.jsonl").open("a") as fh:
        fh.write(json.dumps(bad) + "\n")
    with pytest.raises(DatasetError) as err:
        load_dataset(tmp_path)
    message = str(err.value)
    assert f"{tmp_path / 'samples.jsonl'}:2:" in message
    assert "field 'image'" in message and "../secret.png" in message
    assert "field 'box'" in message and "[5, 1, 2, 1]" in message


@pytest.mark.parametrize(("line", "expected"), [
    ("{not json", "not JSON"),
    ('{"id": "g1", "image": "images/g1.png", "width": 40, "height": 20, "instruction": "x", "box": [0,0,1,1]}',
     "field 'id': 'g1' already used on line 1"),
    ('{"id": "m", "image": "images/missing.png", "width": 40, "height": 20, "instruction": "x", "box": [0,0,1,1]}',
     "'images/missing.png': no such file"),
    ('{"kind": "critic", "id": "k", "instruction": "x", "steps": [], "success": true}', "field 'kind': 'critic'"),
    ('{"id": "z", "image": "images/g1.png", "width": 40, "height": 20, "instruction": "x", "box": [0,0,1,1], "colour": 1}',
     "field 'colour'"),
])
def test_bad_lines(tmp_path: Path, line: str, expected: str) -> None:
    write_dataset(tmp_path, [_ground(tmp_path)], kind="ground", name="t")
    with (tmp_path / "samples.jsonl").open("a") as fh:
        fh.write(line + "\n")
    with pytest.raises(DatasetError, match="samples.jsonl:2: ") as err:
        load_dataset(tmp_path)
    assert expected in str(err.value)


def test_bad_info_and_actions(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="no dataset.yaml"):
        load_dataset(tmp_path)
    (tmp_path / "dataset.yaml").write_text("kind: pictures\nname: x\n")
    with pytest.raises(DatasetError, match=r"dataset.yaml: field 'kind'.*\"pictures\""):
        load_dataset(tmp_path)
    with pytest.raises(ValueError, match="a drag action needs x2 and y2"):
        Action(kind="drag", x=1, y=1)
    assert Action(kind="hotkey", keys=["Ctrl", "C"]).short() == "hotkey(ctrl+c)"
