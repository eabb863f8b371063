"""The task creator behind the viewer's Create page: draft, demonstrate, suggest judges, validate, save.

A draft is a task without judges: the reset steps to start from (the page builds their forms from
each step's params schema, :func:`step_catalog`), the instruction, and the demonstration, for now
the ``reference:`` code a person types. :meth:`Creator.demonstrate` resets a world for the draft,
snapshots it, runs the reference as the ``reference`` model would, snapshots again and returns
the judges suggested by the change (``suggestions.py``). :meth:`Creator.validate` runs
``deskact validate`` (reference must pass, noop and explore must fail) on the task with the
judges picked, in a scratch copy of its suite, and writes ``SUITE/<id>.yaml`` only when nothing
is wrong; otherwise nothing is written and the problems are the answer (a judge that noop also
passes: "passes without the agent doing anything"). One job runs at a time (worlds are heavy);
the page polls it.
"""

from __future__ import annotations

import secrets
import shutil
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, Field

from ...config import Config
from ...errors import DeskactError
from ...tasks import steps
from ...tasks.task import SUITES_DIR, load_tasks, parse_task
from .suggestions import Suggestion, WorldState, snapshot, suggest

StepList = list[dict[str, dict[str, Any]]]
PLACEHOLDER_JUDGE = {"answer.contains": {"text": "unused"}}
"""A draft has no judges yet, but a task must have one to load; the demonstration never judges."""


class Draft(BaseModel):
    """The task as the page holds it."""

    suite: str
    id: str
    instruction: str
    visual: bool = False
    toolkits: list[str] = Field(default_factory=list)
    tags: list[str] = Field(default_factory=list)
    max_steps: int | None = None
    reset: StepList = Field(default_factory=list)
    before_judge: StepList = Field(default_factory=list)
    cleanup: StepList = Field(default_factory=list)
    reference: str = ""
    judge: StepList = Field(default_factory=list)

    def raw(self, judges: bool = True) -> dict[str, Any]:
        """The task's YAML mapping (fields left empty are left out)."""
        raw: dict[str, Any] = {"id": self.id, "instruction": self.instruction}
        for key in ("visual", "toolkits", "tags", "max_steps", "reset", "before_judge"):
            value = getattr(self, key)
            if value:
                raw[key] = value
        raw["judge"] = self.judge if judges else [PLACEHOLDER_JUDGE]
        if self.cleanup:
            raw["cleanup"] = self.cleanup
        if self.reference.strip():
            raw["reference"] = self.reference.rstrip() + "\n"
        return raw


class StepDoc(BaseModel):
    name: str
    kind: str
    doc: str
    schema_: dict[str, Any] = Field(alias="schema")
    one_of: list[str] = Field(default_factory=list)

    model_config = {"populate_by_name": True}


class Job(BaseModel):
    id: str
    kind: Literal["record", "demonstrate", "validate"]
    state: Literal["running", "done", "failed"] = "running"
    log: list[str] = Field(default_factory=list)
    error: str = ""
    started: float = Field(default_factory=time.time)
    result: dict[str, Any] | None = None


class Demonstration(BaseModel):
    suggestions: list[Suggestion]
    before: WorldState
    after: WorldState
    outputs: list[str]
    """Each step's output as the agent would see it (what the reference printed, its errors)."""
    screens: list[str] = Field(default_factory=list)
    """Screenshots (before, after) served under /api/creator/files/JOB/."""


class Verdict(BaseModel):
    saved: bool
    path: str = ""
    problems: list[dict[str, Any]] = Field(default_factory=list)
    yaml: str = ""


def step_catalog() -> list[StepDoc]:
    """Every reset step and judge with the JSON Schema of its params (the page makes forms from them)."""
    steps.load_plugins()
    out = []
    for kind in ("reset", "judge"):
        for name, spec in sorted(steps.REGISTRY[kind].items()):
            schema = spec.params.model_json_schema()
            schema.pop("title", None)
            out.append(StepDoc(name=name, kind=kind, doc=spec.doc, schema_=schema, one_of=list(spec.one_of or [])))
    return out


class _Literal(str):
    """A multi-line string written as a YAML block (``|``): references stay readable code."""


def _block(dumper: yaml.SafeDumper, value: _Literal) -> yaml.ScalarNode:
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(_Literal, _block)


def _blocks(value: Any) -> Any:
    if isinstance(value, str) and "\n" in value:  # PyYAML falls back to quotes where a block cannot hold it
        return _Literal(value)
    if isinstance(value, list):
        return [_blocks(v) for v in value]
    if isinstance(value, dict):
        return {k: _blocks(v) for k, v in value.items()}
    return value


