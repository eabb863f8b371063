"""Trajectory folders: one per task, steps as JSON and screenshots as files."""

from __future__ import annotations

import re
from pathlib import Path

from ..agent.agent import EpisodeRecord, StepRecord
from ..execution import Image


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

    def step(self, rec: StepRecord) -> None:
        if rec.screenshot is not None:
            rec.screenshot_file = self.screenshot(f"step_{rec.index:03d}", rec.screenshot)
        if rec.result is not None:
            for i, img in enumerate(rec.result.images):
                self.screenshot(f"step_{rec.index:03d}_output_{i}", img)
        (self.folder / f"step_{rec.index:03d}.json").write_text(
            rec.model_dump_json(indent=1, exclude={"result": {"images"}})
        )

    def episode(self, record: EpisodeRecord, extra: dict[str, object]) -> None:
        data = record.model_dump(mode="json", exclude={"steps": {"__all__": {"result": {"images"}}}})
        data.update(extra)
        import json

        (self.folder / "episode.json").write_text(json.dumps(data, indent=1))
