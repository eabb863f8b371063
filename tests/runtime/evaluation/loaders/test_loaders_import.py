"""Every fixture format imported into a deskact dataset folder and read back by load_dataset."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from deskact.runtime.evaluation.loaders import FORMATS, detect, import_dataset, load_any
from deskact.runtime.evaluation.samples import DatasetError, load_dataset

sys.path.insert(0, str(Path(__file__).parent))
from published import SOURCES


@pytest.fixture(autouse=True)
def _scratch_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Shards read in place are decoded into a temporary folder: this test's, not /tmp's."""
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))


@pytest.mark.parametrize("fmt", sorted(SOURCES))
def test_import_writes_a_dataset_folder_that_loads_the_same(fmt: str, tmp_path: Path) -> None:
    src = SOURCES[fmt]
    if fmt != "screenagent-critic":  # read from the same folders as screenagent: named, not found
        assert detect(src) == fmt
    in_place = load_any(src, fmt)
    info = import_dataset(fmt, src, tmp_path / fmt)
    back = load_dataset(tmp_path / fmt)
    assert back.info.kind == in_place.info.kind == info.kind
    assert [s.model_dump() for s in back] == [s.model_dump() for s in in_place]
    assert back.info.counts["samples"] == len(in_place)
    # Every file a sample names was copied, byte for byte (TFRecord screenshots are decoded into the folder).
    if fmt != "aitw-tfrecord":
        for sample in back:
            for rel in sample.files():
                assert (tmp_path / fmt / rel).read_bytes() == (in_place.root / rel).read_bytes()
    assert detect(tmp_path / fmt) == "deskact"
    assert [s.id for s in load_any(tmp_path / fmt)] == [s.id for s in in_place]


def test_every_format_has_a_fixture() -> None:
    assert set(SOURCES) == set(FORMATS)


def test_unknown_files_and_a_used_folder_are_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({"hello": 1}) + "\n")
    with pytest.raises(DatasetError, match=r"other.jsonl: fields \['hello'\] match no known format"):
        load_any(other)
    with pytest.raises(DatasetError, match="unknown dataset format 'nope'"):
        import_dataset("nope", other, tmp_path / "out")
    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(DatasetError, match="not a .json/.jsonl file"):
        detect(tmp_path / "notes.txt")
    import_dataset("groundui", SOURCES["groundui"], tmp_path / "g")
    with pytest.raises(DatasetError, match="already holds a dataset"):
        import_dataset("groundui", SOURCES["groundui"], tmp_path / "g")
