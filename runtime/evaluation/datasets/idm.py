"""``deskact datasets idm``: action-labelling samples cut from recorded episodes.

An episode recorded with ``deskact run --record`` has its video (``episode.mp4``, frames stamped
on ``CLOCK_MONOTONIC`` when their grab began, ``started_monotonic`` in ``episode.mp4.json``) and
its input log (``input.jsonl``, events on the same clock). The log's events are grouped into
actions (``runtime/run/input_actions.py``); the video gives the screen around each one:

- IDM-Single (``idm``): an action with a frame grabbed after the previous action ended and
  before it began (``before``: the last such frame), and one grabbed after it ended and before
  the next began (``after``: the last such frame, the most settled, at most ``AFTER_MAX_S``
  after it). Exactly one action happened between the two frames, so the pair shows that action
  and nothing else. An action that changed nothing on screen (a click on a focused window) leaves
  no frame after it; the frame before it then serves the next action when no frame came for
  ``QUIET_S`` after it (the recorder grabs within 1/fps of any drawing). Dropped, and counted by reason: no frame between it and its neighbours
  (actions a few milliseconds apart, as code sends them), no visible change between the frames,
  and actions the datasets' vocabulary cannot say (triple and middle clicks, ctrl+click).
- IDM-Multiple (``idm_clip``): runs of ``2..CLIP_MAX_ACTIONS`` consecutive actions with a frame
  before the first and after the last (the same rules at the ends, none needed inside), written
  as the frames in between (at most ``CLIP_MAX_FRAMES``) with their times and each action's time
  from the clip's first frame.

Coordinates are the frames' pixels: screen pixels times the video's scale (``screen``).
The two sets go to ``OUT/idm`` and ``OUT/idm_clip``, each a dataset folder (``samples.py``).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
from pydantic import BaseModel, Field

from ...run.input_actions import InputAction, group_actions
from ...run.input_log import LOG_FILE, read_log
from ...run.video import VIDEO_FILE, VideoStats
from ..samples import Action, IdmClip, IdmSample, ScreenScale, TimedAction, write_dataset

AFTER_MAX_S = 5.0
"""The after frame is taken at most this long after the action ends (later changes are the app's own)."""
QUIET_S = 1.0
"""An action followed by this long with no new frame changed nothing on screen (see ``_before``)."""
CLIP_MAX_ACTIONS = 5
CLIP_MAX_FRAMES = 16
CHANGE_LEVEL = 40
"""A pixel changed when one of its channels moved by more than this (0-255): H.264's noise on an
unchanged screen stays below it (the recorder encodes no repeat of an unchanged screen anyway)."""
CHANGE_PIXELS = 3
"""Fewer changed pixels than this between the frames: no visible change (one typed character at
half scale is some 20)."""


class IdmCounts(BaseModel):
    """What ``make_idm`` found and kept (written as ``OUT/idm_counts.json``)."""

    episodes: int = 0
    """Recorded episodes read (video, its stats and an input log)."""
    episodes_without_log: int = 0
    """Episode videos with no input log (recorded before logs existed): skipped."""
    episodes_with_samples: int = 0
    episodes_with_clips: int = 0
    actions: int = 0
    samples: int = 0
    clips: int = 0
    clip_actions: int = 0
    dropped: dict[str, int] = Field(default_factory=dict)
    """IDM-Single candidates dropped, by reason."""
    apps: dict[str, int] = Field(default_factory=dict)


class _Frames:
    """An episode video's frames: times on the monotonic clock, pixels decoded on demand."""

    def __init__(self, path: Path, started: float) -> None:
        import av

        self.path = path
        with av.open(str(path)) as container:
            stream = container.streams.video[0]
            base = float(stream.time_base or 0)
            pts = sorted(p.pts for p in container.demux(stream) if p.pts is not None)
        self.pts = pts
        self.times = [started + p * base for p in pts]
        self._pixels: dict[int, np.ndarray] = {}

    def last_between(self, after: float, before: float) -> int | None:
        """The index of the last frame grabbed in (after, before), or None."""
        found = None
        for index, t in enumerate(self.times):
            if t >= before:
                break
            if t > after:
                found = index
        return found

    def load(self, wanted: set[int]) -> None:
        """Decode the video once, keeping the frames ``wanted`` (RGB)."""
        import av

        by_pts = {self.pts[i]: i for i in wanted if i not in self._pixels}
        if not by_pts:
            return
        with av.open(str(self.path)) as container:
            for frame in container.decode(video=0):
                index = by_pts.get(frame.pts) if frame.pts is not None else None
                if index is not None:
                    self._pixels[index] = frame.to_ndarray(format="rgb24")

    def pixels(self, index: int) -> np.ndarray:
        return self._pixels[index]

    def changed(self, a: int, b: int) -> bool:
        moved = np.abs(self.pixels(a).astype(np.int16) - self.pixels(b)).max(axis=2) > CHANGE_LEVEL
        return int(moved.sum()) >= CHANGE_PIXELS


def episodes(run_dirs: list[Path]) -> list[Path]:
    """Trajectory folders under ``run_dirs`` that hold an episode video."""
    found: list[Path] = []
    for root in run_dirs:
        found += sorted(p.parent for p in Path(root).rglob(VIDEO_FILE) if (p.parent / f"{VIDEO_FILE}.json").is_file())
    return found


def _episode_info(folder: Path) -> tuple[str, str | None]:
    """(app, instruction) of a trajectory folder: the suite from its run's results, the task's instruction."""
    instruction = None
    episode = folder / "episode.json"
    if episode.is_file():
        instruction = json.loads(episode.read_text(encoding="utf-8")).get("instruction") or None
    results = folder.parent.parent / "results.jsonl"
    app = ""
    if results.is_file():
        rel = str(folder.relative_to(folder.parent.parent))
        for line in results.read_text(encoding="utf-8").splitlines():
            row = json.loads(line) if line.strip() else {}
            if row.get("trajectory") == rel:
                app = row.get("suite") or ""
    return app, instruction


def _single(action: InputAction, scale: float) -> Action | None:
    actions = action.sample_actions(scale)
    return actions[0] if len(actions) == 1 else None


class _Writer:
    """Frames of the episodes written once into a dataset folder, named by episode and index."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.written: set[str] = set()

    def frame(self, frames: _Frames, name: str, index: int) -> str:
        from PIL import Image

        rel = f"frames/{name}/{index:04d}.png"
        if rel not in self.written:
            path = self.root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            Image.fromarray(frames.pixels(index)).save(path, optimize=False, compress_level=6)
            self.written.add(rel)
        return rel


def _before(actions: list[InputAction], i: int, frames: _Frames) -> int | None:
    """The frame before action i: the last one grabbed before it began, provided every action
    between that frame and this one left the screen still for ``QUIET_S`` after it (no frame came:
    the recorder grabs within 1/fps of any drawing), so the frame shows the screen as it began."""
    found = frames.last_between(float("-inf"), actions[i].t_start)
    if found is None:
        return None
    grabbed, next_start = frames.times[found], actions[i].t_start
    for k in range(i - 1, -1, -1):
        if actions[k].t_end <= grabbed:
            break
        if actions[k].t_start <= grabbed or next_start - actions[k].t_end < QUIET_S:
            return None  # the frame is mid-action, or an action's effect may not have shown yet
        next_start = actions[k].t_start
    return found


def _after(actions: list[InputAction], j: int, frames: _Frames, end: float) -> int | None:
    """The frame after action j: the last one grabbed after it ended, before the next began."""
    next_start = actions[j + 1].t_start if j + 1 < len(actions) else end
    return frames.last_between(actions[j].t_end, min(next_start, actions[j].t_end + AFTER_MAX_S))


def cut_episode(folder: Path, name: str, singles: _Writer, clips: _Writer, counts: IdmCounts) -> tuple[
        list[IdmSample], list[IdmClip]]:
    """The IDM samples and clips of one recorded episode."""
    stats = VideoStats.model_validate_json((folder / f"{VIDEO_FILE}.json").read_text(encoding="utf-8"))
    log = read_log(folder / LOG_FILE)
    if stats.started_monotonic is None:
        raise ValueError(f"{folder}: the video's stats have no started_monotonic (recorded before input logs)")
    frames = _Frames(folder / VIDEO_FILE, stats.started_monotonic)
    actions = group_actions(log.events)
    counts.actions += len(actions)
    scale = stats.width / log.start.width
    screen = ScreenScale(screen_width=log.start.width, screen_height=log.start.height, scale=scale)
    app, instruction = _episode_info(folder)
    end = log.stop.t if log.stop is not None else frames.times[-1] + 1 if frames.times else 0.0
    dropped: Counter[str] = Counter()
    plans: list[tuple[int, int, int, Action]] = []  # (action, before frame, after frame, label)
    for i, action in enumerate(actions):
        label = _single(action, scale)
        before, after = _before(actions, i, frames), _after(actions, i, frames, end)
        if label is None:
            dropped["not in the action vocabulary" if not action.sample_actions(scale) else "a repeated key"] += 1
        elif before is None:
            dropped["no frame between it and the action before"] += 1
        elif after is None:
            dropped["no frame between it and the action after"] += 1
        else:
            plans.append((i, before, after, label))
    clip_plans = _clip_plans(actions, frames, end, scale)
    frames.load({f for _, b, a, _ in plans for f in (b, a)} | {f for _, idx, _ in clip_plans for f in idx})
    samples = []
    for i, before, after, label in plans:
        if not frames.changed(before, after):
            dropped["no visible change"] += 1
            continue
        height, width = frames.pixels(before).shape[:2]
        samples.append(IdmSample(id=f"{name}-{i:03d}", source="deskact", app=app, before=singles.frame(frames, name, before),
                                 after=singles.frame(frames, name, after), width=width, height=height,
                                 action=label, instruction=instruction, screen=screen))
    made = []
    for i, indices, timed in clip_plans:
        height, width = frames.pixels(indices[0]).shape[:2]
        t0 = frames.times[indices[0]]
        made.append(IdmClip(id=f"{name}-clip{i:03d}", source="deskact", app=app,
                            frames=[clips.frame(frames, name, f) for f in indices],
                            frame_times=[round(frames.times[f] - t0, 3) for f in indices], width=width, height=height,
                            actions=timed, instruction=instruction, screen=screen))
    for reason, n in dropped.items():
        counts.dropped[reason] = counts.dropped.get(reason, 0) + n
    return samples, made


def _clip_plans(actions: list[InputAction], frames: _Frames, end: float,
                scale: float) -> list[tuple[int, list[int], list[TimedAction]]]:
    """Runs of consecutive actions, each with a frame before its first and after its last action."""
    plans = []
    i = 0
    while i < len(actions):
        first = _before(actions, i, frames)
        best: tuple[int, int] | None = None
        j = i
        while first is not None and j < len(actions) and j - i < CLIP_MAX_ACTIONS and actions[j].sample_actions(scale):
            last = _after(actions, j, frames, end)
            if last is not None and j > i:
                best = (j, last)
            j += 1
        if first is None or best is None:
            i += 1
            continue
        j, last = best
        indices = list(range(first, last + 1))
        if len(indices) > CLIP_MAX_FRAMES:  # evenly spaced, first and last kept
            step = (len(indices) - 1) / (CLIP_MAX_FRAMES - 1)
            indices = sorted({indices[round(k * step)] for k in range(CLIP_MAX_FRAMES)})
        t0 = frames.times[first]
        timed = [TimedAction(t=round(max(0.0, a.t_start - t0), 3), action=s)
                 for a in actions[i:j + 1] for s in a.sample_actions(scale)]
        plans.append((i, indices, timed))
        i = j + 1
    return plans


def make_idm(run_dirs: list[Path], out: Path, name: str = "deskact-idm") -> IdmCounts:
    """Cut IDM-Single samples into ``out/idm`` and IDM-Multiple clips into ``out/idm_clip``."""
    counts = IdmCounts()
    singles, clips = _Writer(out / "idm"), _Writer(out / "idm_clip")
    all_samples: list[IdmSample] = []
    all_clips: list[IdmClip] = []
    names: Counter[str] = Counter()
    for folder in episodes(run_dirs):
        if not (folder / LOG_FILE).is_file():
            counts.episodes_without_log += 1
            continue
        counts.episodes += 1
        base = f"{folder.parent.parent.name}-{folder.name}"
        names[base] += 1
        episode_name = base if names[base] == 1 else f"{base}-{names[base]}"
        samples, made = cut_episode(folder, episode_name, singles, clips, counts)
        all_samples += samples
        all_clips += made
        counts.episodes_with_samples += bool(samples)
        counts.episodes_with_clips += bool(made)
        for sample in samples:
            counts.apps[sample.app] = counts.apps.get(sample.app, 0) + 1
    counts.samples, counts.clips = len(all_samples), len(all_clips)
    counts.clip_actions = sum(len(c.actions) for c in all_clips)
    description = "IDM-Single: the frame before and after one action, cut from episodes recorded with their input log"
    write_dataset(out / "idm", all_samples, kind="idm", name=name, source="deskact datasets idm",
                  description=description)
    write_dataset(out / "idm_clip", all_clips, kind="idm_clip", name=f"{name}-clips", source="deskact datasets idm",
                  description="IDM-Multiple: clips of consecutive actions with every action's time")
    (out / "idm_counts.json").write_text(counts.model_dump_json(indent=1), encoding="utf-8")
    return counts
