"""One sandboxed IPython kernel that model-written code runs in.

``KernelSession`` starts ipykernel through jupyter_client (ipc transport, a
connection file in a private directory), preloads the toolkits, and runs code
with ``execute(code, timeout) -> ExecResult``. It never hangs the runtime:

- completion is the ``execute_reply`` plus iopub ``idle`` for that message;
  both channels are polled with short timeouts and the process is checked
  between polls, so a dead kernel is noticed within ~0.1 s (jupyter_client's
  ``execute_interactive`` never notices one);
- at the deadline the kernel gets an ``interrupt_request``; if it is not idle
  after ``kernel.interrupt_grace`` it is killed and replaced by a standby
  kernel booted meanwhile (``standby``);
- output is captured once, bounded while it arrives (``outputs``).

How the kernel is launched is one of three modes: exec'd at the end of the
sandbox chain (``launch_exec``), forked into a bwrap sandbox by the fork server
(``launch_forked``), or forked or exec'd into the task's world (``launch_world``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path
from queue import Empty
from typing import Any

import zmq
from jupyter_client.blocking.client import BlockingKernelClient
from jupyter_client.connect import write_connection_file

from ...config import Config
from ...errors import KernelError
from ...execution import ExecResult
from .. import reaper, sandbox
from .. import sandbox as sandbox_module
from ..world import World, agent_id, allocate_ids, world_wanted
from . import forkserver, launch_exec, launch_forked, launch_world, lifetime, mpl_cache, process
from .boot import CAPTURE_VAR
from .import_error import IMPORT_ERRORS, SYS_PATH_PROBE, describe_import_failure
from .messages import ExecuteCapture, drain, exec_error
from .process import LaunchedKernel, LaunchRequest, kill_kernel
from .standby import Standby

_POLL_MS = 100


def _popen_on_spawner(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
    """A world's processes start on the spawner thread, as the kernels do (process.in_spawner)."""
    popen: Callable[..., subprocess.Popen[bytes]] = subprocess.Popen
    return process.in_spawner(popen, *args, **kwargs)


