"""A launched kernel process, its client, and what every launcher shares: the spawner thread,
the zmq context, the kernel's entry point, a launch request, and killing a kernel.

Kernels never outlive the runtime: each is spawned from one long-lived thread
with a parent-death signal (PDEATHSIG fires when the forking *thread* exits).
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import zmq
from jupyter_client.blocking.client import BlockingKernelClient

from ...config import Config
from . import forkserver

if TYPE_CHECKING:
    from ..sandbox import Mode
    from ..world import World

T = TypeVar("T")

# The kernel's entry point (``python -m``), read at each launch: benchmarks/kernel.py
# swaps in ipykernel's own to compare.
KERNEL_MODULE = "deskact.runtime.world.kernel.launcher"

# Every kernel is forked from this one thread, which lives as long as the
# interpreter: a thread that exits would SIGKILL its kernels through PDEATHSIG.
_spawner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="deskact-kernel-spawn")
zmq_context = zmq.Context()
# The client connects before the kernel has bound its ipc sockets; zmq retries
# every RECONNECT_IVL (100 ms by default), which added 0-100 ms to every start.
zmq_context.setsockopt(zmq.RECONNECT_IVL, 5)


def in_spawner(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``fn`` on the spawner thread (process launches: PDEATHSIG follows the thread that forked)."""
    return _spawner.submit(fn, *args, **kwargs).result()


@dataclass
class LaunchRequest:
    """Everything a launcher needs to start one kernel for a session."""

    config: Config
    mode: Mode
    uid: int | None
    """The kernel's host uid (None: ours, sandbox mode none without root)."""
    workspace: Path
    private_dir: Path
    args: list[str]
    """ipykernel's arguments (connection file, extension)."""
    env: dict[str, str]
    """Extra environment, on top of the sandbox allowlist."""
    log_path: Path
    display: str | None = None
    sockets: dict[str, Path] = field(default_factory=dict)
    fork_imports: list[str] = field(default_factory=list)
    world: World | None = None


@dataclass
class LaunchedKernel:
    """One launched kernel process and the client talking to it."""

    proc: subprocess.Popen[bytes]
    """The launched process: the kernel, or bwrap around it."""
    client: BlockingKernelClient
    log: Path
    forked: forkserver.KernelProcess | None = None
    """The kernel itself when the fork server made it (then ``proc`` is bwrap around a placeholder)."""
    world: World | None = None
    """The world the kernel lives in; killing the kernel leaves it (and the apps in it) running."""

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None and (self.forked is None or self.forked.alive)

    @property
    def roots(self) -> list[int]:
        """The pids whose process trees hold everything of this kernel (a forked one is not under bwrap)."""
        return [self.proc.pid] + ([self.forked.pid] if self.forked is not None else [])

    def log_tail(self, limit: int = 1500) -> str:
        try:
            return self.log.read_text(errors="replace")[-limit:].strip()
        except OSError:
            return ""

    def send_interrupt(self) -> None:
        """An ``interrupt_request`` (message mode: a SIGINT to the process group would hit bwrap)."""
        if self.alive:
            self.client.control_channel.send(self.client.session.msg("interrupt_request", {}))


def kill_kernel(kernel: LaunchedKernel) -> None:
    if kernel.world is not None and kernel.forked is not None:
        _kill_forked(kernel.forked)  # kernel.proc is the world's bwrap: it stays
    else:
        kill_process(kernel.proc)
    if kernel.forked is not None:
        kernel.forked.close()  # bwrap is gone, so is its PID namespace and the kernel in it
    try:  # after the kill: closing sockets must never be what keeps a kernel alive
        kernel.client.stop_channels()
    except Exception:  # noqa: BLE001 - e.g. during interpreter shutdown
        pass


def _kill_forked(kernel: forkserver.KernelProcess) -> None:
    """A kernel forked into a world: its process group (it is a session leader; `!cmd` children too)."""
    try:
        os.killpg(kernel.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    deadline = time.monotonic() + 5
    while kernel.alive and time.monotonic() < deadline:
        time.sleep(0.002)


def kill_process(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        try:
            # start_new_session made it a group leader: the group holds `!cmd` children too.
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            proc.kill()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()
