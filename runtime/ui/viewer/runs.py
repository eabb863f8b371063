"""The viewer's data: run folders found under the given paths, their task lists and task pages.

Everything is read from disk on request, with the report's own loaders
(``read_results``, ``summarize``, ``report.data.load_task``), so a run that is
still writing shows what it has so far. ``signature`` is a cheap fingerprint of a
run folder (sizes and mtimes) that the browser polls: it changes when a result
line is appended or a running task writes a step.
"""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from ...errors import DeskactError
from ...run.epochs import SuiteEpochs, TaskEpochs, has_epochs, suite_epochs, task_epochs
from ...run.manifest import RunManifest, read_manifest
from ...run.results import SummaryRow, TaskResult, read_results, summarize
from ..report.data import TaskView, load_task
from ..watch import WatchEntry, live_watch
from .clicks import find_points, to_image
from .evals import is_eval_run, read_eval_info, read_eval_rows, status_of

_STEP_FILE = re.compile(r"^step_\d{3}(_output_\d+)?\.(json|png|jpg)$")
_IMAGE = re.compile(r"\.(png|jpg|jpeg)$", re.IGNORECASE)
_SCREEN_SIZE = re.compile(r"real screen is (\d+)x(\d+) pixels")
RUNNING_FOR_S = 600.0
"""A trajectory without a result that was written to this recently counts as running (else unfinished)."""


def epoch_of(result: TaskResult) -> int | None:
    """The result's epoch (``run --epochs``), None for results written without one."""
    value = getattr(result, "epoch", None)
    return value if isinstance(value, int) else None




class RunRef(BaseModel):
    id: str
    path: Path


class RunSummary(BaseModel):
    """One line of the run list."""

    id: str
    path: str
    name: str
    tasks: int
    passed: int
    failed: int
    errors: int
    invalid: int
    running: int
    models: list[str]
    updated: float
    """mtime of results.jsonl (seconds since the epoch)."""
    live: bool
    """Some trajectory was written in the last RUNNING_FOR_S seconds without a result yet."""
    attempts: int = 0
    """Attempts the whole run holds (run.json), so a live run counts against all of them; 0 = unknown."""
    kind: str = "tasks"
    """``tasks`` (``deskact run``/``validate``) or ``eval`` (``deskact eval``: samples, pages in evals.py)."""


class TaskRow(BaseModel):
    key: str
    task_id: str
    suite: str
    tags: list[str] = Field(default_factory=list)
    status: str
    """passed/failed/error/invalid, or running/unfinished for a trajectory without a result yet."""
    epoch: int | None = None
    reward: int = 0
    steps: int = 0
    duration_s: float = 0.0
    finish: str = ""
    feedback: str = ""
    model: str = ""


class RunDetail(BaseModel):
    summary: RunSummary
    tasks: list[TaskRow]
    by_suite: list[SummaryRow]
    by_tag: list[SummaryRow]
    suite_epochs: list[SuiteEpochs] = Field(default_factory=list)
    """pass@k and spread per suite, for a run that repeated tasks (``--epochs``); else empty."""
    task_epochs: list[TaskEpochs] = Field(default_factory=list)
    watch: list[WatchEntry] = Field(default_factory=list)
    """Browser views of the workers' screens while a ``run --watch`` goes."""
    manifest: RunManifest | None = None
    """run.json: command, model and settings, deskact version, host, times (None for older run folders)."""
    signature: str


class StepOut(BaseModel):
    """A step as the task page draws it: the record, the screen the model saw, its click points."""

    index: int
    record: dict[str, Any]
    before: str | None = None
    """Trajectory file of the screen the model looked at when it wrote this step."""
    after: str | None = None
    output_images: list[str] = Field(default_factory=list)
    points: list[dict[str, Any]] = Field(default_factory=list)
    """Pointer actions of the step's code, in the pixels of ``before`` (or ``after`` when no before)."""


class TaskPage(BaseModel):
    run_id: str
    key: str
    result: dict[str, Any] | None
    status: str
    epoch: int | None = None
    instruction: str = ""
    system_prompt: str = ""
    answer: str = ""
    plan: list[str] = Field(default_factory=list)
    first_observation: str | None = None
    steps: list[StepOut] = Field(default_factory=list)
    trajectory: str | None = None
    """Trajectory folder relative to the run folder (files are served under /files/RUN/)."""
    video: str | None = None
    """The episode video (``deskact run --record``: episode.mp4), relative to the trajectory folder."""
    signature: str


