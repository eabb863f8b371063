"""``deskact run --backend ray``: the same run, its workers Ray actors on a cluster.

The driver (this process) loads and checks the tasks exactly as the thread
backend does (``Run.prepare``), starts N ``TaskActor``s wherever the cluster has
room, hands each one task at a time, and writes every result line and
trajectory file itself: results.jsonl looks the same, so report, compare and
``--resume`` work unchanged. What Ray adds, and how this module answers it:

- placement: actors for visual tasks ask for the custom resource
  ``deskact_display``, which a node offers only if it can start displays
  (``node_resources``; docs/distributed.md shows the ``ray start`` line);
- faults: a task whose actor or node died is rerun on a fresh actor
  (``runner.retries`` times); after that it is an ``error`` naming the cause.
  Each task is recorded once, when its last attempt ends;
- Ctrl-C: no new tasks; the running ones are interrupted on their actors,
  whose cleanups run before the actors close their workers and exit;
- secrets: API keys travel to the actors as an argument, into the actor
  process's environment where its model clients read them (not as a Ray
  runtime env: a job-specific one makes Ray start a new worker process for
  every actor instead of taking an idle prestarted one);
  kernels and worlds get the same allowlisted environment as on one machine.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import signal
import time
import uuid
from collections import Counter, deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..agent.models.base import Model
from ..config import Config
from ..errors import DeskactError
from ..tasks.task import Task
from .events import RunEvent, ignore
from .model_limit import Slots, local_slots, provider_of
from .ray_actor import ActorInfo, Shipped, TaskActor
from .results import TaskResult
from .runner import Run, RunOptions, _install_sigterm
from .trajectory import safe_name
from .worker import needs_display as worker_needs_display

DISPLAY_RESOURCE = "deskact_display"
DISPLAY_PROGRAMS = ("Xvfb", "openbox")
"""What doctor's "virtual display" checks look for (a test keeps the two lists equal)."""
ACTOR_START_TIMEOUT = 300.0
"""Seconds a task may wait for any actor that can take it (a loaded node starts one in ~5 s)."""
STOP_TIMEOUT = 120.0
"""Seconds Ctrl-C waits for interrupted tasks' cleanups and for actors to close their workers."""


def require_ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise DeskactError("runner.backend ray needs Ray: pip install 'deskact[ray]'") from exc
    return ray


def node_resources(config: Config, displays: int) -> dict[str, float]:
    """The custom resources this machine should offer a cluster: ``deskact_display`` only where
    doctor's virtual-display checks (``DISPLAY_PROGRAMS``) pass and the display mode is not none."""
    if displays < 1 or config.display.mode == "none":
        return {}
    if not all(shutil.which(p) for p in DISPLAY_PROGRAMS):
        return {}
    return {DISPLAY_RESOURCE: float(displays)}


def key_env(config: Config) -> dict[str, str]:
    """The providers' API keys set here: they reach the actors' model clients (never a kernel)."""
    names = {p.api_key_env for _, p in config.providers if p.api_key_env}
    return {name: os.environ[name] for name in sorted(names) if os.environ.get(name)}


class _Semaphore:
    """A cluster-wide counting semaphore (an async Ray actor: waiting callers cost no thread).

    It knows which worker holds each slot, so the slots of a worker that died while
    waiting on the model are given back (``forget``) instead of lost for the run."""

    def __init__(self, limit: int) -> None:
        import asyncio
        from collections import Counter

        self._sem = asyncio.Semaphore(limit)
        self._held: Counter[int] = Counter()

    async def acquire(self, holder: int) -> None:
        await self._sem.acquire()
        self._held[holder] += 1

    async def release(self, holder: int) -> None:
        if self._held[holder] > 0:
            self._held[holder] -= 1
            self._sem.release()

    async def forget(self, holder: int) -> int:
        given_back = self._held.pop(holder, 0)
        for _ in range(given_back):
            self._sem.release()
        return given_back


class RaySlots:
    """``model_limit.Slots`` backed by a named semaphore actor every node can look up."""

    def __init__(self, handle: Any, holder: int) -> None:
        self._handle, self._holder = handle, holder

    def acquire(self) -> None:
        import ray

        ray.get(self._handle.acquire.remote(self._holder))

    def release(self) -> None:
        import ray

        ray.get(self._handle.release.remote(self._holder))


def slots_name(run_id: str, provider: str) -> str:
    return f"deskact-model-slots-{run_id}-{provider}"


