"""Annotation in the viewer: screenshots become grounding samples, episode videos IDM samples.

A person draws a box on any screenshot of a run (or of a recorded demonstration, which is a run
folder too) and writes the instruction that names it: a :class:`GroundSample`. On an episode
video they mark each action at its time (kind, position, text or keys): one :class:`IdmSample`
per action (the frame just before it and a frame after it) and one :class:`IdmClip` for the
span. Both are written with ``runtime/evaluation/samples.py``'s ``write_dataset``, so
``deskact eval DATASET`` reads them like any other dataset. The files are copied into the
dataset folder (named by their content), so a dataset outlives the run folder it came from.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from ...errors import DeskactError
from ...evaluation.samples import (
    DatasetError,
    GroundSample,
    IdmClip,
    IdmSample,
    SampleKind,
    SampleT,
    ScreenScale,
    TimedAction,
    load_dataset,
    write_dataset,
)

BEFORE_S = 0.25
"""The IDM frame before an action is taken this long before its marked time (a person marks it a
little after seeing the pointer land), never before the previous action."""
AFTER_S = 1.0
"""The frame after is this long after the marked time (the screen has reacted), never past the next action."""
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,80}$")
_LOCK = threading.Lock()  # the server answers each request in its own thread; a dataset is one file


class GroundRequest(BaseModel):
    """What the page sends for a grounding sample: a run's screenshot, a box on it, an instruction."""

    run: str
    file: str
    """The screenshot, relative to the run folder."""
    task: str = ""
    """The task key, to read the screen size from its system prompt (the image may be scaled)."""
    box: list[float]
    """[x0, y0, x1, y1] in the image's own pixels."""
    instruction: str = Field(min_length=1)
    dataset: str = "viewer-ground"
    app: str = ""
    platform: str = "desktop"
    name: str | None = None
    role: str | None = None


class IdmRequest(BaseModel):
    """An episode video and the actions a person marked on its timeline."""

    run: str
    video: str
    """The video, relative to the run folder."""
    task: str = ""
    actions: list[TimedAction] = Field(min_length=1)
    """``t`` in seconds from the video's start; positions in the video's pixels."""
    dataset: str = "viewer-idm"
    app: str = ""
    platform: str = "desktop"
    instruction: str | None = None


class Saved(BaseModel):
    dataset: str
    path: str
    kind: str
    ids: list[str]
    samples: int
    """Samples the dataset holds now."""


class DatasetRow(BaseModel):
    name: str
    kind: str
    samples: int


def dataset_name(name: str) -> str:
    if not _NAME.match(name):
        raise DeskactError(f"dataset name {name!r}: use letters, digits, '.', '_' and '-' (one folder name)")
    return name


def list_datasets(root: Path) -> list[DatasetRow]:
    rows = []
    for info in sorted(root.glob("*/dataset.yaml")) if root.is_dir() else []:
        try:
            ds = load_dataset(info.parent)
        except DatasetError:
            continue  # a broken one is for `deskact eval` to report, not for this list
        rows.append(DatasetRow(name=info.parent.name, kind=ds.info.kind, samples=len(ds.samples)))
    return rows


def _copy_in(src: Path, root: Path, folder: str) -> str:
    """The file copied under ``root/folder`` named by its content; returns its dataset-relative path."""
    digest = hashlib.sha256(src.read_bytes()).hexdigest()[:16]
    rel = f"{folder}/{digest}{src.suffix.lower()}"
    (root / folder).mkdir(parents=True, exist_ok=True)
    if not (root / rel).exists():
        shutil.copyfile(src, root / rel)
    return rel


def _append(root: Path, kind: SampleKind, new: list[SampleT], source: str) -> int:
    """Add ``new`` to the dataset at ``root`` (made if missing); refuses a kind mismatch or a repeated id."""
    old: list[SampleT] = []
    if (root / "dataset.yaml").exists():
        ds = load_dataset(root)
        if ds.info.kind != kind:
            raise DeskactError(f"dataset {root.name} holds {ds.info.kind} samples, not {kind}: pick another name")
        old = ds.samples
    taken = {s.id for s in old}
    repeated = [s.id for s in new if s.id in taken]
    if repeated:
        raise DeskactError(f"dataset {root.name} already has sample {repeated[0]} (the same annotation)")
    write_dataset(root, old + new, kind=kind, name=root.name, source=source,
                  description="annotated by hand in deskact view")
    return len(old) + len(new)


def _sample_id(*parts: Any) -> str:
    return hashlib.sha1(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:12]


def _screen(size: tuple[int, int] | None, width: int) -> ScreenScale | None:
    if size is None:
        return None
    return ScreenScale(screen_width=size[0], screen_height=size[1], scale=width / size[0])


