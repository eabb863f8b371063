"""Android in the Wild's own files: GZIP TFRecord shards of ``tf.train.Example`` steps -> ``action_step`` samples.

Each example holds the fields aitw.py reads (its README lists them), with the screenshot in
``image/encoded`` as raw ``uint8`` pixels of ``image/height`` x ``image/width`` x
``image/channels`` (AITW's demo decodes it with ``tf.io.decode_raw``; an encoded PNG or JPEG is
kept as it is). The screenshots are written out as PNG files, ``images/<episode>_<step>.png``,
into the dataset folder being written (``deskact datasets import``), or into a temporary folder
when the shards are read in place (written as a dataset folder too, so ``deskact view`` can read
an eval of them back); the steps then go through aitw.py's mapping.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..samples import DatasetError, write_dataset
from . import aitw
from .common import Loaded
from .tfrecord import is_tfrecord, parse_example, records

LISTS = frozenset({"image/ui_annotations_positions", "image/ui_annotations_text", "image/ui_annotations_ui_types",
                   "results/yx_touch", "results/yx_lift"})
"""Features kept as lists; every other one is a single value (AITW's FixedLenFeature([]))."""
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def shards(path: Path) -> list[Path]:
    """The TFRecord files of ``path``: itself, or those directly in the folder."""
    if path.is_dir():
        found = sorted(p for p in path.iterdir() if p.is_file() and is_tfrecord(p))
        if not found:
            raise DatasetError(f"{path}: no TFRecord files in this folder")
        return found
    if not is_tfrecord(path):
        raise DatasetError(f"{path}: not a TFRecord file")
    return [path]


def _value(name: str, values: list[Any]) -> Any:
    values = [v.decode("utf-8", errors="replace") if isinstance(v, bytes) else v for v in values]
    return values if name in LISTS else (values[0] if values else None)


def _write_image(root: Path, ex: dict[str, Any], rec: dict[str, Any], where: str) -> str:
    from PIL import Image

    data = (ex.get("image/encoded") or [b""])[0]
    if not isinstance(data, bytes) or not data:
        raise DatasetError(f"{where}: field 'image/encoded' is missing")
    name = f"images/{_SAFE.sub('_', str(rec.get('episode_id')))}_{rec.get('step_id')}"
    if data.startswith((b"\x89PNG", b"\xff\xd8")):
        rel = name + (".png" if data.startswith(b"\x89PNG") else ".jpg")
        (root / rel).write_bytes(data)
        return rel
    h, w, c = (rec.get(k) for k in ("image/height", "image/width", "image/channels"))
    if not all(isinstance(v, int) and v > 0 for v in (h, w, c)) or len(data) != h * w * c:  # type: ignore[operator]
        raise DatasetError(f"{where}: field 'image/encoded': {len(data)} bytes are not {h}x{w}x{c} pixels")
    mode = {1: "L", 3: "RGB", 4: "RGBA"}.get(c)  # type: ignore[arg-type]
    if mode is None:
        raise DatasetError(f"{where}: field 'image/channels': {c} channels")
    Image.frombytes(mode, (w, h), data).save(root / (name + ".png"), compress_level=3)  # type: ignore[arg-type]
    return name + ".png"


def load(path: Path, work: Path | None = None) -> Loaded:
    """Read the shard (or the folder's shards); screenshots are written under ``work`` (a temporary folder if None)."""
    files = shards(path)
    root = work if work is not None else Path(tempfile.mkdtemp(prefix="deskact-aitw-"))
    (root / "images").mkdir(parents=True, exist_ok=True)
    out = Loaded(root=root, kind="action_step", name=path.name.split(".")[0],
                 source=f"Android in the Wild TFRecord ({path.name})", scratch=work is None)

    def steps() -> Iterator[tuple[str, dict[str, Any]]]:
        for file in files:
            for index, data in enumerate(records(file)):
                where = f"{file}: record {index}"
                try:
                    ex = parse_example(data)
                except (ValueError, IndexError, UnicodeDecodeError) as exc:
                    raise DatasetError(f"{where}: not a tf.train.Example ({exc})") from None
                rec = {k: _value(k, list(v)) for k, v in ex.items() if k != "image/encoded"}
                rec["image/encoded"] = _write_image(root, ex, rec, where)
                yield where, rec

    aitw.add_steps(out, steps())
    if out.scratch and out.samples:  # the temporary folder is a dataset folder too: a viewer can read it back
        write_dataset(root, out.samples, kind="action_step", name=out.name, source=out.source,
                      description=out.description())
    return out
