"""Android in the Wild's own GZIP TFRecord shards, read without TensorFlow from a fixture in that format."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from deskact.runtime.evaluation.loaders import detect, import_dataset, load_any
from deskact.runtime.evaluation.loaders.tfrecord import crc32c, is_tfrecord, parse_example, records
from deskact.runtime.evaluation.samples import DatasetError, load_dataset
from PIL import Image, ImageChops

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "evaluation" / "aitw"
SHARD = FIXTURE / "episodes.tfrecord.gz"


@pytest.fixture(autouse=True)
def _scratch_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Shards read in place are decoded into a temporary folder: this test's, not /tmp's."""
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))


def test_crc32c_check_value() -> None:
    assert crc32c(b"123456789") == 0xE3069283  # the CRC-32C catalogue's check value


def test_examples_decode_to_aitw_fields() -> None:
    first = parse_example(next(records(SHARD)))
    assert first["step_id"] == [3] and first["results/action_type"] == [7]
    assert first["episode_id"] == [b"8104393217738405451"]
    assert first["goal_info"] == [b"What's the weather in Paris?"]
    assert first["image/height"] == [320] and first["image/width"] == [180]
    assert first["results/yx_touch"] == [-1.0, -1.0]  # an int64 -1 and floats both survive
    assert len(first["image/encoded"][0]) == 180 * 320 * 3  # type: ignore[arg-type]
    assert len(list(records(SHARD))) == 9


def test_the_shard_reads_as_its_json_rendering_does(tmp_path: Path) -> None:
    assert detect(SHARD) == "aitw-tfrecord" and is_tfrecord(SHARD)
    from_shard, from_json = load_any(SHARD), load_any(FIXTURE / "episodes.jsonl")
    assert [s.model_dump(exclude={"image"}) for s in from_shard] == [s.model_dump(exclude={"image"}) for s in from_json]
    # The raw pixels became the same pictures.
    for a, b in zip(from_shard.samples, from_json.samples, strict=True):
        with Image.open(from_shard.root / a.files()[0]) as x, Image.open(from_json.root / b.files()[0]) as y:
            assert ImageChops.difference(x.convert("RGB"), y.convert("RGB")).getbbox() is None
    info = import_dataset(None, SHARD, tmp_path / "aitw")
    assert info.counts["samples"] == 9
    assert sorted(p.name for p in (tmp_path / "aitw" / "images").iterdir())[:2] == [
        "5512076349010113360_0.png", "5512076349010113360_1.png"]
    assert len(load_dataset(tmp_path / "aitw")) == 9
    (tmp_path / "shards").mkdir()
    (tmp_path / "shards" / "general-00000-of-00001").write_bytes(SHARD.read_bytes())
    assert detect(tmp_path / "shards") == "aitw-tfrecord" and len(load_any(tmp_path / "shards")) == 9


def test_a_cut_shard_is_an_error(tmp_path: Path) -> None:
    raw = gzip.decompress(SHARD.read_bytes())
    cut = tmp_path / "cut.tfrecord"
    cut.write_bytes(raw[: len(raw) - 1000])
    assert detect(cut) == "aitw-tfrecord"
    with pytest.raises(DatasetError, match=r"cut.tfrecord: record 8: cut short"):
        load_any(cut)
    other = tmp_path / "other.bin"
    other.write_bytes(b"not a tfrecord at all")
    assert not is_tfrecord(other)
    with pytest.raises(DatasetError, match="not a .json/.jsonl file"):
        detect(other)
