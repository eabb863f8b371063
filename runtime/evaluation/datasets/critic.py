"""``deskact datasets critic``: success-detection samples from ``run`` and ``validate`` outputs.

Each trajectory of a run folder (``results.jsonl`` + ``trajectories/``; a ``validate --out``
folder holds one per pass) becomes a :class:`CriticSample`: the instruction, every step's code,
output and the screen before it, the final screen, and whether the task succeeded.

Labels are the judges' verdicts (the result's status: passed or failed; errors are left out).
Where the trajectory comes from says what the verdict should be: the reference succeeds; noop,
explore, a counterexample and a truncated reference (``truncate.py``) fail. A trajectory whose
verdict disagrees with its source is dropped and counted (a truncated reference that still
passes was cut after its last effective step). Trajectories of other models keep their verdict.

The classes are balanced by default: as many failures as successes (or the reverse), drawn
with a fixed seed, failures taken in turn from each source (noop, explore, counterexample,
truncated, others) so no one kind fills the class.
"""

from __future__ import annotations

import json
import os
import random
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from ..samples import CriticSample, TrajectoryStep, write_dataset

OUTPUT_MAX_CHARS = 2000
"""A step's printed output is kept up to this many characters (its end: where errors show)."""


def source_label(model: str) -> bool | None:
    """What a trajectory of ``model`` should be: True (reference), False (noop, explore,
    counterexample/N, truncated), None (any other model: its verdict alone)."""
    if model == "reference":
        return True
    if model in ("noop", "explore", "truncated") or model.startswith("counterexample/"):
        return False
    return None


def source_kind(model: str) -> str:
    return "counterexample" if model.startswith("counterexample/") else model


class CriticCounts(BaseModel):
    """What ``make_critic`` read, dropped and kept (``OUT/critic_counts.json``)."""

    runs: int = 0
    trajectories: int = 0
    by_source: dict[str, int] = Field(default_factory=dict)
    """Trajectories read per source (reference, noop, explore, counterexample, truncated, others)."""
    errors: int = 0
    """Results that are errors (or invalid tasks): no verdict to label with."""
    no_instruction: int = 0
    """Trajectories without an episode.json (the episode never started)."""
    disagreed: dict[str, int] = Field(default_factory=dict)
    """Dropped: the verdict disagrees with the source, per source."""
    successes: int = 0
    failures: int = 0
    """Labelled trajectories before balancing."""
    kept_successes: int = 0
    kept_failures: int = 0
    kept_by_source: dict[str, int] = Field(default_factory=dict)


def run_folders(paths: list[Path]) -> list[tuple[str, Path]]:
    """Run folders (holding results.jsonl) at or under ``paths``, each with a name made of its
    path under the one given (``validate-os/noop``) or its own name."""
    found: list[tuple[str, Path]] = []
    for path in paths:
        root = Path(path)
        for run in sorted({p.parent for p in root.rglob("results.jsonl")}):
            parts = run.relative_to(root).parts
            found.append(("-".join((root.name, *parts)) if parts else root.name, run))
    return found


def _output(result: dict[str, Any] | None) -> str | None:
    if not result:
        return None
    text = "".join(str(result.get(k) or "") for k in ("stdout", "stderr"))
    if result.get("error"):
        text += f"\n{result['error']}"
    text = text.strip()
    return text[-OUTPUT_MAX_CHARS:] if text else None


