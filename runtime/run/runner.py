"""The headless runner: many tasks, N workers, results flushed as each task ends.

Ctrl-C (or SIGTERM) stops handing out tasks and interrupts the running ones;
their cleanups still run, finished results stay in results.jsonl, and a later
``--resume`` run completes the suite.
"""

from __future__ import annotations

import difflib
import fnmatch
import queue
import random
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from types import FrameType
from typing import Any

from pydantic import BaseModel, Field

from ..agent.confirm import confirmation_enabled, console_confirm
from ..agent.models import make_model
from ..agent.models.base import Model
from ..config import Config
from ..errors import DeskactError, TaskError
from ..tasks import judge_server
from ..tasks.feedback import join_feedback
from ..tasks.task import InvalidTask, Task, load_tasks
from ..world import kernel
from .events import EventSink, RunEvent, ignore
from .manifest import Resumed, RunManifest, check_resume, new_manifest, now, read_manifest, write_manifest
from .model_limit import limit_model
from .results import ResultsWriter, TaskResult, check_out_dir, latest_by_attempt, latest_by_task, read_results
from .task_env import TaskEnv
from .trajectory import TrajectoryWriter, safe_name
from .video import Recording, start_video
from .worker import Worker

ModelFactory = Callable[[], Model]


class RunOptions(BaseModel):
    paths: list[str]
    model: str
    out: Path
    workers: int = 1
    tasks_glob: str | None = None
    limit: int | None = None
    """Only the first N tasks (in load order, after ``tasks_glob``)."""
    sample: int | None = None
    """Only N tasks drawn at random with ``seed`` (after ``tasks_glob``), kept in load order."""
    seed: int = 0
    resume: bool = False
    epochs: int = 1
    """Run each task this many times (results carry the epoch; the report shows pass@k)."""
    keep_going: bool = False
    """Run every task even after a model error that fails them all alike (``TaskResult.stops_run``)."""
    force: bool = False
    """``--resume`` even when run.json names another model or config (their results then mix)."""
    command: list[str] = Field(default_factory=list)
    """The command line, recorded in run.json (empty when a program builds the run)."""


class Stop(Exception):
    """Raised inside a worker when the run was interrupted."""


def default_out_dir(config: Config) -> Path:
    return Path(config.runner.out.format(timestamp=datetime.now().strftime("%Y%m%d-%H%M%S")))


def run_task(task: Task, worker: Worker, model: Model, out: Path, stop: threading.Event,
             active: dict[int, TaskEnv] | None = None, epoch: int = 1, epochs: int = 1,
             on_step: Callable[[int], None] | None = None,
             after_reset: Callable[[TaskEnv], None] | None = None) -> TaskResult:
    """Run one task start to finish; every failure becomes a result, never an exception.

    ``on_step(index)`` is told each step as it is saved (progress views show it); ``after_reset(env)``
    is called once the task is reset, before the model's first observation (validate looks at it)."""
    started = time.monotonic()
    folder = out / "trajectories" / (safe_name(task.id) + (f"@{epoch}" if epochs > 1 else ""))
    traj = TrajectoryWriter(folder)
    result = TaskResult(task_id=task.id, epoch=epoch, suite=task.suite, tags=task.tags, status="error",
                        model=model.name, trajectory=str(folder.relative_to(out)), source=task.source)
    env: TaskEnv | None = None
    recording: Recording | None = None
    try:
        env = TaskEnv(task, worker, epoch=epoch)
        if active is not None:
            active[threading.get_ident()] = env
        recording = start_video(env, folder)  # observation.record: episode.mp4, by the display's recorder process
        env.reset()
        if stop.is_set():
            raise Stop
        if after_reset is not None:
            after_reset(env)
        agent_start = time.monotonic()
        confirm = console_confirm() if confirmation_enabled(worker.config) else None
        def step(record: Any) -> None:
            traj.step(record)
            if on_step is not None:
                on_step(record.index)

        episode = env.start_episode(model, on_step=step, confirm=confirm)
        first = traj.first_observation(episode.first_screenshot)
        while not episode.finished:
            if stop.is_set():
                raise Stop
            episode.step()
        env.times.agent = time.monotonic() - agent_start
        record = episode.record
        result.finish_reason = record.finish_reason
        result.steps = len(record.steps)
        result.tokens = record.usage
        result.stops_run = record.model_error_fatal
        verdicts = env.judge()
        result.verdicts = verdicts
        result.reward = int(all(v.passed for v in verdicts))
        result.feedback = join_feedback(v.feedback for v in verdicts if not v.passed and v.feedback)
        errors = [v.feedback for v in verdicts if v.error]
        if record.finish_reason in ("model_error", "kernel_error"):
            errors.insert(0, f"{record.finish_reason}: {record.error}")
        result.status = "error" if errors else ("passed" if result.reward else "failed")
        result.error = "; ".join(errors) or None
        traj.episode(record, {"instruction": env.expand(task.instruction), "system_prompt": env.system_prompt(),
                              "first_screenshot_file": first})
    except Stop:
        raise
    except DeskactError as exc:
        result.error = str(exc)
    except Exception as exc:  # noqa: BLE001 - an infrastructure failure is a reported error
        result.error = f"{type(exc).__name__}: {exc}"
    finally:
        video_problem = recording.stop() if recording is not None else None
        if env is not None:
            problems = env.cleanup() + ([video_problem] if video_problem else [])
            if env.kept_world is not None:  # --keep-worlds: found from the trajectory
                folder.mkdir(parents=True, exist_ok=True)
                (folder / "world").symlink_to(env.kept_world)
            if problems:
                result.error = "; ".join(filter(None, [result.error, *problems]))
                if result.status != "error":
                    result.status = "error"
            result.phases = env.times
        if active is not None:
            active.pop(threading.get_ident(), None)
    result.duration_s = time.monotonic() - started
    return result


