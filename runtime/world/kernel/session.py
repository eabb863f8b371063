"""One sandboxed IPython kernel that model-written code runs in.

``KernelSession`` starts ipykernel through jupyter_client (ipc transport, a
connection file in a private directory), preloads the toolkits, and runs code
with ``execute(code, timeout) -> ExecResult``. It never hangs the runtime:

- completion is the ``execute_reply`` plus iopub ``idle`` for that message;
  both channels are polled with short timeouts and the process is checked
  between polls, so a dead kernel is noticed within ~0.1 s (jupyter_client's
  ``execute_interactive`` never notices one);
- at the deadline the kernel gets an ``interrupt_request`` (message mode: a
  SIGINT to the process group would hit bwrap); if it is not idle after
  ``kernel.interrupt_grace`` it is killed, restarted and preloaded again;
- output is capped while it arrives (head and tail kept).

Kernels never outlive the runtime: each is spawned from one long-lived
thread with a parent-death signal (PDEATHSIG fires when the forking *thread*
exits), killed at interpreter exit and on SIGTERM.
"""

from __future__ import annotations

import atexit
import base64
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
import weakref
from collections import deque
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from queue import Empty
from typing import Any

import zmq
from jupyter_client.blocking.client import BlockingKernelClient
from jupyter_client.connect import write_connection_file
from jupyter_client.launcher import launch_kernel

from ..config import Config
from ..errors import KernelError, SandboxError
from ..execution import ExecError, ExecResult, Image
from . import kernel_forkserver, sandbox
from . import sandbox as sandbox_module
from .kernel_boot import CAPTURE_VAR, EXIT_NAME
from .kernel_import_error import IMPORT_ERRORS, SYS_PATH_PROBE, describe_import_failure
from .kernel_outputs import OrderedOutputs
from .world import WORLD_PATH, World, agent_id, allocate_ids, world_wanted

_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][A-Za-z0-9]")
_POLL_MS = 100
_IMAGE_TYPES = ("image/png", "image/jpeg")

# Every kernel is forked from this one thread, which lives as long as the
# interpreter: a thread that exits would SIGKILL its kernels through PDEATHSIG.
_spawner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="deskact-kernel-spawn")
_zmq = zmq.Context()
# The client connects before the kernel has bound its ipc sockets; zmq retries
# every RECONNECT_IVL (100 ms by default), which added 0-100 ms to every start.
_zmq.setsockopt(zmq.RECONNECT_IVL, 5)
# The kernel's entry point (``python -m``); benchmarks/kernel.py compares it with ipykernel's own.
KERNEL_MODULE = "deskact.runtime.world.kernel_launcher"
_live: weakref.WeakSet[KernelSession] = weakref.WeakSet()
_live_lock = threading.Lock()



def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text)