class _Files:
    """Screenshots linked (or copied) into the dataset, once each."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def add(self, src: Path, rel: str) -> str | None:
        if not src.is_file():
            return None
        dest = self.root / rel
        if not dest.exists():
            dest.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(src, dest)
            except OSError:  # another file system: a copy
                shutil.copyfile(src, dest)
        return rel


def trajectory_sample(folder: Path, sample_id: str, success: bool, row: dict[str, Any], run: str,
                      files: _Files) -> CriticSample | None:
    """One trajectory folder as a critic sample (None without an episode.json)."""
    episode_file = folder / "episode.json"
    if not episode_file.is_file():
        return None
    episode = json.loads(episode_file.read_text(encoding="utf-8"))
    instruction = episode.get("instruction") or ""
    if not instruction.strip():
        return None
    shown = episode.get("first_screenshot_file")
    steps = []
    for step in episode.get("steps") or []:
        shot = files.add(folder / shown, f"images/{sample_id}/{shown}") if shown else None
        steps.append(TrajectoryStep(screenshot=shot, code=step.get("code") or None, output=_output(step.get("result"))))
        shown = step.get("screenshot_file") or shown
    final = files.add(folder / shown, f"images/{sample_id}/{shown}") if shown else None
    return CriticSample(id=sample_id, source="deskact", app=row.get("suite") or "", instruction=instruction,
                        steps=steps, final_screenshot=final, success=success, run=run, task=row.get("task_id"),
                        model=row.get("model"), feedback=row.get("feedback") or None)


def _balance(samples: list[CriticSample], seed: int) -> list[CriticSample]:
    rng = random.Random(seed)
    wins = [s for s in samples if s.success]
    losses = [s for s in samples if not s.success]
    n = min(len(wins), len(losses))
    rng.shuffle(wins)
    by_kind: dict[str, list[CriticSample]] = defaultdict(list)
    for s in losses:
        by_kind[source_kind(s.model or "")].append(s)
    for group in by_kind.values():
        rng.shuffle(group)
    taken: list[CriticSample] = []
    kinds = sorted(by_kind)
    while len(taken) < n:  # one of each source in turn: no one kind fills the class
        for kind in kinds:
            if by_kind[kind] and len(taken) < n:
                taken.append(by_kind[kind].pop())
    return sorted(wins[:n] + taken, key=lambda s: s.id)


def make_critic(paths: list[Path], out: Path, balance: bool = True, seed: int = 0,
                name: str = "deskact-critic") -> CriticCounts:
    """Read every run folder under ``paths``, label, drop disagreements, balance, write ``out``."""
    counts = CriticCounts()
    files = _Files(out)
    samples: list[CriticSample] = []
    used: set[str] = set()
    for run_name, run in run_folders(paths):
        counts.runs += 1
        for line in (run / "results.jsonl").read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            model = str(row.get("model") or "")
            kind = source_kind(model)
            counts.trajectories += 1
            counts.by_source[kind] = counts.by_source.get(kind, 0) + 1
            if row.get("status") not in ("passed", "failed") or not row.get("trajectory"):
                counts.errors += 1
                continue
            verdict = row["status"] == "passed"
            expected = source_label(model)
            if expected is not None and expected != verdict:
                counts.disagreed[kind] = counts.disagreed.get(kind, 0) + 1
                continue
            base = f"{run_name}-{row['task_id']}".replace("/", "_")
            sample_id, k = base, 1
            while sample_id in used:
                k += 1
                sample_id = f"{base}-{k}"
            sample = trajectory_sample(run / row["trajectory"], sample_id, verdict, row, str(run), files)
            if sample is None:
                counts.no_instruction += 1
                continue
            used.add(sample_id)
            samples.append(sample)
    counts.successes = sum(s.success for s in samples)
    counts.failures = len(samples) - counts.successes
    kept = _balance(samples, seed) if balance else samples
    counts.kept_successes = sum(s.success for s in kept)
    counts.kept_failures = len(kept) - counts.kept_successes
    for s in kept:
        kind = source_kind(s.model or "")
        counts.kept_by_source[kind] = counts.kept_by_source.get(kind, 0) + 1
    _prune(out, kept)
    write_dataset(out, kept, kind="critic", name=name, source="deskact datasets critic",
                  description="Trajectories labelled by the judges' verdicts: references succeed; noop, explore, "
                              "counterexamples and truncated references fail (disagreements dropped)")
    (out / "critic_counts.json").write_text(counts.model_dump_json(indent=1), encoding="utf-8")
    return counts


def _prune(out: Path, kept: list[CriticSample]) -> None:
    """Remove the screenshots of trajectories balancing left out."""
    keep = {s.id for s in kept}
    images = out / "images"
    if images.is_dir():
        for folder in images.iterdir():
            if folder.name not in keep:
                shutil.rmtree(folder)
