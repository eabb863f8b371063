"""Trajectory folders: one per task, steps as JSON and screenshots as files."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ..agent.agent import EpisodeRecord, StepRecord
from ..execution import Image

FIRST_OBSERVATION = "first_observation"
"""File stem of the screenshot taken before the first step."""


def safe_name(task_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", task_id)


class TrajectoryWriter:
    """Writes each step as it happens (so a crash keeps the steps so far)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)

    def screenshot(self, name: str, image: Image) -> str:
        ext = "png" if image.media_type == "image/png" else "jpg"
        file = f"{name}.{ext}"
        (self.folder / file).write_bytes(image.data)
        return file

    def first_observation(self, image: Image | None) -> str | None:
        """The screen the model saw with the instruction, before step 1 (``first_observation.png``)."""
        return self.screenshot(FIRST_OBSERVATION, image) if image is not None else None

    def step(self, rec: StepRecord) -> None:
        if rec.screenshot is not None:
            rec.screenshot_file = self.screenshot(f"step_{rec.index:03d}", rec.screenshot)
        if rec.result is not None:
            for i, img in enumerate(rec.result.images):
                self.screenshot(f"step_{rec.index:03d}_output_{i}", img)
        data = rec.model_dump(mode="json", exclude={"result": {"images"}})
        _images_as_files(data.get("result"), rec.index)
        (self.folder / f"step_{rec.index:03d}.json").write_text(json.dumps(data, indent=1))

    def episode(self, record: EpisodeRecord, extra: dict[str, object]) -> None:
        data = record.model_dump(mode="json", exclude={"steps": {"__all__": {"result": {"images"}}}})
        for step in data["steps"]:
            _images_as_files(step.get("result"), step["index"])
        data.update(extra)
        (self.folder / "episode.json").write_text(json.dumps(data, indent=1))


def _images_as_files(result: dict[str, Any] | None, index: int) -> None:
    """Ordered image parts name their file (written beside the step, as ``step()`` names
    it) instead of holding base64."""
    images = [p for p in (result or {}).get("outputs") or [] if p.get("kind") == "image" and p.get("image")]
    for i, part in enumerate(images):
        ext = "png" if part["image"].get("media_type") == "image/png" else "jpg"
        part["image"], part["file"] = None, f"step_{index:03d}_output_{i}.{ext}"