class CappedText:
    """Text capture with a hard memory cap: the first half and the latest half are kept.

    Output is counted in characters (``capture_limit_bytes`` is a close proxy:
    kernel output is mostly ASCII) and never held beyond the cap.
    """

    def __init__(self, limit: int) -> None:
        self.head_limit = max(limit // 2, 1)
        self.tail_limit = max(limit - self.head_limit, 1)
        self.clear()

    def clear(self) -> None:
        self.head: list[str] = []
        self.head_len = 0
        self.tail: deque[str] = deque()
        self.tail_len = 0
        self.dropped = 0

    def write(self, text: str) -> None:
        if self.head_len < self.head_limit:
            take = text[: self.head_limit - self.head_len]
            self.head.append(take)
            self.head_len += len(take)
            text = text[len(take):]
            if not text:
                return
        self.tail.append(text)
        self.tail_len += len(text)
        while self.tail_len - len(self.tail[0]) >= self.tail_limit:
            gone = self.tail.popleft()
            self.tail_len -= len(gone)
            self.dropped += len(gone)
        if self.tail_len > self.tail_limit:
            excess = self.tail_len - self.tail_limit
            self.tail[0] = self.tail[0][excess:]
            self.tail_len -= excess
            self.dropped += excess

    def value(self) -> str:
        head, tail = "".join(self.head), "".join(self.tail)
        text = head + tail if not self.dropped else (
            f"{head}\n[... {self.dropped} characters dropped at capture ...]\n{tail}"
        )
        return terminal_text(text)


def terminal_text(text: str) -> str:
    """What a terminal would show: no colour codes, and a bare ``\r`` (progress
    bars from pip, tqdm) overwrites its line instead of piling up copies."""
    text = strip_ansi(text)
    if "\r" not in text:
        return text
    lines = text.split("\n")
    for i, line in enumerate(lines):  # linear: a regex here backtracks on long lines
        if "\r" in line:
            body = line.rstrip("\r")
            lines[i] = body.rsplit("\r", 1)[-1] + line[len(body):]
    return "\n".join(lines)


class _Run:
    """What one execute request produced so far (iopub and shell messages for its msg_id)."""

    def __init__(self, config: Config) -> None:
        k = config.kernel
        self.max_images, self.max_image_bytes = k.max_images, k.max_image_bytes
        # The kernel already caps each stream at the source (kernel_boot.OutputLimit);
        # this is the host's own bound, with room for the kernel's marker line.
        self.stdout = CappedText(k.capture_limit_bytes + 200)
        self.stderr = CappedText(k.capture_limit_bytes + 200)
        self.result: str | None = None
        self.result_cap = k.capture_limit_bytes
        self.images: list[Image] = []
        self.images_dropped = 0
        self.outputs = OrderedOutputs(2 * (k.capture_limit_bytes + 200), terminal_text)
        self.error: ExecError | None = None
        self.reply: dict[str, Any] | None = None
        self.idle = False
        self.clear_pending = False

    def _clear(self) -> None:
        self.stdout.clear()
        self.stderr.clear()
        self.images.clear()
        self.images_dropped = 0
        self.outputs.clear()
        self.clear_pending = False

    def _image(self, data: dict[str, Any]) -> bool:
        for media in _IMAGE_TYPES:
            if media in data:
                encoded = data[media]
                # Size check before decoding: base64 is 4/3 of the bytes.
                if len(self.images) >= self.max_images or len(encoded) * 3 // 4 > self.max_image_bytes:
                    self.images_dropped += 1
                else:
                    self.images.append(Image(media_type=media, data=base64.b64decode(encoded)))
                    self.outputs.image(self.images[-1])
                return True
        return False

    def handle(self, msg: dict[str, Any]) -> None:
        kind, content = msg["msg_type"], msg["content"]
        if kind == "status":
            self.idle = self.idle or content.get("execution_state") == "idle"
            return
        if kind == "clear_output":
            if content.get("wait"):
                self.clear_pending = True
            else:
                self._clear()
            return
        if self.clear_pending and kind in ("stream", "display_data", "execute_result", "error"):
            self._clear()
        if kind == "stream":
            # `!cmd` runs under a pty, which ends lines with \r\n.
            text = content.get("text", "").replace("\r\n", "\n")
            stream = "stderr" if content.get("name") == "stderr" else "stdout"
            (self.stderr if stream == "stderr" else self.stdout).write(text)
            self.outputs.text(stream, text)
        elif kind in ("display_data", "update_display_data", "execute_result"):
            data = content.get("data", {})
            has_image = self._image(data)
            text = data.get("text/plain")
            if kind == "execute_result":
                self.result = text[: self.result_cap] if text is not None else None
                if self.result is not None:
                    self.outputs.text("result", self.result)
            elif text is not None and not has_image:
                self.stdout.write(text + "\n")
                self.outputs.text("stdout", text + "\n")
        elif kind == "error":
            self.error = _exec_error(content)
            self.outputs.error(self.error)

    def to_result(self, status: str, restarted: bool, duration: float) -> ExecResult:
        error = self.error
        exited = False
        if self.reply is not None and self.reply.get("status") == "error":
            if self.reply.get("ename") == EXIT_NAME:
                exited, error = True, None
            elif error is None:
                error = _exec_error(self.reply)
                self.outputs.error(error)
        elif self.reply is not None and self.reply.get("status") == "aborted" and error is None:
            error = ExecError(ename="Aborted", evalue="the kernel aborted this request")
            self.outputs.error(error)
        if status == "error" and exited:
            status = "ok"
        return ExecResult(
            status=status,  # type: ignore[arg-type]
            stdout=self.stdout.value(),
            stderr=self.stderr.value(),
            result=self.result,
            error=error,
            images=self.images,
            images_dropped=self.images_dropped,
            outputs=self.outputs.value(drop=lambda e: exited and e.ename == EXIT_NAME),
            restarted=restarted,
            exited=exited,
            duration_s=round(duration, 4),
        )


def _exec_error(content: dict[str, Any]) -> ExecError:
    tb = content.get("traceback") or []
    return ExecError(
        ename=str(content.get("ename", "Error")),
        evalue=str(content.get("evalue", "")),
        traceback=strip_ansi("\n".join(tb) if isinstance(tb, list) else str(tb)),
    )


@dataclass
class _Kernel:
    """One launched kernel process and the client talking to it."""

    proc: subprocess.Popen[bytes]
    """The launched process: the kernel, or bwrap around it."""
    client: BlockingKernelClient
    log: Path
    forked: kernel_forkserver.KernelProcess | None = None
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


class _Standby:
    """A replacement kernel booting in the background while a hung one gets its grace.

    Started at the deadline, so a kernel that ignores the interrupt is replaced
    after max(grace, boot) rather than grace + boot. Dropped if the interrupt works.
    """

    def __init__(self, session: KernelSession) -> None:
        self._session = session
        self._kernel: _Kernel | None = None
        self._error: BaseException | None = None
        self._cancelled = False
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._boot, name="deskact-kernel-standby", daemon=True)
        self._thread.start()

    def _boot(self) -> None:
        try:
            kernel = self._session._boot()
        except BaseException as exc:  # noqa: BLE001 - reported by take()
            self._error = exc
            return
        with self._lock:
            if self._cancelled:
                _kill_kernel(kernel)
            else:
                self._kernel = kernel

    def take(self) -> _Kernel | None:
        """The booted kernel, or None if it failed (the caller then starts one itself)."""
        self._thread.join()
        return self._kernel

    def cancel(self) -> None:
        with self._lock:
            self._cancelled = True
            kernel, self._kernel = self._kernel, None
        if kernel is not None:
            _kill_kernel(kernel)


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
        # (``sandbox`` shadows the module here; the helpers below reach it.)
        self.mode: sandbox_module.Mode = sandbox_mode_for(self.config, sandbox)
        self._in_world = world_wanted(self.config, self.mode)
        self._world_base = allocate_ids() if self._in_world else None
        self.uid = self._world_base + agent_id(self.config) if self._world_base is not None else _allocate(self.mode)
        """The kernel's host uid (in a world: the host uid of the world's root, or of its agent user)."""
        self.world: World | None = None
        """The task's world (``world.enabled``): made with the first kernel, kept across restarts."""
        self._owns_workspace = workspace is None
        self.workspace = Path(workspace or tempfile.mkdtemp(prefix="deskact-ws-")).resolve()
        self._private: Path | None = None
        self._kernel: _Kernel | None = None
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
        with _live_lock:
            _live.discard(self)
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
        standby: list[_Standby] = []
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

    def _replace(self, spare: _Standby | None) -> None:
        old = self._kernel
        new = spare.take() if spare is not None else None
        self._set_kernel(None)
        if old is not None:
            _kill_kernel(old)
        if self.uid is not None and self.world is None:
            # The uid is this session's alone: whatever still runs as it (a fork
            # bomb's children dying slowly) would eat the new kernel's process
            # slots. The standby's own processes are spared.
            sandbox.kill_uid(self.uid, spare=new.roots if new else ())
        if new is not None and new.alive:
            self._set_kernel(new)
        else:
            if new is not None:
                _kill_kernel(new)
            self.start()

    def _collect(
        self, kernel: _Kernel, code: str, timeout: float | None, silent: bool,
        standby: list[_Standby] | None = None,
    ) -> tuple[_Run, str]:
        """Send one execute_request and gather its output until done, hung or dead.

        Returns outcome "done", "died", "hung" (not idle after interrupt + grace)
        or "interrupted" (the interrupt worked: idle within the grace). At the
        deadline a standby kernel starts booting if ``standby`` is given.
        """
        kc = kernel.client
        run = _Run(self.config)
        msg_id = kc.execute(code, silent=silent, store_history=not silent, allow_stdin=False, stop_on_error=False)
        poller = zmq.Poller()
        iopub, shell = kc.iopub_channel.socket, kc.shell_channel.socket
        poller.register(iopub, zmq.POLLIN)
        poller.register(shell, zmq.POLLIN)
        deadline = time.monotonic() + timeout if timeout is not None else float("inf")
        interrupted_at: float | None = None
        grace = self.config.kernel.interrupt_grace
        while not (run.reply is not None and run.idle):
            now = time.monotonic()
            limit = deadline if interrupted_at is None else interrupted_at + grace
            if now >= limit:
                if interrupted_at is None:
                    _send_interrupt(kernel)
                    interrupted_at = now
                    if standby is not None:
                        standby.append(_Standby(self))
                    continue
                return run, "hung"
            wait_ms = _POLL_MS if limit == float("inf") else min(_POLL_MS, max(1, int((limit - now) * 1000)))
            events = dict(poller.poll(wait_ms))
            if iopub in events:
                _drain(kc.iopub_channel, msg_id, run.handle)
            if shell in events:
                _drain(kc.shell_channel, msg_id, lambda m: setattr(run, "reply", m["content"])
                       if m["msg_type"] == "execute_reply" else None)
            if not events and not kernel.alive:
                return run, "died"
        if interrupted_at is not None:
            return run, "interrupted"
        return run, "done"

    # -- internals ------------------------------------------------------------

    def _prepare(self) -> None:
        if self._private is None:
            self._private = Path(tempfile.mkdtemp(prefix="deskact-k-", dir=sandbox.private_tmp_root()))
            self.workspace.mkdir(parents=True, exist_ok=True)
            (self._private / "sockets").mkdir()  # bwrap would make it root-only
            _seed_matplotlib_cache(self._private / "mpl")
            sandbox.give_to(self._private, self.uid)
            if self.uid is not None:
                os.chown(self.workspace, self.uid, self.uid)
        if self._in_world and self.world is None:
            sockets = {Path(p).resolve(): sandbox.socket_inside(name, self._private)
                       for name, p in self.sockets.items()}
            self.world = World(self.config, workspace=self.workspace, private_dir=self._private,
                               display=self.display, sockets=sockets, base_uid=self._world_base,
                               popen=lambda *a, **k: _spawner.submit(subprocess.Popen, *a, **k).result(),
                               import_paths=[Path(p) for p in self.env.get("PYTHONPATH", "").split(os.pathsep) if p])
            self.world.start(self.config.kernel.startup_timeout)
        with _live_lock:
            _live.add(self)
        _install_exit_handlers()

    def _set_kernel(self, kernel: _Kernel | None) -> None:
        with self._lock:
            self._kernel = kernel

    def _boot(self) -> _Kernel:
        """Launch, wait until ready, preload. Thread-safe (a standby boots in the background)."""
        kernel = self._launch()
        try:
            self._wait_ready(kernel)
            self._run_preload(kernel)
        except BaseException:
            _kill_kernel(kernel)
            raise
        return kernel

    def _launch(self) -> _Kernel:
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
        args = [
            "-f", str(conn),
            "--HistoryManager.hist_file=:memory:",  # no sqlite file per kernel
            "--IPKernelApp.extensions=deskact.runtime.world.kernel_boot",  # loads before any cell
        ]
        env = {**self.env, CAPTURE_VAR: str(self.config.kernel.capture_limit_bytes)}
        log_path = self._private / f"kernel-{gen}.log"
        try:
            proc, forked = self._start(args, env, log_path, fork=self._can_fork(env))
        except kernel_forkserver.ForkServerError as exc:
            _stop_forking(exc)
            proc, forked = self._start(args, env, log_path, fork=False)
        kc = BlockingKernelClient(context=_zmq)
        kc.load_connection_file(str(conn))
        kc.start_channels(shell=True, iopub=True, stdin=False, hb=False, control=True)
        return _Kernel(proc=proc, client=kc, log=log_path, forked=forked, world=self.world)

    def _can_fork(self, env: dict[str, str]) -> bool:
        return (
            self.mode == "bwrap" and self.uid is not None and self.config.kernel.fork_server
            and _fork_broken is None
            and kernel_forkserver.can_fork(
                sandbox.kernel_env(self.config.sandbox, env, self.workspace, self._private, self.display)
            )
        )

    def _start(
        self, args: list[str], env: dict[str, str], log_path: Path, fork: bool,
    ) -> tuple[subprocess.Popen[bytes], kernel_forkserver.KernelProcess | None]:
        """Launch the sandboxed kernel process: exec'd at the end of the sandbox chain, or forked into it."""
        assert self._private is not None
        if self.world is not None:
            return self._start_in_world(args, env, log_path, fork)
        inner = kernel_forkserver.PLACEHOLDER if fork else [sys.executable, "-m", KERNEL_MODULE, *args]
        plan = sandbox.plan(
            inner, mode=self.mode, config=self.config, workspace=self.workspace,
            private_dir=self._private, env=env, display=self.display,
            sockets=self.sockets, uid=self.uid,
        )
        for attempt in range(3):
            log = open(log_path, "wb")  # noqa: SIM115 - handed to the child
            try:
                proc = _spawner.submit(
                    launch_kernel, plan.argv, stdout=subprocess.PIPE if fork else subprocess.DEVNULL,
                    stderr=log, env=plan.env, cwd=str(plan.cwd),
                ).result()
                return proc, self._fork_into(proc, plan, args, log, log_path) if fork else None
            except OSError as exc:
                raise KernelError(f"cannot launch the kernel ({plan.argv[0]}): {exc}") from exc
            except KernelError as exc:
                if attempt == 2 or sandbox.BWRAP_MOUNT_RACE not in str(exc):
                    raise
            finally:
                log.close()
        raise AssertionError("unreachable")

    def _start_in_world(
        self, args: list[str], env: dict[str, str], log_path: Path, fork: bool,
    ) -> tuple[subprocess.Popen[bytes], kernel_forkserver.KernelProcess | None]:
        """Fork the kernel into the task's world, or exec it there through nsenter."""
        world = self.world
        assert world is not None and self._private is not None
        full_env = sandbox.kernel_env(self.config.sandbox, env, self.workspace, self._private, self.display)
        full_env["PATH"] = f"{Path(sys.executable).parent}:{WORLD_PATH}"  # the host's PATH names host dirs
        limits = sandbox.rlimits(self.config.sandbox, "none", None)  # processes: the world's cgroup
        with open(log_path, "wb") as log:
            if fork:
                forked = self._fork(world.pid, world.uid, args, full_env, self.workspace, limits, log, log_path,
                                    userns=True, cgroups=world.cgroup.procs_files if world.cgroup else (),
                                    inner_uid=world.agent_id)
                assert world.proc is not None
                return world.proc, forked
            prlimit = [shutil.which("prlimit") or "prlimit", *(f"--{k}={v}" for k, v in limits.items()), "--"]
            argv = world.enter([*prlimit, sys.executable, "-m", KERNEL_MODULE, *args], user=world.agent_id)
            try:
                proc = _spawner.submit(launch_kernel, argv, stdout=subprocess.DEVNULL, stderr=log,
                                       env=full_env, cwd="/").result()
            except OSError as exc:
                raise KernelError(f"cannot launch the kernel in its world: {exc}") from exc
            return proc, None

    def _fork_into(
        self, proc: subprocess.Popen[bytes], plan: sandbox.SandboxPlan, args: list[str], log: Any, log_path: Path,
    ) -> kernel_forkserver.KernelProcess:
        """Wait until bwrap has built the sandbox around the placeholder, then fork the kernel into it."""
        assert plan.uid is not None and proc.stdout is not None
        try:
            if not kernel_forkserver.wait_ready(proc.stdout, self.config.kernel.startup_timeout):
                tail = log_path.read_text(errors="replace")[-1500:].strip()
                raise KernelError(f"the sandbox did not start (bwrap exit {proc.poll()}):\n{tail}")
            placeholder = kernel_forkserver.placeholder_pid(proc.pid, plan.uid)
            return self._fork(placeholder, plan.uid, args, plan.env, plan.cwd, plan.rlimits, log, log_path)
        except BaseException:
            _kill_process(proc)
            raise

    def _fork(
        self, ns_pid: int, uid: int, args: list[str], env: dict[str, str], cwd: Path, rlimits: dict[str, int],
        log: Any, log_path: Path, **where: Any,
    ) -> kernel_forkserver.KernelProcess:
        """Have the fork server fork a kernel into the sandbox or world whose placeholder is ``ns_pid``
        (``where``: the world's user namespace, cgroups and inner uid, see ``ForkServer.spawn``)."""
        env_file = log_path.with_suffix(".env.json")
        env_file.touch(mode=0o600)  # root-only: the kernel reads it before it gives up root
        env_file.write_text(json.dumps(env))
        with open(os.devnull, "rb") as stdin, open(os.devnull, "wb") as stdout:
            pid = _fork_server(self.config).spawn(
                ns_pid, uid, args, env_file, cwd, rlimits, (stdin.fileno(), stdout.fileno(), log.fileno()),
                self.fork_imports, **where,
            )
        return kernel_forkserver.KernelProcess(pid)

    def _wait_ready(self, kernel: _Kernel) -> None:
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

    def _run_preload(self, kernel: _Kernel) -> None:
        assert self._private is not None
        sockets = sandbox.prepare_sockets(self.sockets, self.mode, self._private, self.uid)
        boot = (
            "from deskact.runtime.world import kernel_boot as _deskact_boot\n"
            f"_deskact_boot.install({json.dumps(sockets)})\n"
            "del _deskact_boot\n"
        )
        for name, code in [("deskact", boot), *self.preload]:
            run, outcome = self._collect(kernel, code, self.config.kernel.startup_timeout, silent=True)
            if outcome == "done" and (run.reply or {}).get("status") == "ok":
                continue
            if outcome == "done":
                err = run.error or _exec_error(run.reply or {})
                what = f"{err.ename}: {err.evalue}\n{err.traceback}".rstrip()
                if err.ename in IMPORT_ERRORS and name != "deskact":
                    probe, _ = self._collect(kernel, SYS_PATH_PROBE, 10.0, silent=True)
                    raise KernelError(describe_import_failure(name, err.ename, err.evalue, probe.stdout.value()))
            elif outcome == "died":
                what = f"the kernel died:\n{kernel.log_tail()}"
            else:
                what = f"it did not finish within kernel.startup_timeout = {self.config.kernel.startup_timeout} s"
            raise KernelError(f"preload of toolkit {name!r} failed: {what}")

    def _kill(self) -> None:
        with self._lock:
            kernel, self._kernel = self._kernel, None
        if kernel is not None:
            _kill_kernel(kernel)
            if self.uid is not None and self.world is None:
                sandbox.kill_uid(self.uid)