def task_yaml(draft: Draft) -> str:
    return yaml.dump(_blocks(draft.raw()), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=110)


class Creator:
    """Jobs of the Create page, over the suites under ``suites_dir``; scratch files under ``work``."""

    def __init__(self, config: Config, suites_dir: Path = SUITES_DIR, work: Path | None = None) -> None:
        self.config = config
        self.suites_dir = Path(suites_dir)
        self.work = Path(work or tempfile.mkdtemp(prefix="deskact-creator-"))
        self.jobs: dict[str, Job] = {}
        self._busy = threading.Lock()

    # -- what the page reads ----------------------------------------------------------------

    def suites(self) -> list[str]:
        return sorted(p.name for p in self.suites_dir.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))

    def suite_dir(self, name: str) -> Path:
        if not name or "/" in name or name.startswith(".") or not name.isprintable():
            raise DeskactError(f"suite {name!r}: one folder name under {self.suites_dir}")
        return self.suites_dir / name

    def fixtures(self, suite: str) -> list[str]:
        """Files of the suite's ``files/`` (what ``files.copy`` and ``apps.open`` start from)."""
        files = self.suite_dir(suite) / "files"
        if not files.is_dir():
            return []
        return sorted(p.relative_to(files).as_posix() for p in files.rglob("*") if p.is_file())[:2000]

    def job(self, job_id: str) -> Job:
        if job_id not in self.jobs:
            raise DeskactError(f"no creator job {job_id!r}")
        return self.jobs[job_id]

    def file(self, job_id: str, name: str) -> Path:
        self.job(job_id)
        path = self.work / job_id / name
        if "/" in name or not path.is_file():
            raise DeskactError(f"job {job_id}: no file {name!r}")
        return path

    # -- jobs -----------------------------------------------------------------------------------

    def _start(self, kind: Literal["record", "demonstrate", "validate"], work: Callable[[Job], dict[str, Any]]) -> Job:
        if not self._busy.acquire(blocking=False):
            running = [j.id for j in self.jobs.values() if j.state == "running"]
            raise DeskactError(f"a creator job is running ({', '.join(running)}): wait for it to end")
        job = Job(id=secrets.token_hex(6), kind=kind)
        (self.work / job.id).mkdir(parents=True)
        self.jobs[job.id] = job

        def body() -> None:
            try:
                job.result = work(job)
                job.state = "done"
            except Exception as exc:  # noqa: BLE001 - the page shows it; the server goes on
                job.error = str(exc) if isinstance(exc, DeskactError) else f"{type(exc).__name__}: {exc}"
                job.log.append(traceback.format_exc(limit=4))
                job.state = "failed"
            finally:
                self._busy.release()

        threading.Thread(target=body, name=f"deskact-creator-{job.id}", daemon=True).start()
        return job

    def _parse(self, draft: Draft, judges: bool) -> Any:
        try:
            return parse_task(draft.raw(judges), self.suite_dir(draft.suite).resolve(), Path("<task creator>"))
        except ValueError as exc:  # _TaskErrors: every broken field, one per line
            raise DeskactError(f"the task does not load: {exc}") from None

    def _scratch(self, job: Job, draft: Draft, judges: bool) -> Path:
        """The draft alone in a copy of its suite (same folder name, the suite's fixtures linked)."""
        scratch = self.work / job.id / draft.suite
        scratch.mkdir(parents=True)
        target = self.suite_dir(draft.suite)
        for sub in ("files", "gold"):
            if (target / sub).is_dir():
                (scratch / sub).symlink_to((target / sub).resolve(), target_is_directory=True)
        raw = draft.raw(judges)
        (scratch / f"{draft.id}.yaml").write_text(task_yaml(draft) if judges else yaml.safe_dump(raw, sort_keys=False))
        return scratch

    def record(self, draft: Draft) -> Job:
        """A person's demonstration through the browser (``deskact record``'s session): the job's
        result names the recording page while it runs; the recorded code comes back as the reference."""
        task = self._parse(draft, judges=False)
        if not task.visual:
            raise DeskactError("recording in the browser needs a visual task: tick visual (and add the gui toolkit)")
        return self._start("record", lambda job: self._record(job, draft))

    def _record(self, job: Job, draft: Draft) -> dict[str, Any]:
        from ...record.session import RecordOptions, record

        scratch = self._scratch(job, draft, judges=False)
        out = self.work / job.id / "recording"

        def announce(url: str) -> None:
            job.result = {"url": url}
            job.log.append(f"the world is ready: demonstrate the task at {url}, then press Done there")

        job.log.append("resetting the world for the recording")
        outcome = record(self.config, RecordOptions(suite=str(scratch), task_id=draft.id, out=out, write=False,
                                                    command=["deskact", "view", "(task creator)"]), announce)
        job.log.append(f"recorded {outcome.events} input events as {outcome.actions} actions")
        return {"url": (job.result or {}).get("url"), "code": outcome.code, "events": outcome.events,
                "actions": outcome.actions, "run": str(out), "video": str(outcome.video) if outcome.video else None}

    def demonstrate(self, draft: Draft) -> Job:
        if not draft.reference.strip():
            raise DeskactError("write the demonstration first (the reference code the task is done with)")
        task = self._parse(draft, judges=False)
        return self._start("demonstrate", lambda job: self._demonstrate(job, task).model_dump(mode="json"))

    def _demonstrate(self, job: Job, task: Any) -> Demonstration:
        from ..notebook import Env

        folder = self.work / job.id
        env = Env(task, self.config)
        try:
            job.log.append("resetting the world (reset steps)")
            env.reset()
            task_env = env.task_env
            assert task_env is not None
            before = snapshot(task_env.context())
            screens = self._screen(task_env, folder / "before")
            job.log.append(f"before: {len(before.files)} files, {len(before.windows)} windows; running the reference")
            episode = env.start("reference")
            outputs = []
            while not episode.finished:
                rec = episode.step()
                if rec is not None and rec.code:
                    result = rec.result
                    text = "" if result is None else (result.stdout or "") + (result.stderr or "") + (
                        f"{result.error.ename}: {result.error.evalue}" if result.error else "")
                    outputs.append(text.strip())
            time.sleep(0.5)  # an app the reference told to save writes its file just after the call returns
            after = snapshot(task_env.context())
            screens += self._screen(task_env, folder / "after")
            found = suggest(before, after)
            job.log.append(f"after: {len(after.files)} files; {len(found)} suggestion(s)")
            return Demonstration(suggestions=found, before=before, after=after, outputs=outputs, screens=screens)
        finally:
            env.close()

    @staticmethod
    def _screen(task_env: Any, path: Path) -> list[str]:
        shot = task_env.screenshot()
        if shot is None:
            return []
        path = path.with_suffix(".png" if shot.image.media_type == "image/png" else ".jpg")
        path.write_bytes(shot.image.data)
        return [path.name]

    def validate(self, draft: Draft) -> Job:
        if not draft.judge:
            raise DeskactError("pick at least one judge (from the suggestions, or add one)")
        if not draft.reference.strip():
            raise DeskactError("the task needs its reference (the demonstration) to be validated")
        self._parse(draft, judges=True)
        target = self.suite_dir(draft.suite)
        if target.is_dir():
            taken = {t.id for t in load_tasks([target]).tasks}
            if draft.id in taken:
                raise DeskactError(f"suite {draft.suite} already has a task {draft.id!r}: choose another id")
        return self._start("validate", lambda job: self._validate(job, draft).model_dump(mode="json"))

    def _validate(self, job: Job, draft: Draft) -> Verdict:
        from ...run.validate import validate

        text = task_yaml(draft)
        scratch = self._scratch(job, draft, judges=True)
        target = self.suite_dir(draft.suite)
        job.log.append("validating: reference must pass, noop and explore must fail")
        problems, checked = validate(self.config, [str(scratch)], workers=1, out=self.work / job.id / "runs",
                                     observe=draft.visual)
        if problems or not checked:
            job.log.append(f"refused: {len(problems)} problem(s)")
            return Verdict(saved=False, yaml=text, problems=[p.model_dump() for p in problems] or [
                {"task_id": draft.id, "model": "-", "status": "invalid", "reward": 0, "detail": "no task was checked"}])
        target.mkdir(parents=True, exist_ok=True)
        path = target / f"{draft.id}.yaml"
        if path.exists():
            raise DeskactError(f"{path} exists already: not overwritten")
        path.write_text(text)
        loaded = load_tasks([target])
        if any(bad.task_id == draft.id for bad in loaded.invalid):
            path.unlink()
            raise DeskactError(f"{path} did not load in its suite; removed: "
                               + "; ".join(str(b) for b in loaded.invalid if b.task_id == draft.id))
        job.log.append(f"saved {path}")
        shutil.rmtree(self.work / job.id / "runs", ignore_errors=True)
        return Verdict(saved=True, path=str(path), yaml=text)