def save_ground(req: GroundRequest, image: Path, screen: tuple[int, int] | None, datasets: Path) -> Saved:
    """One grounding sample from a screenshot file of a run (already checked to be inside it)."""
    from PIL import Image

    try:
        with Image.open(image) as img:
            width, height = img.size
    except OSError:
        raise DeskactError(f"{req.file}: not an image") from None
    x0, y0, x1, y1 = (float(v) for v in req.box)
    box = [max(0.0, min(x0, x1)), max(0.0, min(y0, y1)), min(float(width), max(x0, x1)), min(float(height), max(y0, y1))]
    if box[2] - box[0] < 2 or box[3] - box[1] < 2:
        raise DeskactError(f"box {req.box} is empty on a {width}x{height} image: drag across the element")
    root = datasets / dataset_name(req.dataset)
    with _LOCK:
        rel = _copy_in(image, root, "images")
        sample = GroundSample(
            id=f"g-{_sample_id(rel, box, req.instruction)}", source=f"deskact view: {req.run}/{req.file}",
            platform=req.platform, app=req.app, image=rel, width=width, height=height,
            instruction=req.instruction.strip(), box=[round(v, 1) for v in box], name=req.name or None,
            role=req.role or None, screen=_screen(screen, width))
        total = _append(root, "ground", [sample], "deskact view (annotation)")
    return Saved(dataset=root.name, path=str(root), kind="ground", ids=[sample.id], samples=total)


def _frame_times(times: list[float]) -> list[tuple[float, float]]:
    """(before, after) times per action: around its time, never crossing a neighbour's."""
    out = []
    for i, t in enumerate(times):
        prev = times[i - 1] if i else 0.0
        nxt = times[i + 1] if i + 1 < len(times) else None
        before = max(prev + (t - prev) / 2 if i else 0.0, t - BEFORE_S)
        after = t + AFTER_S if nxt is None else min(t + AFTER_S, t + (nxt - t) / 2)
        out.append((max(0.0, before), after))
    return out


def extract_frames(video: Path, out: Path, times: list[float]) -> dict[str, float]:
    """``video_frames.py`` in a child process (see there why); returns the video's width, height, duration."""
    script = Path(__file__).with_name("video_frames.py")
    proc = subprocess.run([sys.executable, str(script), str(video), str(out), *map(str, times)],
                          capture_output=True, text=True, timeout=300, check=False)
    if proc.returncode != 0:
        raise DeskactError(f"{video.name}: cannot read its frames: {proc.stderr.strip().splitlines()[-1:]}")
    info: dict[str, float] = json.loads(proc.stdout)
    return info


def save_idm(req: IdmRequest, video: Path, screen: tuple[int, int] | None, datasets: Path) -> list[Saved]:
    """IDM samples (one per marked action, in dataset ``req.dataset``) and the clip of them all
    (in ``req.dataset + '-clip'``); positions are in the video's pixels, as the page marks them."""
    marks = sorted(req.actions, key=lambda a: a.t)
    around = _frame_times([m.t for m in marks])
    root = datasets / dataset_name(req.dataset)
    clip_root = datasets / dataset_name(req.dataset + "-clip")
    with tempfile.TemporaryDirectory(prefix="deskact-idm-") as tmp:
        times = [t for pair in around for t in pair]
        info = extract_frames(video, Path(tmp), times)
        width, height = int(info["width"]), int(info["height"])
        with _LOCK:
            samples: list[SampleT] = []
            for i, (mark, _) in enumerate(zip(marks, around, strict=True)):
                before = _copy_in(Path(tmp) / f"frame_{2 * i}.png", root, "frames")
                after = _copy_in(Path(tmp) / f"frame_{2 * i + 1}.png", root, "frames")
                samples.append(IdmSample(
                    id=f"i-{_sample_id(req.run, req.video, mark.t, mark.action.model_dump())}",
                    source=f"deskact view: {req.run}/{req.video}@{mark.t:.2f}s", platform=req.platform,
                    app=req.app, before=before, after=after, width=width, height=height, action=mark.action,
                    instruction=req.instruction or None, screen=_screen(screen, width)))
            total = _append(root, "idm", samples, "deskact view (video labels)")
            start = max(0.0, marks[0].t - 1.0)
            end = min(info["duration"] or marks[-1].t + AFTER_S, marks[-1].t + AFTER_S) if info["duration"] else None
            clip = IdmClip(
                id=f"c-{_sample_id(req.run, req.video, [m.model_dump() for m in marks])}",
                source=f"deskact view: {req.run}/{req.video}", platform=req.platform, app=req.app,
                video=_copy_in(video, clip_root, "videos"), start=round(start, 3),
                end=round(max(end, start), 3) if end is not None else None, width=width, height=height,
                actions=[TimedAction(t=round(m.t - start, 3), action=m.action) for m in marks],
                instruction=req.instruction or None, screen=_screen(screen, width))
            clips = _append(clip_root, "idm_clip", [clip], "deskact view (video labels)")
    return [Saved(dataset=root.name, path=str(root), kind="idm", ids=[s.id for s in samples], samples=total),
            Saved(dataset=clip_root.name, path=str(clip_root), kind="idm_clip", ids=[clip.id], samples=clips)]
