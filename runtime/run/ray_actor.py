"""The Ray actor side of ``--backend ray``: one actor owns one ``Worker``.

An actor is a worker slot on some node of the cluster: it has its own display,
services and warm kernel pools (started lazily by ``Worker``, as in the thread
backend), runs one task at a time with ``runner.run_task`` and ships the
result and the task's trajectory files back to the driver, which writes them.
Trajectories are written to a scratch folder on the actor's node first, so a
driver on another machine still gets every step JSON and screenshot.

It is a plain class; ``ray_backend`` wraps it with ``ray.remote`` (threaded, so
``interrupt`` runs while ``run`` is busy).
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import signal
import socket
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from ..agent.models import make_model
from ..agent.models.base import Model
from ..config import Config
from ..tasks import judge_server
from ..tasks.steps import load_plugins
from ..tasks.task import Task
from ..world import kernel
from .model_limit import SlotsFactory, limit_model, local_slots
from .results import TaskResult
from .runner import Stop, run_task
from .task_env import TaskEnv
from .worker import Worker

WARM_JOIN_TIMEOUT = 60.0
"""Seconds ``close`` waits for an unfinished warm-up (a display and a kernel start in a few)."""


class ActorInfo(BaseModel):
    """Where an actor runs (written to OUT/ray_workers.jsonl by the driver)."""

    worker_id: int
    node_id: str
    host: str
    pid: int
    display: bool

    def describe(self) -> str:
        kind = "display + API tasks" if self.display else "API tasks"
        return f"ray worker {self.worker_id} on {self.host} (node {self.node_id[:8]}, pid {self.pid}): {kind}"


class Shipped(BaseModel):
    """What one ``run`` call sends back: the result and its trajectory, or that it stopped."""

    result: TaskResult | None = None
    files: dict[str, bytes] = Field(default_factory=dict)
    """Trajectory files by path relative to the task's trajectory folder."""
    links: dict[str, str] = Field(default_factory=dict)
    """Symlinks in it (--keep-worlds links the world, which stays on the actor's node)."""
    stopped: bool = False
    """The run was interrupted before the task ended (its cleanup ran); no result."""
    actor_s: float = 0.0
    """Seconds spent inside the actor for this call (the driver subtracts it to get Ray's own cost)."""


class TaskActor:
    def __init__(self, config: Config, model_name: str, worker_id: int, display: bool,
                 model_factory: Callable[[], Model] | None = None, slots: SlotsFactory = local_slots,
                 steps: Any = None, warm: list[str] | None = None, keys: dict[str, str] | None = None) -> None:
        """``warm``: the toolkits of the tasks this actor will most likely run (None: warm nothing);
        their display, services and kernel pool start at once, in the background (``_warm``).
        ``keys``: the providers' API keys, for this process's model clients (``ray_backend.key_env``)."""
        _unblock_sigint()  # before the worker and the fork server start anything
        # Into this process's environment, where model clients read them; kernels and worlds get
        # only the allowlisted variables from it, as on one machine. (Given as a Ray runtime env
        # they would make Ray start a new worker process per actor instead of taking an idle one.)
        os.environ.update(keys or {})
        self.config = config
        self.worker_id, self.display = worker_id, display
        if config.limits.isolate_judges:
            judge_server.start_early()  # before the worker's threads: judges' children are forked from it
        self.worker = Worker(config, worker_id)
        model = model_factory() if model_factory is not None else make_model(model_name, config)
        self.model = limit_model(model, config, slots)
        self.stop = threading.Event()
        self.steps = steps
        """A ray.util.queue.Queue the driver reads step events from (None: nobody watches)."""
        self.active: dict[int, TaskEnv] = {}
        self.scratch = Path(tempfile.mkdtemp(prefix=f"deskact-ray-w{worker_id}-"))
        kernel.warm_up(config)
        self.warming: threading.Thread | None = None
        if warm is not None:
            self.warming = threading.Thread(target=self._warm, args=(warm,), name="deskact-actor-warm", daemon=True)
            self.warming.start()

    def _warm(self, toolkits: list[str]) -> None:
        """What a fresh actor's first task would otherwise start in series, started while the actor
        waits for it: the display, services and kernel pool (the kernels boot in the fork server, in
        parallel with what follows), then the reset steps and judges (importing every built-in step
        module costs about 0.25 s of CPU, their heavy libraries left to first use). On a thread-backend run the driver process has
        imported them already while loading the tasks; an actor is a new process."""
        _unblock_sigint()  # threads this one starts (pool filler, spawners) inherit the mask
        with contextlib.suppress(Exception):  # the first task that needs it reports the failure
            self.worker.warm(toolkits, self.display)
        with contextlib.suppress(Exception):
            load_plugins()

    def info(self) -> ActorInfo:
        import ray

        return ActorInfo(worker_id=self.worker_id, node_id=ray.get_runtime_context().get_node_id(),
                         host=socket.gethostname(), pid=os.getpid(), display=self.display)

    def run(self, task: Task, epoch: int = 1, epochs: int = 1) -> Shipped:
        _unblock_sigint()
        started = time.monotonic()
        out = self.scratch / "out"
        try:
            result = run_task(task, self.worker, self.model, out, self.stop, self.active, epoch, epochs,
                              functools.partial(self._stepped, task.id, epoch))
        except Stop:
            shutil.rmtree(out, ignore_errors=True)
            return Shipped(stopped=True, actor_s=time.monotonic() - started)
        shipped = Shipped(result=result)
        folder = out / (result.trajectory or "")
        if result.trajectory and folder.is_dir():
            for path in sorted(folder.rglob("*")):
                rel = str(path.relative_to(folder))
                if path.is_symlink():
                    shipped.links[rel] = os.readlink(path)
                elif path.is_file():
                    shipped.files[rel] = path.read_bytes()
        shutil.rmtree(out, ignore_errors=True)
        shipped.actor_s = time.monotonic() - started
        return shipped

    def _stepped(self, task_id: str, epoch: int, index: int) -> None:
        if self.steps is not None:
            with contextlib.suppress(Exception):  # progress only: a lost queue must not fail the task
                self.steps.put_nowait((self.worker_id, task_id, epoch, index))

    def interrupt(self, within: float = 60.0) -> None:
        """Stop after the current step and interrupt the code running in the task's kernel.

        A kernel drops an interrupt that arrives while it is idle, e.g. just before the
        episode sends the code of a step; so the interrupt is repeated until the task ends."""
        self.stop.set()
        deadline = time.monotonic() + within
        while self.active and time.monotonic() < deadline:
            for env in list(self.active.values()):
                if env.session is not None:
                    with contextlib.suppress(Exception):  # best effort while stopping
                        env.session.interrupt()
            time.sleep(0.5)

    def memory(self) -> int:
        """Resident bytes of this actor and everything it started (display, kernels, services)."""
        import psutil

        me = psutil.Process()
        total = 0
        for proc in [me, *me.children(recursive=True)]:
            try:
                total += proc.memory_info().rss
            except psutil.Error:
                continue
        return total

    def close(self) -> None:
        """Stop the worker's display, pools and services, and every kernel this process started."""
        if self.warming is not None:  # what it is starting is closed below, not left behind
            self.warming.join(timeout=WARM_JOIN_TIMEOUT)
        self.worker.close()
        kernel.kill_all()
        shutil.rmtree(self.scratch, ignore_errors=True)


def _unblock_sigint() -> None:
    """Ray runs actor code in threads that block SIGINT, and a blocked signal stays blocked in
    every process they fork or exec: kernels would never see an interrupt. Unblocked in the
    threads that start kernels, displays and reset steps (threads they create inherit it)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
