"""Launch mode "forked" (as root with bwrap): bwrap builds the sandbox around a placeholder, and
this process's fork server forks a pre-imported kernel into it (``forkserver``).

Also this process's fork server itself: started on first use (or early, by ``warm_up``),
restarted if it died, and given up for good (kernels are then exec'd) if it cannot fork here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

from ...config import Config
from ...errors import KernelError, SandboxError
from .. import sandbox
from . import forkserver, launch_exec, process
from .process import LaunchRequest

_forkserver: forkserver.ForkServer | None = None
_forkserver_lock = threading.Lock()
_fork_broken: str | None = None
"""Why forking kernels failed here (then every later kernel is exec'd)."""


def launch(req: LaunchRequest) -> tuple[subprocess.Popen[bytes], forkserver.KernelProcess | None]:
    plan = launch_exec.plan_for(req, forkserver.PLACEHOLDER)

    def fork_into(proc: subprocess.Popen[bytes], log: IO[bytes]) -> forkserver.KernelProcess:
        """Wait until bwrap has built the sandbox around the placeholder, then fork the kernel into it."""
        assert plan.uid is not None and proc.stdout is not None
        try:
            if not forkserver.wait_ready(proc.stdout, req.config.kernel.startup_timeout):
                tail = req.log_path.read_text(errors="replace")[-1500:].strip()
                raise KernelError(f"the sandbox did not start (bwrap exit {proc.poll()}):\n{tail}")
            placeholder = forkserver.placeholder_pid(proc.pid, plan.uid)
            return fork(req, placeholder, plan.uid, plan.env, plan.cwd, plan.rlimits, log)
        except BaseException:
            process.kill_process(proc)
            raise

    return launch_exec.launch_plan(plan, req.log_path, then=fork_into)


def can_fork(req: LaunchRequest) -> bool:
    """Will this kernel be forked (bwrap as root, forking allowed and working, an environment
    a forked kernel can apply itself)?"""
    return (
        req.mode == "bwrap" and req.uid is not None and req.config.kernel.fork_server
        and _fork_broken is None
        and forkserver.can_fork(
            sandbox.kernel_env(req.config.sandbox, req.env, req.workspace, req.private_dir, req.display)
        )
    )


def fork(
    req: LaunchRequest, ns_pid: int, uid: int, env: dict[str, str], cwd: Path, rlimits: dict[str, int],
    log: IO[bytes], **where: Any,
) -> forkserver.KernelProcess:
    """Have the fork server fork a kernel into the sandbox or world whose placeholder is ``ns_pid``
    (``where``: the world's user namespace, cgroups and inner uid, see ``ForkServer.spawn``)."""
    env_file = req.log_path.with_suffix(".env.json")
    env_file.touch(mode=0o600)  # root-only: the kernel reads it before it gives up root
    env_file.write_text(json.dumps(env))
    with open(os.devnull, "rb") as stdin, open(os.devnull, "wb") as stdout:
        pid = fork_server(req.config).spawn(
            ns_pid, uid, req.args, env_file, cwd, rlimits, (stdin.fileno(), stdout.fileno(), log.fileno()),
            req.fork_imports, **where,
        )
    return forkserver.KernelProcess(pid)


def stop_forking(exc: Exception) -> None:
    """Forking failed here: every later kernel of this process is exec'd."""
    global _fork_broken
    if _fork_broken is None:
        _fork_broken = str(exc)
        print(f"deskact: kernels will be exec'd, not forked (slower start): {exc}", file=sys.stderr)


def fork_server(config: Config) -> forkserver.ForkServer:
    """This process's fork server, started on first use and again if it died."""
    global _forkserver
    with _forkserver_lock:
        if _forkserver is None or not _forkserver.alive:
            if _forkserver is not None:
                _forkserver.close()

            def spawn(argv: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:
                # From the spawner thread, like kernels: PDEATHSIG follows the thread that forked.
                return process.in_spawner(subprocess.Popen, sandbox.die_with_parent(argv), **kwargs)

            _forkserver = forkserver.ForkServer(
                spawn, {sandbox.OWNER_VAR: str(os.getpid())}, timeout=config.kernel.startup_timeout
            )
        return _forkserver


def close_fork_server() -> None:
    global _forkserver
    with _forkserver_lock:
        if _forkserver is not None:
            _forkserver.close()
            _forkserver = None


def why_exec(config: Config) -> str | None:
    """Why this process's kernels are exec'd rather than forked into their sandboxes (None: forked)."""
    if not config.kernel.fork_server:
        return "kernel.fork_server is false"
    if os.geteuid() != 0:
        return "forking into sandboxes needs root"
    try:
        if sandbox.resolve_mode(config.sandbox, None) != "bwrap":
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
        fork_server(config)
    except KernelError:
        pass  # the first kernel will try again and report it
