"""Loaders: published step-level datasets read into deskact datasets (runtime/evaluation/samples.py).

=====================  ===========  ==========================================================
format                 kind         what it reads
=====================  ===========  ==========================================================
``groundui``           ground       AgentStudio's GroundUI metadata JSONL + ``images/``
``agentstudio-idm``    idm          AgentStudio's IDM-Single (``metadata_idm.jsonl``)
``agentstudio-idm-multiple``  idm_clip  AgentStudio's IDM-Multiple (``metadata_idmn2n.jsonl``)
``agentstudio-critic`` critic       AgentStudio's SuccessDetection (``metadata_success_detection.jsonl``)
``aitw``               action_step  Android in the Wild steps: its TFRecord fields as JSON lines
``aitw-tfrecord``      action_step  Android in the Wild's GZIP TFRecord shards themselves
``screenagent``        action_step  ScreenAgent's dataset folders (per-step JSON + ``images/``)
``screenagent-critic`` critic       the same folders' evaluator steps (sub-task done or not)
=====================  ===========  ==========================================================

``load_any(path)`` reads a deskact dataset folder as it is, or any of the formats above (named,
or found by :func:`detect`); the samples point at the published files where they are.
``find_in_place(root, name)`` finds such a dataset again from its folder and name (the viewer,
from an eval's eval.json). ``import_dataset(format, src, out)`` (``deskact datasets import``)
writes a deskact dataset folder, with the files the samples name copied under it. What a loader
could not turn into a sample it counts by reason, in the dataset's ``description``.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from ..samples import Dataset, DatasetError, DatasetInfo, load_dataset, write_dataset
from . import agentstudio, aitw, aitw_tfrecord, groundui, screenagent, screenagent_critic
from .common import Loaded, read_records
from .tfrecord import is_tfrecord

LOADERS: dict[str, Callable[[Path], Loaded]] = {
    "groundui": groundui.load,
    "agentstudio-idm": agentstudio.load_idm,
    "agentstudio-idm-multiple": agentstudio.load_idm_multiple,
    "agentstudio-critic": agentstudio.load_success_detection,
    "aitw": aitw.load,
    "aitw-tfrecord": aitw_tfrecord.load,
    "screenagent": screenagent.load,
    "screenagent-critic": screenagent_critic.load,
}
FORMATS = tuple(LOADERS)


def detect(path: Path) -> str:
    """The format of ``path`` ("deskact" for a dataset folder), from its first record's fields."""
    path = Path(path)
    if path.is_dir():
        if (path / "dataset.yaml").is_file():
            return "deskact"
        if next((p for p in path.rglob("*.json") if _is_screenagent(p)), None) is not None:
            return "screenagent"
        if any(p.is_file() and is_tfrecord(p) for p in path.iterdir()):
            return "aitw-tfrecord"
        raise DatasetError(f"{path}: neither a deskact dataset (no dataset.yaml), a ScreenAgent folder nor TFRecord shards")
    if path.name == "dataset.yaml":
        return "deskact"
    if not path.is_file():
        raise DatasetError(f"{path}: no such file or folder")
    if path.suffix not in (".json", ".jsonl"):
        if is_tfrecord(path):
            return "aitw-tfrecord"
        raise DatasetError(f"{path}: not a .json/.jsonl file; name the format ({', '.join(FORMATS)})")
    first = next((rec for _, rec in read_records(path)), None)
    if first is None:
        raise DatasetError(f"{path}: no records")
    if groundui.looks_like(first):
        return "groundui"
    if first.keys() >= agentstudio.IDM_KEYS:
        return "agentstudio-idm"
    if first.keys() >= agentstudio.TRAJECTORY_KEYS:
        # IDM-Multiple and SuccessDetection lines have the same fields: AgentStudio tells them apart by file.
        return "agentstudio-idm-multiple" if "idmn2n" in path.name else "agentstudio-critic"
    if aitw.looks_like(first):
        return "aitw"
    if screenagent.looks_like(first):
        return "screenagent"
    raise DatasetError(f"{path}: fields {sorted(first)[:8]} match no known format ({', '.join(FORMATS)})")


def _is_screenagent(path: Path) -> bool:
    try:
        return any(screenagent.looks_like(rec) for _, rec in read_records(path))
    except DatasetError:
        return False


def load_format(fmt: str, src: Path) -> Loaded:
    if fmt not in LOADERS:
        raise DatasetError(f"unknown dataset format {fmt!r} (known: {', '.join(FORMATS)})")
    out = LOADERS[fmt](Path(src))
    if not out.samples:
        raise DatasetError(f"{src}: no samples read as {fmt}" + (f" ({out.description()})" if out.skipped else ""))
    return out


def load_any(path: str | Path, fmt: str | None = None) -> Dataset:
    """A deskact dataset folder, or a published dataset file/folder read in place (format detected if not given)."""
    path = Path(path)
    fmt = fmt or detect(path)
    if fmt == "deskact":
        return load_dataset(path)
    return load_format(fmt, path).dataset()


def find_in_place(root: Path, name: str, kind: str | None = None) -> Dataset | None:
    """The dataset ``load_any`` read in place with this ``root`` and ``name`` (what ``deskact eval``'s
    eval.json keeps of a published file), read again; None if no file there gives it.

    The loaders name a dataset after its file (``metadata_1k.jsonl`` -> ``metadata_1k``, under its
    folder) or its folder (ScreenAgent's ``test/``, ``test-critic``), so the candidates are few.
    """
    root = Path(root)
    if (root / "samples.jsonl").is_file():
        return load_dataset(root)
    candidates = [root / f"{name}.jsonl", root / f"{name}.json", root / name, root]
    for path in candidates:
        if not path.exists():
            continue
        try:
            fmts = [detect(path)]
            if fmts[0] == "screenagent":
                fmts.append("screenagent-critic")
            for fmt in fmts:
                found = load_any(path, fmt)
                if found.name == name and (kind is None or found.info.kind == kind):
                    return found
        except DatasetError:
            continue
    return None


def import_dataset(fmt: str | None, src: str | Path, out: str | Path, name: str | None = None) -> DatasetInfo:
    """Read ``src`` and write it as a deskact dataset folder ``out`` (files copied under it, same relative paths)."""
    src, out = Path(src), Path(out)
    fmt = fmt or detect(src)
    if (out / "samples.jsonl").exists():
        raise DatasetError(f"{out}: already holds a dataset (samples.jsonl); choose an empty folder")
    if fmt == "aitw-tfrecord":  # the screenshots are decoded straight into the folder
        loaded = aitw_tfrecord.load(src, work=out)
        if not loaded.samples:
            raise DatasetError(f"{src}: no samples read as {fmt}")
    else:
        loaded = load_format(fmt, src)
    for rel in sorted({f for s in loaded.samples for f in s.files()}):
        target = out / rel
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(loaded.root / rel, target)
    if loaded.scratch:
        shutil.rmtree(loaded.root, ignore_errors=True)
    kind = loaded.kind
    return write_dataset(out, loaded.samples, kind=kind, name=name or loaded.name, source=loaded.source,
                         description=loaded.description())


__all__ = ["FORMATS", "LOADERS", "detect", "find_in_place", "import_dataset", "load_any", "load_format"]
