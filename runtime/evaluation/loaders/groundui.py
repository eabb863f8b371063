"""GroundUI (AgentStudio's UI grounding set: GroundUI-18K and its 1K subset) -> ``ground`` samples.

The published layout (AgentStudio's ``eval_agent_desiderata/datasets/gui_grounding``)::

    gui_grounding/
      metadata_1k.jsonl     # or metadata.jsonl, metadata_raw_1k.jsonl, ...
      images/<image>

Each line: ``image`` (a file under ``images/``), ``instruction``, ``bbox`` ``[left, top, right,
bottom]`` in pixels of ``resolution`` ``[width, height]``, ``source`` (omniact, mind2web_test_*,
motif, screenspot, agent_studio), ``platform`` (web, desktop, mobile) and ``raw_instruction`` (the
instruction before GPT-4o recaptioned it). AgentStudio scores a point as right when it falls inside
the box; a box with no area (a published record has one) is left out and counted. The box is mapped onto the image's own pixels when the image is not stored at
``resolution`` (a smaller copy), so the sample's coordinates are always the image's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..samples import DatasetError, GroundSample
from .common import Loaded, image_size, need, px, read_records, rel_file

FORMAT = "groundui"
KEYS = frozenset({"image", "instruction", "bbox", "resolution"})


def looks_like(record: dict[str, Any]) -> bool:
    return record.keys() >= KEYS


def load(path: Path) -> Loaded:
    """Read a GroundUI metadata file; images are looked up under ``images/`` next to it, as AgentStudio does."""
    root = path.parent
    out = Loaded(root=root, kind="ground", name=path.stem, source=f"GroundUI ({path.name})")
    for index, (where, rec) in enumerate(read_records(path)):
        sample = _sample(root, rec, where, index)
        if isinstance(sample, str):
            out.skipped[sample] += 1
        else:
            out.samples.append(sample)
    return out


def _sample(root: Path, rec: dict[str, Any], where: str, index: int) -> GroundSample | str:
    image = rel_file(root, "images/" + str(need(rec, "image", where, str)), where, "image")
    bbox = need(rec, "bbox", where, list)
    res = need(rec, "resolution", where, list)
    if len(bbox) != 4 or len(res) != 2 or not all(isinstance(v, int | float) for v in bbox + res):
        raise DatasetError(f"{where}: field 'bbox'/'resolution': expected 4 and 2 numbers, got {bbox} and {res}")
    if bbox[2] <= bbox[0] or bbox[3] <= bbox[1]:
        # GroundUI-1K has one ([336, 652, 466, 652]): no point is inside it, for any model.
        return "a box with no area (or inverted)"
    width, height = image_size(root / image)
    sx, sy = width / res[0], height / res[1]
    box = [px(bbox[0] * sx), px(bbox[1] * sy), px(bbox[2] * sx), px(bbox[3] * sy)]
    platform = rec.get("platform") if rec.get("platform") in ("desktop", "web", "mobile") else "desktop"
    return GroundSample(
        id=f"{Path(image).stem}-{index}", source=f"groundui/{rec.get('source') or 'unknown'}", platform=platform,
        image=image, width=width, height=height, instruction=str(need(rec, "instruction", where, str)), box=box,
    )