def invalid_result(bad: InvalidTask, model: str) -> TaskResult:
    return TaskResult(task_id=bad.task_id or f"{Path(bad.file).name}:{bad.line}", suite=bad.suite,
                      status="invalid", model=model, error=str(bad), source=f"{bad.file}:{bad.line}")


def _globs(pattern: str | None) -> list[str]:
    return [p.strip() for p in (pattern or "").split(",") if p.strip()]


def matches(task_id: str, pattern: str | None) -> bool:
    """True when ``pattern`` (comma-separated globs; none = all) selects ``task_id``."""
    globs = _globs(pattern)
    return not globs or any(fnmatch.fnmatch(task_id, p) for p in globs)


def select(tasks: list[Task], pattern: str | None) -> list[Task]:
    return [t for t in tasks if matches(t.id, pattern)]


def subset(tasks: list[Task], limit: int | None, sample: int | None, seed: int) -> list[Task]:
    """``--sample N --seed S`` (the same tasks for the same seed), then ``--limit N``; load order kept."""
    if sample is not None and sample < len(tasks):
        chosen = set(random.Random(seed).sample(range(len(tasks)), sample))
        tasks = [t for i, t in enumerate(tasks) if i in chosen]
    return tasks[:limit] if limit is not None else tasks


def check_pattern(pattern: str | None, ids: list[str], paths: list[str]) -> None:
    """A ``--tasks`` glob that selects nothing is a typo, not a request to run nothing."""
    for glob in _globs(pattern):
        if any(fnmatch.fnmatch(i, glob) for i in ids):
            continue
        where = ", ".join(paths)
        if not ids:
            raise TaskError(f"--tasks {glob!r}: {where} holds no tasks")
        close = difflib.get_close_matches(glob, ids, n=3, cutoff=0.5)
        if close:
            hint = "did you mean " + " or ".join(close) + "?"
        else:
            some = sorted(ids)[:5]
            more = f" and {len(ids) - len(some)} more" if len(ids) > len(some) else ""
            hint = f"task ids there: {', '.join(some)}{more}"
        raise TaskError(f"--tasks {glob!r}: no task id in {where} matches it; {hint}")