def cluster_slots(run_id: str, holder: int, provider: str, limit: int) -> Slots:
    """Looked up by each actor (``holder`` = its worker id); the driver made the semaphore first."""
    import ray

    return RaySlots(ray.get_actor(slots_name(run_id, provider)), holder)


@dataclass
class _Slot:
    """One actor the driver hands tasks to."""

    handle: Any
    display: bool
    worker_id: int
    ready: Any = None
    """ObjectRef of ``info()`` until the actor is up."""
    info: ActorInfo | None = None
    busy: bool = False


    @property
    def label(self) -> str:
        """Where a task runs, for progress views: node/worker."""
        node = self.info.node_id[:6] if self.info else "?"
        return f"{node}/w{self.worker_id}"


@dataclass
class _Job:
    """One attempt to make: a task and its epoch."""

    task: Task
    epoch: int = 1

    @property
    def key(self) -> tuple[str, int]:
        return (self.task.id, self.epoch)


@dataclass
class _Flight:
    slot: _Slot
    job: _Job
    sent: float = field(default_factory=time.monotonic)


class RayRun(Run):
    """``Run`` with Ray actors as its workers; ``on_worker`` is told where each actor started."""

    warm_kernels = False  # the driver runs no kernel

    def __init__(self, config: Config, options: RunOptions,
                 on_result: Callable[[TaskResult], None] | None = None,
                 on_start: Callable[[int], None] | None = None,
                 on_worker: Callable[[ActorInfo], None] | None = None,
                 model_factory: Callable[[], Model] | None = None) -> None:
        super().__init__(config, options, on_result, on_start)
        self.on_worker = on_worker or (lambda info: None)
        self.model_factory = model_factory
        self.ray_costs: list[float] = []
        """Seconds per task spent in Ray itself (driver round trip minus the actor's own time)."""
        self.workers: list[ActorInfo] = []
        self.placed: dict[str, ActorInfo] = {}
        """Where each task last ran."""
        self.run_id = uuid.uuid4().hex[:8]
        self._slots: list[_Slot] = []
        self._flights: dict[Any, _Flight] = {}
        self.retried: dict[tuple[str, int], list[str]] = {}
        """Why the earlier attempts of each rerun (task, epoch) died."""
        self._next_worker = 0
        self._steps: Any = None
        self._semaphore: Any = None
        self._start_failures = 0
        self._started_ray = False
        self._warm: dict[bool, list[str]] = {}
        """The toolkits a new display (True) or API-only (False) actor warms up for (``_dispatch``)."""

    # -- the cluster ------------------------------------------------------------

    def _connect(self) -> Any:
        ray = require_ray()
        if ray.is_initialized():
            return ray
        address = self.config.runner.ray_address or os.environ.get("RAY_ADDRESS") or None
        extra: dict[str, Any] = {}
        if address is None:  # a local Ray for this run: offer displays if this machine can start them
            extra = {"resources": node_resources(self.config, self.options.workers), "include_dashboard": False}
        try:
            with loopback_only(address is None):
                ray.init(address=address, log_to_driver=False, configure_logging=False, **extra)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise DeskactError(f"runner.ray_address {address!r}: cannot join the Ray cluster: {exc}") from exc
        self._started_ray = True
        return ray

    def _new_slot(self, ray: Any, display: bool) -> _Slot:
        remote = ray.remote(TaskActor)
        limits = self.config.models.max_concurrency
        provider = provider_of(self.options.model)
        wid = self._next_worker
        self._next_worker += 1
        slots = functools.partial(cluster_slots, self.run_id, wid) if provider in limits else local_slots
        options: dict[str, Any] = {
            "num_cpus": self.config.runner.ray_worker_cpus,
            "max_concurrency": 2,  # run() and interrupt() at once
            "max_restarts": 0,  # a dead actor is replaced by the driver, which reruns its task
            "scheduling_strategy": "SPREAD",
        }
        if display:
            options["resources"] = {DISPLAY_RESOURCE: 1}
        handle = remote.options(**options).remote(self.config, self.options.model, wid, display,
                                                  self.model_factory, slots, self._steps, self._warm.get(display),
                                                  key_env(self.config))
        slot = _Slot(handle=handle, display=display, worker_id=wid, ready=handle.info.remote())
        self._slots.append(slot)
        return slot

    def _helpers(self, ray: Any) -> list[Any]:
        """The run's shared actors, on the driver's node (it lives as long as the run does): the
        model-call semaphore and the queue that brings each step to the progress view."""
        from ray.util.queue import Queue
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        here = NodeAffinitySchedulingStrategy(ray.get_runtime_context().get_node_id(), soft=True)
        helpers: list[Any] = []
        # The queue is a Ray actor: a process to start (about 0.7 s of CPU, while the actors start
        # too), so only when someone listens to step events (the progress view does).
        if self.on_event is not ignore:
            self._steps = Queue(actor_options={"num_cpus": 0, "scheduling_strategy": here})
            helpers.append(self._steps)
        provider = provider_of(self.options.model)
        limit = self.config.models.max_concurrency.get(provider)
        if limit is None:
            return helpers
        actor = ray.remote(_Semaphore).options(name=slots_name(self.run_id, provider), num_cpus=0,
                                               max_concurrency=1000, scheduling_strategy=here)
        self._semaphore = actor.remote(limit)
        return [*helpers, self._semaphore]

    def _report_steps(self) -> None:
        """Step events the actors queued, to ``on_event`` (the progress view shows each worker's step)."""
        if self._steps is None:
            return
        try:
            waiting = self._steps.qsize()
            items = self._steps.get_nowait_batch(waiting) if waiting else []
        except Exception:  # noqa: BLE001 - progress is best effort; results never depend on it
            return
        labels = {s.worker_id: s.label for s in self._slots}
        for worker_id, task_id, epoch, index in items:
            self.on_event(RunEvent("step", worker=labels.get(worker_id, f"?/w{worker_id}"), task_id=task_id,
                                   epoch=epoch, step=index))

    # -- the run ---------------------------------------------------------------

    def execute(self) -> list[TaskResult]:
        attempts, results, writer, record = self.begin()  # epoch-major, as in the thread backend
        todo = [_Job(t, e) for t, e in attempts]
        previous = _install_sigterm()
        ray = None
        helpers: list[Any] = []
        try:
            if todo:
                ray = self._connect()
                self._check_room(ray, todo)
                helpers = self._helpers(ray)
                self._dispatch(ray, todo, record)
        except KeyboardInterrupt:
            self.interrupt()
            if ray is not None:
                self._drain(ray, record)
            raise
        finally:
            if ray is not None:
                self._close_actors(ray)
                for helper in helpers:
                    with contextlib.suppress(Exception):
                        ray.kill(getattr(helper, "actor", helper))  # a Queue wraps its actor
                if self._started_ray:
                    ray.shutdown()
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)
            writer.close()
        return results

    def _check_room(self, ray: Any, todo: list[_Job]) -> None:
        visual = list(dict.fromkeys(j.task.id for j in todo if needs_display(j.task)))
        if visual and not ray.cluster_resources().get(DISPLAY_RESOURCE):
            some = ", ".join(visual[:3]) + (f" and {len(visual) - 3} more" if len(visual) > 3 else "")
            raise DeskactError(
                f"{len(visual)} task(s) need a display ({some}) but no node of the Ray cluster offers "
                f"the {DISPLAY_RESOURCE} resource: start nodes with "
                f"ray start ... --resources \"$(deskact ray-resources)\" (docs/distributed.md)")

    def _dispatch(self, ray: Any, todo: list[_Job], record: Callable[[TaskResult, str], None]) -> None:
        visual = deque(j for j in todo if needs_display(j.task))
        plain = deque(j for j in todo if not needs_display(j.task))
        n = max(1, min(self.options.workers, len(todo)))
        n_display = min(n, max(1, round(n * len(visual) / len(todo)))) if visual else 0
        # Each actor starts its display, services and kernel pool while it waits for its first task,
        # for the toolkits most of the tasks it takes first have (a pool per other set starts lazily).
        self._warm = {kind: list(most_common_toolkits(jobs)) for kind, jobs in ((True, visual), (False, plain))
                      if jobs}
        for i in range(n):
            self._new_slot(ray, display=i < n_display)
        attempts = self.retried
        flights = self._flights
        waiting_since = time.monotonic()

        while (visual or plain or flights) and not self.stop.is_set():
            for slot in self._slots:
                if slot.info is None or slot.busy:
                    continue
                queue = visual if (slot.display and visual) else plain
                if not queue:
                    continue
                job = queue.popleft()
                slot.busy = True
                self.placed[job.task.id] = slot.info
                self.on_event(RunEvent("task", worker=slot.label, task_id=job.task.id, epoch=job.epoch))
                ref = slot.handle.run.remote(job.task, job.epoch, self.options.epochs)
                flights[ref] = _Flight(slot, job)
            starting = {s.ready: s for s in self._slots if s.ready is not None}
            ready, _ = ray.wait([*flights, *starting], num_returns=1, timeout=0.5)
            self._report_steps()  # before the results that follow them
            for ref in ready:
                if ref in starting:
                    self._actor_started(ray, starting[ref])
                    continue
                flight = flights.pop(ref)
                flight.slot.busy = False
                outcome = self._outcome(ray, ref, flight, attempts)
                if outcome is None:  # actor gone: its task goes back to the front of its queue
                    (visual if needs_display(flight.job.task) else plain).appendleft(flight.job)
                elif outcome is not False:
                    record(outcome, flight.slot.label)
            if flights or ready:
                waiting_since = time.monotonic()
            elif time.monotonic() - waiting_since > ACTOR_START_TIMEOUT:
                self._give_up(visual, plain, record)

    def _actor_started(self, ray: Any, slot: _Slot) -> None:
        try:
            slot.info = ray.get(slot.ready)
        except ray.exceptions.RayError as exc:
            # A node that just died can still look alive for a few seconds and be given the
            # replacement; a broken set-up fails every start: so a few failures are retried.
            self._start_failures += 1
            if self._start_failures > self.options.workers + 3:
                raise DeskactError(f"Ray worker {slot.worker_id} could not start: {_cause(exc)}") from exc
            slot.ready = None
            self._replace(ray, slot)
            return
        slot.ready = None
        self.workers.append(slot.info)
        with (self.options.out / "ray_workers.jsonl").open("a", encoding="utf-8") as f:
            f.write(slot.info.model_dump_json() + "\n")
        self.on_worker(slot.info)

    def _outcome(self, ray: Any, ref: Any, flight: _Flight, attempts: dict[tuple[str, int], list[str]]) -> Any:
        """The result to record, None to rerun the task, or False when it stopped (Ctrl-C)."""
        key = flight.job.key
        try:
            shipped: Shipped = ray.get(ref)
        except (ray.exceptions.RayActorError, ray.exceptions.WorkerCrashedError,
                ray.exceptions.NodeDiedError, ray.exceptions.ObjectLostError) as exc:
            where = flight.slot.info.host if flight.slot.info else "?"
            cause = f"Ray worker {flight.slot.worker_id} on {where} died mid-task ({_cause(exc)})"
            self._replace(ray, flight.slot)
            tries = attempts.setdefault(key, [])
            tries.append(cause)
            if len(tries) <= self.config.runner.retries:
                return None
            msg = "; then ".join(tries)
            return _error(flight.job, self.options, f"{msg}; gave up after {len(tries)} attempts")
        except ray.exceptions.RayError as exc:  # the actor lives, but the call itself failed
            return _error(flight.job, self.options, f"Ray call failed: {_cause(exc)}")
        if shipped.stopped or shipped.result is None:
            return False
        self._write_trajectory(shipped)
        self.ray_costs.append(max(0.0, time.monotonic() - flight.sent - shipped.actor_s))
        result = shipped.result
        if attempts.get(key):
            note = f"ran again after: {'; '.join(attempts[key])}"
            result.error = "; ".join(filter(None, [result.error, note])) if result.status == "error" else result.error
        return result

    def _write_trajectory(self, shipped: Shipped) -> None:
        assert shipped.result is not None
        folder = self.options.out / (shipped.result.trajectory or f"trajectories/{safe_name(shipped.result.task_id)}")
        folder.mkdir(parents=True, exist_ok=True)
        for rel, data in shipped.files.items():
            path = folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        for rel, target in shipped.links.items():
            link = folder / rel
            if link.is_symlink() or link.exists():
                link.unlink()
            link.symlink_to(target)

    def _replace(self, ray: Any, dead: _Slot) -> None:
        with contextlib.suppress(Exception):  # it is dead already
            ray.kill(dead.handle, no_restart=True)
        if self._semaphore is not None:  # model-call slots it held die with it, not with the run
            self._semaphore.forget.remote(dead.worker_id)
        self._slots.remove(dead)
        self._new_slot(ray, dead.display)

    def _give_up(self, visual: deque[_Job], plain: deque[_Job], record: Callable[[TaskResult, str], None]) -> None:
        kinds = "with the deskact_display resource " if visual else ""
        why = f"no Ray worker {kinds}started within {ACTOR_START_TIMEOUT:.0f} s (does the cluster have room?)"
        for queue in (visual, plain):
            while queue:
                record(_error(queue.popleft(), self.options, why), "")  # no worker ran it

    def interrupt(self) -> None:
        """Stop handing out tasks and interrupt the task running on every actor."""
        self.stop.set()
        for slot in self._slots:
            with contextlib.suppress(Exception):  # best effort while stopping
                slot.handle.interrupt.remote()

    def _drain(self, ray: Any, record: Callable[[TaskResult, str], None]) -> None:
        """After Ctrl-C: wait for the interrupted tasks (their cleanups run on the actors) and
        record those that had finished anyway; the others are left for ``--resume``."""
        deadline = time.monotonic() + STOP_TIMEOUT
        while self._flights and time.monotonic() < deadline:
            ready, _ = ray.wait(list(self._flights), num_returns=1, timeout=0.5)
            for ref in ready:
                flight = self._flights.pop(ref)
                flight.slot.busy = False
                try:
                    shipped: Shipped = ray.get(ref)
                except ray.exceptions.RayError:
                    continue  # died while stopping: not finished, so not recorded
                if not shipped.stopped and shipped.result is not None:
                    self._write_trajectory(shipped)
                    record(shipped.result, flight.slot.label)

    def _close_actors(self, ray: Any) -> None:
        """Each actor closes its worker (display, kernels, services), then is killed."""
        closing = [s.handle.close.remote() for s in self._slots if s.info is not None]  # started ones
        with contextlib.suppress(Exception):  # actors that died cannot close
            ray.wait(closing, num_returns=len(closing), timeout=STOP_TIMEOUT)
        for slot in self._slots:
            with contextlib.suppress(Exception):
                ray.kill(slot.handle, no_restart=True)
        self._slots.clear()