class KernelSession:
    """One kernel: ``start``, ``execute``, ``interrupt``, ``restart``, ``shutdown``; a context manager.

    ``preload``: (toolkit name, code) pairs run silently at start and after
    every restart. ``fork_imports``: modules a fork server imports once for all
    the kernels it forks (``Toolkit.fork_imports``). ``env``: extra environment
    for the kernel (on top of the sandbox allowlist). ``sockets``: env var -> host Unix socket of a local
    service, reachable in the kernel as ``http://127.0.0.1:PORT`` in that var.
    ``workspace``: cwd and HOME (a temporary one, removed at shutdown, if None).
    ``sandbox``: override ``config.sandbox.mode``.
    """

    def __init__(
        self,
        config: Config | None = None,
        *,
        workspace: Path | None = None,
        preload: Iterable[tuple[str, str]] = (),
        fork_imports: Iterable[str] = (),
        env: dict[str, str] | None = None,
        sockets: dict[str, Path] | None = None,
        display: str | None = None,
        sandbox: str | None = None,
    ) -> None:
        self.config = config or Config()
        self.preload = list(preload)
        self.fork_imports = list(fork_imports)
        self.env = dict(env or {})
        self.sockets = {k: Path(v) for k, v in (sockets or {}).items()}
        self.display = display
        # (``sandbox`` shadows the module here: ``sandbox_module`` is the same one.)
        self.mode: sandbox_module.Mode = sandbox_mode_for(self.config, sandbox)
        self._in_world = world_wanted(self.config, self.mode)
        self._world_base = allocate_ids() if self._in_world else None
        self.uid = (self._world_base + agent_id(self.config) if self._world_base is not None
                    else sandbox_module.allocate_uid(self.mode))
        """The kernel's host uid (in a world: the host uid of the world's root, or of its agent user)."""
        self.world: World | None = None
        """The task's world (``world.enabled``): made with the first kernel, kept across restarts."""
        self._owns_workspace = workspace is None
        self.workspace = Path(workspace or tempfile.mkdtemp(prefix="deskact-ws-")).resolve()
        self._private: Path | None = None
        self._kernel: LaunchedKernel | None = None
        self._lock = threading.Lock()
        self._generation = 0
        self._workspace_granted = False
        self._closed = False

    # -- lifecycle ------------------------------------------------------------

    def start(self) -> KernelSession:
        """Launch the kernel and run the preload. Idempotent."""
        if self._closed:
            raise KernelError("this kernel session was shut down; create a new one")
        if self.alive:
            return self
        self._prepare()
        self._set_kernel(self._boot())
        return self

    def restart(self) -> None:
        """Kill the kernel and start a fresh, preloaded one (all variables are lost)."""
        self._kill()
        self.start()

    def shutdown(self) -> None:
        """Kill the kernel and remove its private files (and the workspace if we made it)."""
        self._closed = True
        self._kill()
        if self.world is not None:
            self.world.close()
        lifetime.unregister(self)
        if self._private is not None:
            shutil.rmtree(self._private, ignore_errors=True)
        if self._owns_workspace:
            shutil.rmtree(self.workspace, ignore_errors=True)

    close = shutdown

    def __enter__(self) -> KernelSession:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.shutdown()

    def __del__(self) -> None:
        try:
            self._kill()
        except Exception:  # noqa: BLE001 - best effort at garbage collection
            pass

    @property
    def alive(self) -> bool:
        kernel = self._kernel
        return kernel is not None and kernel.alive

    @property
    def pid(self) -> int | None:
        """PID of the outermost launched process (the kernel in mode none, bwrap's in bwrap mode)."""
        kernel = self._kernel
        return kernel.proc.pid if kernel else None

    def interrupt(self) -> None:
        """Ask the kernel to interrupt the running code (KeyboardInterrupt). Safe from any thread."""
        with self._lock:
            kernel = self._kernel
            if kernel is None or not kernel.alive:
                return
            control = kernel.client.control_channel
            control.send(kernel.client.session.msg("interrupt_request", {}))
            while True:  # drop earlier interrupt replies nobody reads
                try:
                    control.get_msg(timeout=0)
                except (Empty, ValueError):
                    break

    # -- running code ---------------------------------------------------------

    def execute(self, code: str, timeout: float | None = None) -> ExecResult:
        """Run ``code``; never raises for anything the code does. ``timeout`` None = no limit."""
        if not self.alive:
            self.start()
        if not self._workspace_granted:
            # Host-side reset steps wrote the workspace as us; the sandbox uid must own it.
            sandbox.give_to(self.workspace, self.uid)
            self._workspace_granted = True
        kernel = self._kernel
        assert kernel is not None
        started = time.monotonic()
        standby: list[Standby] = []
        try:
            run, outcome = self._collect(kernel, code, timeout, silent=False, standby=standby)
        except BaseException:
            for s in standby:
                s.cancel()
            raise
        duration = time.monotonic() - started
        spare = standby[0] if standby else None
        if outcome in ("done", "interrupted"):
            if spare is not None:
                spare.cancel()
            if outcome == "interrupted":
                return run.to_result("timeout", restarted=False, duration=duration)
            status = "error" if (run.reply or {}).get("status") != "ok" else "ok"
            return run.to_result(status, restarted=False, duration=duration)
        # "died" or "hung" (not idle after interrupt + grace): a fresh, preloaded kernel.
        self._replace(spare)
        status = "kernel_died" if outcome == "died" else "timeout"
        return run.to_result(status, restarted=True, duration=duration)

    def _replace(self, spare: Standby | None) -> None:
        old = self._kernel
        new = spare.take() if spare is not None else None
        self._set_kernel(None)
        if old is not None:
            kill_kernel(old)
        if self.uid is not None and self.world is None:
            # The uid is this session's alone: whatever still runs as it (a fork
            # bomb's children dying slowly) would eat the new kernel's process
            # slots. The standby's own processes are spared.
            sandbox.kill_uid(self.uid, spare=new.roots if new else ())
        if new is not None and new.alive:
            self._set_kernel(new)
        else:
            if new is not None:
                kill_kernel(new)
            self.start()

    def _collect(
        self, kernel: LaunchedKernel, code: str, timeout: float | None, silent: bool,
        standby: list[Standby] | None = None,
    ) -> tuple[ExecuteCapture, str]:
        """Send one execute_request and gather its output until done, hung or dead.

        Returns outcome "done", "died", "hung" (not idle after interrupt + grace)
        or "interrupted" (the interrupt worked: idle within the grace). At the
        deadline a standby kernel starts booting if ``standby`` is given.
        """
        kc = kernel.client
        run = ExecuteCapture(self.config)
        msg_id = kc.execute(code, silent=silent, store_history=not silent, allow_stdin=False, stop_on_error=False)
        poller = zmq.Poller()
        iopub, shell = kc.iopub_channel.socket, kc.shell_channel.socket
        poller.register(iopub, zmq.POLLIN)
        poller.register(shell, zmq.POLLIN)
        deadline = time.monotonic() + timeout if timeout is not None else float("inf")
        interrupted_at: float | None = None
        grace = self.config.kernel.interrupt_grace
        while not run.done:
            now = time.monotonic()
            limit = deadline if interrupted_at is None else interrupted_at + grace
            if now >= limit:
                if interrupted_at is None:
                    kernel.send_interrupt()
                    interrupted_at = now
                    if standby is not None:
                        standby.append(Standby(self._boot))
                    continue
                return run, "hung"
            wait_ms = _POLL_MS if limit == float("inf") else min(_POLL_MS, max(1, int((limit - now) * 1000)))
            events = dict(poller.poll(wait_ms))
            if iopub in events:
                drain(kc.iopub_channel, msg_id, run.handle)
            if shell in events:
                drain(kc.shell_channel, msg_id, run.handle_shell)
            if not events and not kernel.alive:
                return run, "died"
        if interrupted_at is not None:
            return run, "interrupted"
        return run, "done"

    # -- internals ------------------------------------------------------------

    def _prepare(self) -> None:
        if self._private is None:
            self._private = Path(tempfile.mkdtemp(prefix="deskact-k-", dir=sandbox.private_tmp_root()))
            reaper.own(self._private)
            self.workspace.mkdir(parents=True, exist_ok=True)
            (self._private / "sockets").mkdir()  # bwrap would make it root-only
            mpl_cache.seed(self._private / "mpl")
            sandbox.give_to(self._private, self.uid)
            if self.uid is not None:
                os.chown(self.workspace, self.uid, self.uid)
        if self._in_world and self.world is None:
            sockets = {Path(p).resolve(): sandbox.socket_inside(name, self._private)
                       for name, p in self.sockets.items()}
            self.world = World(self.config, workspace=self.workspace, private_dir=self._private,
                               display=self.display, sockets=sockets, base_uid=self._world_base,
                               popen=_popen_on_spawner,
                               import_paths=[Path(p) for p in self.env.get("PYTHONPATH", "").split(os.pathsep) if p])
            self.world.start(self.config.kernel.startup_timeout)
        lifetime.register(self)

    def _set_kernel(self, kernel: LaunchedKernel | None) -> None:
        with self._lock:
            self._kernel = kernel

    def _boot(self) -> LaunchedKernel:
        """Launch, wait until ready, preload. Thread-safe (a standby boots in the background)."""
        kernel = self._launch()
        try:
            self._wait_ready(kernel)
            self._run_preload(kernel)
        except BaseException:
            kill_kernel(kernel)
            raise
        return kernel

    def _launch(self) -> LaunchedKernel:
        assert self._private is not None
        with self._lock:
            self._generation += 1
            gen = self._generation
        conn = self._private / f"kernel-{gen}.json"
        write_connection_file(
            str(conn), ip=str(self._private / f"ipc{gen}"), transport="ipc", key=uuid.uuid4().hex.encode()
        )
        if self.uid is not None:
            os.chown(conn, self.uid, self.uid)
        req = LaunchRequest(
            config=self.config, mode=self.mode, uid=self.uid, workspace=self.workspace,
            private_dir=self._private, log_path=self._private / f"kernel-{gen}.log",
            args=[
                "-f", str(conn),
                "--HistoryManager.hist_file=:memory:",  # no sqlite file per kernel
                "--IPKernelApp.extensions=deskact.runtime.world.kernel.boot",  # loads before any cell
            ],
            env={**self.env, CAPTURE_VAR: str(self.config.kernel.capture_limit_bytes)},
            display=self.display, sockets=self.sockets, fork_imports=self.fork_imports, world=self.world,
        )
        try:
            proc, forked = self._start(req, fork=launch_forked.can_fork(req))
        except forkserver.ForkServerError as exc:
            launch_forked.stop_forking(exc)
            proc, forked = self._start(req, fork=False)
        kc = BlockingKernelClient(context=process.zmq_context)
        kc.load_connection_file(str(conn))
        kc.start_channels(shell=True, iopub=True, stdin=False, hb=False, control=True)
        return LaunchedKernel(proc=proc, client=kc, log=req.log_path, forked=forked, world=self.world)

    @staticmethod
    def _start(
        req: LaunchRequest, fork: bool,
    ) -> tuple[subprocess.Popen[bytes], forkserver.KernelProcess | None]:
        """The launch mode: into the task's world, forked into a bwrap sandbox, or exec'd."""
        if req.world is not None:
            return launch_world.launch(req, fork)
        if fork:
            return launch_forked.launch(req)
        return launch_exec.launch(req)

    def _wait_ready(self, kernel: LaunchedKernel) -> None:
        """kernel_info until answered on shell, and until iopub delivers (so no output is missed)."""
        kc = kernel.client
        deadline = time.monotonic() + self.config.kernel.startup_timeout
        while time.monotonic() < deadline:
            msg_id = kc.kernel_info()
            answered = False
            until = min(deadline, time.monotonic() + 1.0)
            while time.monotonic() < until:
                try:
                    msg = kc.shell_channel.get_msg(timeout=0.05)
                except Empty:
                    if not kernel.alive:
                        raise KernelError(
                            f"the kernel exited during startup (exit {kernel.proc.returncode}, sandbox "
                            f"{self.mode}):\n{kernel.log_tail()}"
                        ) from None
                    continue
                if msg.get("parent_header", {}).get("msg_id") == msg_id:
                    answered = True
                    break
            if not answered:
                continue
            try:
                kc.iopub_channel.get_msg(timeout=0.2)
                return
            except Empty:
                continue  # iopub not subscribed yet: ask again so a status message is published
        raise KernelError(
            f"the kernel did not answer within kernel.startup_timeout = "
            f"{self.config.kernel.startup_timeout} s (sandbox {self.mode}):\n{kernel.log_tail()}"
        )

    def _run_preload(self, kernel: LaunchedKernel) -> None:
        assert self._private is not None
        sockets = sandbox.prepare_sockets(self.sockets, self.mode, self._private, self.uid)
        boot = (
            "from deskact.runtime.world.kernel import boot as _deskact_boot\n"
            f"_deskact_boot.install({json.dumps(sockets)})\n"
            "del _deskact_boot\n"
        )
        for name, code in [("deskact", boot), *self.preload]:
            run, outcome = self._collect(kernel, code, self.config.kernel.startup_timeout, silent=True)
            if outcome == "done" and (run.reply or {}).get("status") == "ok":
                continue
            if outcome == "done":
                err = run.outputs.error or exec_error(run.reply or {})
                what = f"{err.ename}: {err.evalue}\n{err.traceback}".rstrip()
                if err.ename in IMPORT_ERRORS and name != "deskact":
                    probe, _ = self._collect(kernel, SYS_PATH_PROBE, 10.0, silent=True)
                    raise KernelError(describe_import_failure(
                        name, err.ename, err.evalue, probe.outputs.stream_text("stdout")))
            elif outcome == "died":
                what = f"the kernel died:\n{kernel.log_tail()}"
            else:
                what = f"it did not finish within kernel.startup_timeout = {self.config.kernel.startup_timeout} s"
            raise KernelError(f"preload of toolkit {name!r} failed: {what}")

    def _kill(self) -> None:
        with self._lock:
            kernel, self._kernel = self._kernel, None
        if kernel is not None:
            kill_kernel(kernel)
            if self.uid is not None and self.world is None:
                sandbox.kill_uid(self.uid)


def sandbox_mode_for(config: Config, override: str | None) -> sandbox.Mode:
    return sandbox.resolve_mode(config.sandbox, override)