def find_runs(roots: list[Path]) -> list[RunRef]:
    """Run folders (those holding results.jsonl) among ``roots`` and their children and grandchildren."""
    found: list[Path] = []
    for root in roots:
        if not root.is_dir():
            raise DeskactError(f"{root}: no such folder (give run folders or folders that hold them)")
        if (root / "results.jsonl").is_file():
            found.append(root)
            continue
        found += sorted(p.parent for p in root.glob("*/results.jsonl"))
        found += sorted(p.parent for p in root.glob("*/*/results.jsonl"))
    refs: list[RunRef] = []
    seen: set[str] = set()
    for path in dict.fromkeys(p.resolve() for p in found):
        name, n = path.name, 2
        while name in seen:  # same folder name under two roots
            name, n = f"{path.name}-{n}", n + 1
        seen.add(name)
        refs.append(RunRef(id=name, path=path))
    return refs


def signature(run_dir: Path) -> str:
    """Changes whenever results.jsonl grows, any trajectory folder gains a file, or a watched display stops."""
    parts = []
    for path in [run_dir / "results.jsonl", run_dir / "trajectories", run_dir / "run.json"]:
        try:
            st = path.stat()
            parts.append(f"{st.st_size}:{st.st_mtime_ns}")
        except OSError:
            parts.append("-")
    if (run_dir / "watch.json").exists():  # the screens' links go when the run's displays stop
        parts.append(",".join(str(e.worker) for e in live_watch(run_dir)))
    traj = run_dir / "trajectories"
    if traj.is_dir():
        for folder in sorted(traj.iterdir()):
            try:
                parts.append(f"{folder.name}:{folder.stat().st_mtime_ns}")
            except OSError:
                continue
    return str(hash("|".join(parts)) & 0xFFFFFFFFFFFF)


def latest(results: list[TaskResult]) -> dict[str, TaskResult]:
    """The last result per task and epoch (a resumed run may have retried errors), by viewer key:
    the task id, plus ``@epoch`` for a task the run repeated (``--epochs``)."""
    last = {(r.task_id, epoch_of(r)): r for r in results}
    repeated = {tid for tid, epoch in last if epoch not in (None, 1)}
    return {(f"{tid}@{epoch}" if tid in repeated else tid): r for (tid, epoch), r in last.items()}


def _unfinished(run_dir: Path, done: dict[str, TaskResult]) -> list[TaskRow]:
    """Trajectory folders no result points to yet: tasks running now (or cut off by a kill)."""
    traj = run_dir / "trajectories"
    if not traj.is_dir():
        return []
    claimed = {Path(r.trajectory).name for r in done.values() if r.trajectory}
    now, rows = time.time(), []
    for folder in sorted(traj.iterdir()):
        if not folder.is_dir() or folder.name in claimed:
            continue
        steps = len(list(folder.glob("step_[0-9][0-9][0-9].json")))
        recent = now - folder.stat().st_mtime < RUNNING_FOR_S
        rows.append(TaskRow(key=f"~{folder.name}", task_id=folder.name, suite="", steps=steps,
                            status="running" if recent else "unfinished"))
    return rows


def _row(key: str, result: TaskResult) -> TaskRow:
    return TaskRow(key=key, task_id=result.task_id, suite=result.suite, tags=result.tags, status=result.status,
                   epoch=epoch_of(result) if "@" in key else None, reward=result.reward, steps=result.steps,
                   duration_s=result.duration_s, finish=result.finish_reason or result.status,
                   feedback=result.error or result.feedback, model=result.model)


# Pages poll: answers are kept per (what, run, signature, minute), so an unchanged run is not parsed
# again each second. The minute is there because "running" turns into "unfinished" with time alone.
_CACHE: dict[tuple[str, str, str, int], Any] = {}
_CACHE_SIZE = 64
_CACHE_LOCK = threading.Lock()  # the server answers each request in its own thread