_mpl_cache: Path | None = None
_mpl_cache_lock = threading.Lock()


def _build_matplotlib_cache() -> None:
    """Build matplotlib's font list once per process, in a subprocess (the host never imports matplotlib)."""
    global _mpl_cache
    cache = Path(tempfile.gettempdir()) / f"deskact-mpl-cache-{os.getuid()}"
    try:
        cache.mkdir(mode=0o700, exist_ok=True)
        if cache.stat().st_uid != os.getuid():
            return  # someone else's directory: do not trust it
        if not list(cache.glob("fontlist-*.json")):
            subprocess.run(
                [sys.executable, "-c", "import matplotlib.font_manager"],
                env={**os.environ, "MPLCONFIGDIR": str(cache)}, capture_output=True, timeout=120, check=False,
            )
        if list(cache.glob("fontlist-*.json")):
            _mpl_cache = cache
    except (OSError, subprocess.SubprocessError):
        pass


def _seed_matplotlib_cache(target: Path) -> None:
    """Each kernel has a fresh MPLCONFIGDIR; building its font list costs ~0.5 s on
    the first ``import matplotlib.pyplot``. Copy a prebuilt one when we have it;
    the first call starts building it in the background and does not wait."""
    global _mpl_cache_started
    if _mpl_cache is None:
        with _mpl_cache_lock:
            if not _mpl_cache_started:
                _mpl_cache_started = True
                threading.Thread(target=_build_matplotlib_cache, name="deskact-mpl-cache", daemon=True).start()
        return
    target.mkdir(exist_ok=True)
    for font_list in _mpl_cache.glob("fontlist-*.json"):
        shutil.copyfile(font_list, target / font_list.name)