class Run:
    """A whole run. ``on_result`` is called (from worker threads) as each task ends."""

    warm_kernels = True
    """Start the kernel fork server in this process at once (the Ray backend's driver runs no kernel)."""

    def __init__(self, config: Config, options: RunOptions,
                 on_result: Callable[[TaskResult], None] | None = None,
                 on_start: Callable[[int], None] | None = None) -> None:
        self.config, self.options = config, options
        self.on_result = on_result or (lambda r: None)
        self.on_start = on_start or (lambda n: None)
        self.on_event: EventSink = ignore
        """Progress for people (events.py: start, task, step, result); ``on_start``/``on_result`` stay."""
        self.on_display: Callable[[int, object], None] = lambda worker_id, display: None
        """Called as a worker's display starts (``run --watch`` prints its VNC and browser addresses)."""
        self.after_reset: Callable[[TaskEnv], None] | None = None
        """Called with each task's environment once it is reset (``run_task``'s ``after_reset``)."""
        self.stop = threading.Event()
        self.active: dict[int, TaskEnv] = {}
        self.prepared = False
        self.tasks: list[Task] = []
        self.invalid: list[InvalidTask] = []
        self.done: dict[str, TaskResult] = {}
        """--resume: the last result of each task (of each epoch: ``self.attempts``)."""
        self.attempts: dict[tuple[str, int], TaskResult] = {}
        self.stopped_by: TaskResult | None = None
        """The result whose model error stopped the run (``TaskResult.stops_run``), if one did."""
        self.forced = False
        """``--resume --force`` went on with a model or config other than run.json's."""
        self.manifest: RunManifest | None = None

    def prepare(self) -> None:
        """Everything a user can get wrong, checked before any task runs (and any progress shows).

        Loads the tasks (broken ones become ``self.invalid``), checks ``--tasks``, the
        output folder and the model. ``execute`` calls it when the caller did not.
        """
        if self.prepared:
            return
        opts = self.options
        if self.warm_kernels:
            kernel.warm_up(self.config)  # overlaps with loading the tasks
        loaded = load_tasks(opts.paths, self.config.toolkits.enabled)  # their steps register first
        check_pattern(opts.tasks_glob, [t.id for t in loaded.tasks] + [b.task_id for b in loaded.invalid if b.task_id],
                      opts.paths)
        self.tasks = subset(select(loaded.tasks, opts.tasks_glob), opts.limit, opts.sample, opts.seed)
        self.invalid = [b for b in loaded.invalid if not opts.tasks_glob or matches(b.task_id or "", opts.tasks_glob)]
        check_out_dir(opts.out)  # a file or a folder it cannot write: one line, before any task
        results_path = opts.out / "results.jsonl"
        earlier = read_results(results_path) if opts.resume else []
        self.done, self.attempts = latest_by_task(earlier), latest_by_attempt(earlier)
        if not opts.resume and results_path.exists() and results_path.stat().st_size:
            raise DeskactError(f"{results_path} already holds results: use --resume or another --out")
        if opts.resume:
            self.forced = check_resume(opts.out, opts.model, self.config, opts.force)
        make_model(opts.model, self.config).check_ready()  # missing keys fail before any task
        self.prepared = True

    def begin(self) -> tuple[list[tuple[Task, int]], list[TaskResult], ResultsWriter,
                             Callable[[TaskResult, str], None]]:
        """What every backend does first: the (task, epoch) attempts still to run, the results kept
        from an earlier run, the open results file, and ``record(result, worker)`` that writes a
        result and reports it; the start events are sent and invalid tasks recorded."""
        self.prepare()
        opts, tasks, done = self.options, self.tasks, self.attempts
        skip = {key for key, r in done.items() if r.status in ("passed", "failed")}
        epochs = range(1, opts.epochs + 1)
        # Epoch-major: every task's first epoch comes before any task's second.
        todo = [(t, e) for e in epochs for t in tasks if (t.id, e) not in skip]
        lock = threading.Lock()
        results: list[TaskResult] = [done[(t.id, e)] for e in epochs for t in tasks if (t.id, e) in skip]
        self._begin_manifest(len(todo) + len(self.invalid) + len(results))
        writer = _ManifestWriter(opts.out / "results.jsonl", lambda: self._end_manifest(results))

        def record(res: TaskResult, worker: str = "") -> None:
            with lock:
                writer.write(res)
                results.append(res)
                if res.stops_run and not opts.keep_going and self.stopped_by is None:
                    self.stopped_by = res  # every other task would fail the same way
                    self.stop.set()
            self.on_result(res)
            self.on_event(RunEvent("result", worker=worker, task_id=res.task_id, epoch=res.epoch, result=res))

        self.on_start(len(todo) + len(self.invalid))
        self.on_event(RunEvent("start", total=len(todo) + len(self.invalid) + len(results), done=len(results),
                               epoch=opts.epochs, kept=tuple(results)))
        for bad in self.invalid:
            record(invalid_result(bad, opts.model))
        return todo, results, writer, record

    def execute(self) -> list[TaskResult]:
        opts = self.options
        todo, results, writer, record = self.begin()
        if self.config.limits.isolate_judges:
            judge_server.start_early()  # judges' children are forked from it: never from a busy runner
        work: queue.Queue[tuple[Task, int]] = queue.Queue()
        for t in todo:
            work.put(t)
        failures: list[BaseException] = []

        def worker_main(worker_id: int) -> None:
            try:
                with Worker(self.config, worker_id, on_display=self.on_display) as worker:
                    model = limit_model(make_model(opts.model, self.config), self.config)
                    while not self.stop.is_set():
                        try:
                            task, epoch = work.get_nowait()
                        except queue.Empty:
                            return
                        label = f"w{worker_id}"
                        self.on_event(RunEvent("task", worker=label, task_id=task.id, epoch=epoch))

                        def stepped(index: int, task: Task = task, epoch: int = epoch, label: str = label) -> None:
                            self.on_event(RunEvent("step", worker=label, task_id=task.id, epoch=epoch, step=index))

                        try:
                            record(run_task(task, worker, model, opts.out, self.stop, self.active,
                                            epoch, opts.epochs, stepped, self.after_reset), label)
                        except Stop:
                            return
            except BaseException as exc:  # noqa: BLE001 - surfaced by the main thread
                failures.append(exc)
                self.stop.set()

        threads = [threading.Thread(target=worker_main, args=(i,), daemon=True, name=f"worker-{i}")
                   for i in range(max(1, min(opts.workers, len(todo) or 1)))]
        previous = _install_sigterm()
        try:
            for th in threads:
                th.start()
            while any(th.is_alive() for th in threads):
                for th in threads:
                    th.join(timeout=0.2)
        except KeyboardInterrupt:
            # A kernel drops an interrupt that arrives while it is idle (e.g. just before a step's code
            # is sent, likelier on a loaded box), so it is repeated until every worker has ended.
            while any(th.is_alive() for th in threads):
                self.interrupt()
                for th in threads:
                    th.join(timeout=0.5)
            raise
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)
            writer.close()
        if failures:
            raise DeskactError(f"worker failed: {type(failures[0]).__name__}: {failures[0]}")
        return results

    def _begin_manifest(self, attempts: int) -> None:
        """run.json as the run begins: a new one, or the earlier run's with this resume added."""
        opts = self.options
        earlier = read_manifest(opts.out) if opts.resume else None
        if earlier is None:
            self.manifest = new_manifest(self.config, opts.model, command=opts.command, paths=opts.paths,
                                         tasks_glob=opts.tasks_glob, epochs=opts.epochs, workers=opts.workers)
            self.manifest.attempts = attempts
        else:
            earlier.resumed.append(Resumed(at=now(), command=opts.command, model=opts.model, forced=self.forced))
            self.manifest = earlier.model_copy(update={"status": "running", "ended_at": None, "stop_reason": None,
                                                       "attempts": attempts})
        write_manifest(opts.out, self.manifest)

    def _end_manifest(self, results: list[TaskResult]) -> None:
        """run.json completed as the results file closes: how the run ended, and its totals."""
        if self.manifest is None:
            return
        stopped = self.stop_message()
        status = "stopped" if stopped else ("interrupted" if self.stop.is_set() else "finished")
        totals = Counter(r.status for r in latest_by_attempt(results).values())
        self.manifest = self.manifest.model_copy(update={"status": status, "ended_at": now(), "stop_reason": stopped,
                                                         "totals": dict(sorted(totals.items()))})
        write_manifest(self.options.out, self.manifest)

    def stop_message(self) -> str | None:
        """Why the run stopped early (a model that cannot work), naming the model, its URL and the way on."""
        res = self.stopped_by
        if res is None:
            return None
        provider = res.model.split("/", 1)[0]
        return (f"the run stopped after task {res.task_id}: {res.error}. Every other task would fail the same way: "
                f"check the API key, the model name and providers.{provider}.base_url, then complete the run "
                f"with --resume (--keep-going runs every task whatever the model answers)")

    def interrupt(self) -> None:
        """Stop handing out tasks and interrupt the code running in every active kernel."""
        self.stop.set()
        for env in list(self.active.values()):
            session = env.session
            if session is not None:
                try:
                    session.interrupt()
                except Exception:  # noqa: BLE001 - best effort while stopping
                    pass


class _ManifestWriter(ResultsWriter):
    """The results file whose closing ends the run: run.json is completed then (every backend closes it)."""

    def __init__(self, path: Path, on_close: Callable[[], None]) -> None:
        super().__init__(path)
        self._on_close = on_close

    def close(self) -> None:
        super().close()
        self._on_close()


SignalHandler = Callable[[int, FrameType | None], Any] | int | None
"""What signal.signal takes and returns: a function, SIG_DFL/SIG_IGN, or None (set outside Python)."""


def _install_sigterm() -> SignalHandler:
    if threading.current_thread() is not threading.main_thread():
        return None

    def to_interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    return signal.signal(signal.SIGTERM, to_interrupt)