def _cached(kind: str, ref: RunRef, sig: str, make: Any) -> Any:
    key = (kind, str(ref.path), sig, int(time.time() // 60))
    with _CACHE_LOCK:
        if key in _CACHE:
            return _CACHE[key]
    value = make()
    with _CACHE_LOCK:
        while len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = value
    return value


def run_detail(ref: RunRef) -> RunDetail:
    sig = signature(ref.path)
    return _cached("detail", ref, sig, lambda: _run_detail(ref, sig))


def _run_detail(ref: RunRef, sig: str) -> RunDetail:
    done = latest(read_results(ref.path / "results.jsonl"))
    results = list(done.values())
    rows = sorted((_row(k, r) for k, r in done.items()), key=lambda t: (t.suite, t.task_id, t.epoch or 0))
    running = _unfinished(ref.path, done)
    per_task = task_epochs(results) if has_epochs(results) else []
    return RunDetail(summary=_summary(ref, results, running), tasks=running + rows,
                     by_suite=summarize(results, "suite"), by_tag=summarize(results, "tag"),
                     suite_epochs=suite_epochs(per_task, results) if per_task else [], task_epochs=per_task,
                     watch=live_watch(ref.path), manifest=read_manifest(ref.path), signature=sig)


def _summary(ref: RunRef, results: list[TaskResult], running: list[TaskRow]) -> RunSummary:
    path = ref.path / "results.jsonl"
    count = {s: sum(r.status == s for r in results) for s in ("passed", "failed", "error", "invalid")}
    manifest = read_manifest(ref.path)
    return RunSummary(
        id=ref.id, path=str(ref.path), name=ref.path.name, tasks=len(results), passed=count["passed"],
        failed=count["failed"], errors=count["error"], invalid=count["invalid"],
        running=sum(t.status == "running" for t in running), models=sorted({r.model for r in results if r.model}),
        updated=path.stat().st_mtime if path.exists() else 0.0, live=any(t.status == "running" for t in running),
        attempts=manifest.attempts if manifest else 0,
    )


def run_summary(ref: RunRef) -> RunSummary:
    def make() -> RunSummary:
        if is_eval_run(ref.path):
            return _eval_summary(ref)
        done = latest(read_results(ref.path / "results.jsonl"))
        return _summary(ref, list(done.values()), _unfinished(ref.path, done))

    return _cached("summary", ref, signature(ref.path), make)


def _eval_summary(ref: RunRef) -> RunSummary:
    """An eval folder in the run list: its samples as tasks (right = passed, wrong = failed)."""
    info = read_eval_info(ref.path)
    rows = list(read_eval_rows(ref.path).values())
    count = {s: sum(status_of(r) == s for r in rows) for s in ("right", "wrong", "error")}
    results = ref.path / "results.jsonl"
    updated = results.stat().st_mtime if results.exists() else 0.0
    live = not (ref.path / "summary.json").exists() and time.time() - updated < RUNNING_FOR_S
    total = sum(int(d.get("samples") or 0) for d in (info.get("datasets") or {}).values() if isinstance(d, dict))
    return RunSummary(id=ref.id, path=str(ref.path), name=ref.path.name, tasks=len(rows), passed=count["right"],
                      failed=count["wrong"], errors=count["error"], invalid=0, running=0,
                      models=[str(info["model"])] if info.get("model") else [], updated=updated, live=live,
                      attempts=total, kind="eval")


def task_page(ref: RunRef, key: str) -> TaskPage:
    """One task's page; ``~FOLDER`` names a trajectory that has no result yet."""
    sig = signature(ref.path)
    if key.startswith("~"):
        folder = ref.path / "trajectories" / key[1:]
        if not folder.is_dir() or folder.parent != ref.path / "trajectories":
            raise DeskactError(f"{ref.id}: no trajectory {key[1:]!r}")
        # The report's loader wants a result; this stand-in only names the folder to read.
        stand_in = TaskResult(task_id=key[1:], suite="", status="error", trajectory=f"trajectories/{key[1:]}")
        view, result = load_task(ref.path, stand_in), None
        status = "running" if time.time() - folder.stat().st_mtime < RUNNING_FOR_S else "unfinished"
    else:
        result = latest(read_results(ref.path / "results.jsonl")).get(key)
        if result is None:
            raise DeskactError(f"{ref.id}: no task {key!r}")
        view, status = load_task(ref.path, result), result.status
    page = _page(ref, key, view, result, status, sig)
    page.epoch = page.epoch if "@" in key else None  # shown only when the run repeated the task
    return page


def _page(ref: RunRef, key: str, view: TaskView, result: TaskResult | None, status: str, sig: str) -> TaskPage:
    folder = view.trajectory_dir
    first = _first_observation(folder) if folder else None
    screen = _screen_size(view.system_prompt)
    steps, before = [], first
    for s in view.steps:
        rec = s.record
        shown = before or rec.screenshot_file
        points = to_image(find_points(rec.code), _image_size(folder / shown) if folder and shown else None, screen)
        steps.append(StepOut(index=rec.index, record=rec.model_dump(mode="json", exclude={"result": {"images"}}),
                             before=before, after=rec.screenshot_file, output_images=s.output_images,
                             points=[p.model_dump() for p in points]))
        before = rec.screenshot_file or before
    return TaskPage(
        run_id=ref.id, key=key, result=result.model_dump(mode="json") if result else None, status=status,
        epoch=epoch_of(result) if result else None, instruction=view.instruction, system_prompt=view.system_prompt,
        answer=view.answer, plan=view.plan, first_observation=first, steps=steps,
        trajectory=folder.relative_to(ref.path).as_posix() if folder else None, video=view.video, signature=sig,
    )


def _first_observation(folder: Path) -> str | None:
    """The screenshot taken before step 1, whatever its name: the one image no step file claims."""
    images = sorted(p.name for p in folder.iterdir() if _IMAGE.search(p.name) and not _STEP_FILE.match(p.name))
    return images[0] if images else None


def _screen_size(system_prompt: str) -> tuple[int, int] | None:
    m = _SCREEN_SIZE.search(system_prompt)
    return (int(m.group(1)), int(m.group(2))) if m else None


def _image_size(path: Path) -> tuple[int, int] | None:
    try:
        from PIL import Image

        with Image.open(path) as img:
            return img.size
    except (OSError, ValueError):
        return None