_mpl_cache_started = False


def _send_interrupt(kernel: _Kernel) -> None:
    if kernel.alive:
        kernel.client.control_channel.send(kernel.client.session.msg("interrupt_request", {}))


def _drain(channel: Any, msg_id: str, handle: Any) -> None:
    while True:
        try:
            msg = channel.get_msg(timeout=0)
        except Empty:
            return
        except ValueError:  # a bad signature: garbage from a forked child, not our kernel
            continue
        if msg.get("parent_header", {}).get("msg_id") == msg_id:
            handle(msg)


def _kill_kernel(kernel: _Kernel) -> None:
    if kernel.world is not None and kernel.forked is not None:
        _kill_forked(kernel.forked)  # kernel.proc is the world's bwrap: it stays
    else:
        _kill_process(kernel.proc)
    if kernel.forked is not None:
        kernel.forked.close()  # bwrap is gone, so is its PID namespace and the kernel in it
    try:  # after the kill: closing sockets must never be what keeps a kernel alive
        kernel.client.stop_channels()
    except Exception:  # noqa: BLE001 - e.g. during interpreter shutdown
        pass


def _kill_forked(kernel: kernel_forkserver.KernelProcess) -> None:
    """A kernel forked into a world: its process group (it is a session leader; `!cmd` children too)."""
    try:
        os.killpg(kernel.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    deadline = time.monotonic() + 5
    while kernel.alive and time.monotonic() < deadline:
        time.sleep(0.002)


def _kill_process(proc: subprocess.Popen[bytes]) -> None:
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


def sandbox_mode_for(config: Config, override: str | None) -> sandbox.Mode:
    return sandbox.resolve_mode(config.sandbox, override)


def _allocate(mode: sandbox.Mode) -> int | None:
    return sandbox.allocate_uid(mode)


_forkserver: kernel_forkserver.ForkServer | None = None
_forkserver_lock = threading.Lock()
_fork_broken: str | None = None
"""Why forking kernels failed here (then every later kernel is exec'd)."""


def _stop_forking(exc: Exception) -> None:
    global _fork_broken
    if _fork_broken is None:
        _fork_broken = str(exc)
        print(f"deskact: kernels will be exec'd, not forked (slower start): {exc}", file=sys.stderr)


def _fork_server(config: Config) -> kernel_forkserver.ForkServer:
    """This process's fork server, started on first use and again if it died."""
    global _forkserver
    with _forkserver_lock:
        if _forkserver is None or not _forkserver.alive:
            if _forkserver is not None:
                _forkserver.close()

            def spawn(argv: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:
                # From the spawner thread, like kernels: PDEATHSIG follows the thread that forked.
                return _spawner.submit(subprocess.Popen, sandbox.die_with_parent(argv), **kwargs).result()

            _forkserver = kernel_forkserver.ForkServer(
                spawn, {sandbox.OWNER_VAR: str(os.getpid())}, timeout=config.kernel.startup_timeout
            )
        return _forkserver


def why_exec(config: Config) -> str | None:
    """Why this process's kernels are exec'd rather than forked into their sandboxes (None: forked)."""
    if not config.kernel.fork_server:
        return "kernel.fork_server is false"
    if os.geteuid() != 0:
        return "forking into sandboxes needs root"
    try:
        if sandbox_mode_for(config, None) != "bwrap":
            return "no bwrap sandbox"
    except SandboxError as exc:
        return str(exc)
    return _fork_broken


def warm_up(config: Config) -> None:
    """Start the fork server in the background if kernels will be forked (a run calls this first)."""
    if why_exec(config) is None:
        threading.Thread(target=_warm_up, args=(config,), name="deskact-forkserver-start", daemon=True).start()


def _warm_up(config: Config) -> None:
    try:
        _fork_server(config)
    except KernelError:
        pass  # the first kernel will try again and report it


def kill_all() -> None:
    """Kill every kernel this process started, and the fork server (atexit, SIGTERM)."""
    global _forkserver
    with _live_lock:
        sessions = list(_live)
    for session in sessions:
        try:
            session._kill()
            if session.world is not None:
                session.world.close()  # its processes, cgroup and mounts
        except Exception:  # noqa: BLE001 - keep killing the others
            pass
    with _forkserver_lock:
        if _forkserver is not None:
            _forkserver.close()
            _forkserver = None


_handlers_installed = False


def _install_exit_handlers() -> None:
    """atexit always; SIGTERM only when nobody else handles it (then kill kernels and die as before)."""
    global _handlers_installed
    if _handlers_installed:
        return
    _handlers_installed = True
    atexit.register(kill_all)
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:

        def on_term(signum: int, frame: Any) -> None:
            kill_all()
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)

        signal.signal(signal.SIGTERM, on_term)