LOOPBACK_ONLY_VAR = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
"""Off, Ray takes 127.0.0.1 as the node's address (as it does on macOS and Windows)."""


@contextmanager
def loopback_only(local: bool) -> Iterator[None]:
    """While a local Ray for this run starts, make it a loopback-only node.

    Ray refuses 127.0.0.1 as a node address on Linux and then binds its metrics exporter
    (Prometheus, no authentication) on 0.0.0.0 and its gRPC servers on every interface. A
    cluster deskact starts serves this machine alone, so its processes (which inherit the
    variable) bind loopback; a cluster joined through ``runner.ray_address`` is left as it is.
    """
    if not local:
        yield
        return
    from ray._private import ray_constants  # read once at import: the driver needs it set too

    before, constant = os.environ.get(LOOPBACK_ONLY_VAR), ray_constants.ENABLE_RAY_CLUSTER
    os.environ[LOOPBACK_ONLY_VAR] = "0"
    ray_constants.ENABLE_RAY_CLUSTER = False
    try:
        yield
    finally:
        ray_constants.ENABLE_RAY_CLUSTER = constant
        if before is None:
            os.environ.pop(LOOPBACK_ONLY_VAR, None)
        else:
            os.environ[LOOPBACK_ONLY_VAR] = before


def make_run(config: Config, options: RunOptions,
             on_worker: Callable[[ActorInfo], None] | None = None) -> Run:
    """The run ``runner.backend`` asks for (the thread backend needs no Ray installed)."""
    if config.runner.backend == "ray":
        require_ray()
        return RayRun(config, options, on_worker=on_worker)
    if config.runner.ray_address:
        raise DeskactError(f"runner.ray_address {config.runner.ray_address!r} is set but runner.backend is "
                           "thread: pass --backend ray to run on that cluster")
    return Run(config, options)


def needs_display(task: Task) -> bool:
    """The rule TaskEnv uses to give a task a display."""
    return worker_needs_display(task.visual, task.toolkits)


def most_common_toolkits(jobs: deque[_Job]) -> tuple[str, ...]:
    """The toolkit list most of these tasks ask for (the first of equals: the earliest task's)."""
    counts = Counter(tuple(j.task.toolkits) for j in jobs)
    return counts.most_common(1)[0][0]


def _cause(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    first = next((line for line in text if line.strip()), type(exc).__name__)
    return f"{type(exc).__name__}: {first[:300]}"


def _error(job: _Job, options: RunOptions, why: str) -> TaskResult:
    task = job.task
    return TaskResult(task_id=task.id, epoch=job.epoch, suite=task.suite, tags=task.tags, status="error",
                      model=options.model, error=why, feedback=why, source=task.source)

