"""Kernels forked from a pre-imported one into each sandbox (bwrap, as root).

Starting a kernel costs ~165 ms of CPU, nearly all of it Python start-up and
imports (ipykernel, jupyter_client, zmq, tornado, IPython), once per task.
The fork server is one process per deskact process that has done those
imports once. For each kernel:

1. bwrap builds the sandbox exactly as for an exec'd kernel (mounts; PID,
   network, IPC and UTS namespaces; the session's uid) around a placeholder
   that prints ``ready`` and sleeps;
2. the fork server forks a child that joins the placeholder's namespaces
   (setns; mount last), and forks again so that the kernel is inside the PID
   namespace; the kernel reads its environment from a root-only file in the
   session's private dir (so it never passes through the server, whose
   memory later kernels inherit), drops to the session's uid (which clears
   every capability), sets no_new_privs, the rlimits and cwd, closes every
   inherited descriptor, and runs ipykernel (``launcher.run``);
3. killing bwrap ends the namespace's init, and the kernel with it. The host
   watches the kernel itself through a pidfd (``KernelProcess``).

Toolkits may name modules for the server to import once and share
(``Toolkit.fork_imports``): the GUI and Google kernels' own modules, and
pyautogui's dependencies (numpy and OpenCV among them, through pyscreeze).

Used only as root with bwrap: setns and the uid switch need root, and without
namespaces there is nothing to join. ``kernel.fork_server: false`` turns it
off. The fork server's own environment holds nothing secret (only PATH, LANG,
the owner marker and ``_ONE_THREAD``): it is what ``/proc/PID/environ`` shows
for every kernel it forks. It must stay single-threaded: it forks. Native
libraries that start a thread pool when loaded (OpenBLAS under numpy and
OpenCV) are told to use one thread, so loading them starts none; forked
kernels keep that setting, and a kernel whose environment sets one of those
variables itself is exec'd (``can_fork``).
"""

from __future__ import annotations

import ctypes
import gc
import json
import os
import resource
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ...errors import KernelError


class ForkServerError(KernelError):
    """The fork server cannot make kernels here (kernels are then exec'd instead)."""

# The kernel joins these, mount last: after it, /proc is the sandbox's.
_NAMESPACES = ("ipc", "uts", "net", "pid", "mnt")
_PR_SET_NO_NEW_PRIVS = 38
_PR_SET_CHILD_SUBREAPER = 36
_PR_SET_DUMPABLE = 4
# What kernel start-up imports after ipykernel.kernelapp (measured: the modules
# a started kernel has beyond that import). Importing them has no side effects.
_PRELOAD_MODULES = (
    "ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.zmqshell", "IPython.core.completerlib",
    "IPython.core.debugger", "IPython.core.oinspect", "IPython.extensions.storemagic", "sqlite3", "pdb",
    "tornado.platform.asyncio", "tornado.queues", "tornado.locks", "tornado.gen", "faulthandler",
    "unicodedata", "email.parser", "code",
    "deskact.runtime.world.kernel.boot", "deskact.runtime.world.kernel.shell",
)
PLACEHOLDER = ["/bin/sh", "-c", "echo ready && exec sleep infinity"]
# Python reads PYTHON* variables when it starts, which a forked kernel does not:
# these it applies itself; any other one (PYTHONHASHSEED, ...) means exec instead.
_APPLIED_AFTER_FORK = frozenset({"PYTHONPATH", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE"})
_ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
"""Read by OpenBLAS (numpy's, OpenCV's) and OpenMP when the library loads: in the server, a pool of
one thread is no thread at all."""


def can_fork(env: dict[str, str]) -> bool:
    """Would a kernel forked with this environment behave as one exec'd with it?"""
    return not any((name.startswith("PYTHON") and name not in _APPLIED_AFTER_FORK) or name in _ONE_THREAD
                   for name in env)


# -- the server (its own process) ----------------------------------------------

def serve(sock: socket.socket) -> None:
    """Answer spawn requests until the host closes the socket."""
    from . import launcher

    launcher.prepare()
    for name in _PRELOAD_MODULES:
        __import__(name)
    gc.freeze()  # forked kernels then share these pages instead of copying them on the first collection
    # A kernel's parent (our child) exits at once. Orphans go to the nearest subreaper
    # in the parent's PID namespace: us, rather than the host's init, which may never reap them.
    if _libc().prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")
    signal.signal(signal.SIGCHLD, _reap)
    sock.send(b"ready")
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(sock, 1 << 20, 3)
        except OSError:
            return
        if not data:
            return
        try:
            reply = _spawn(json.loads(data), fds, sock)
        except Exception as exc:  # noqa: BLE001 - e.g. fork() refused: tell the host, keep serving
            reply = {"error": f"{type(exc).__name__}: {exc}"}
        sock.send(json.dumps(reply).encode())


def _spawn(request: dict[str, Any], fds: list[int], sock: socket.socket) -> dict[str, Any]:
    """Fork a child that joins the sandbox and forks the kernel; report its pid (or why not)."""
    _import_shared(request.get("imports", []))
    if threading.active_count() != 1:  # a thread's locks would be copied held
        return {"error": "the fork server has started a thread; it can no longer fork safely"}
    report_r, report_w = os.pipe()
    child = os.fork()
    if child == 0:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the kernel reaps its own `!cmd` children
        os.close(report_r)
        sock.close()
        _enter_sandbox(request, fds, report_w)  # never returns
    os.close(report_w)
    for fd in fds:
        os.close(fd)
    try:
        os.waitpid(child, 0)  # it exits as soon as the kernel is forked
    except ChildProcessError:
        pass  # _reap got there first
    with os.fdopen(report_r, "rb") as report:
        data = report.read()
    return json.loads(data) if data else {"error": "the fork server's child died before forking the kernel"}


def _import_shared(names: list[str]) -> None:
    """Import toolkit modules once for all later kernels (``Toolkit.fork_imports``)."""
    new = [name for name in names if name not in sys.modules]
    if not new:
        return
    # An import may run a program and wait for it (pyscreeze looks for scrot with `which`): our
    # SIGCHLD handler would reap it first and the import would read a wrong exit status.
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    try:
        for name in new:
            try:
                __import__(name)
            except Exception:  # noqa: BLE001 - the kernel's own preload imports it again and reports
                pass
    finally:
        signal.signal(signal.SIGCHLD, _reap)
        _reap(signal.SIGCHLD, None)  # a kernel's forking child that exited meanwhile
    gc.freeze()


def _reap(signum: int, frame: object) -> None:
    """Collect every exited child: the kernels we adopted, and the forking children."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _enter_sandbox(request: dict[str, Any], fds: list[int], report_w: int) -> None:
    try:
        for procs in request.get("cgroups", []):  # the world's cgroup, while its files are still in reach
            Path(procs).write_text(str(os.getpid()))
        _join_namespaces(int(request["ns_pid"]), int(request["uid"]), bool(request.get("userns")))
        kernel = os.fork()  # the first process to enter the PID namespace is this child's child
    except BaseException as exc:  # noqa: BLE001 - reported to the host
        os.write(report_w, json.dumps({"error": f"{type(exc).__name__}: {exc}"}).encode())
        os._exit(1)
    if kernel:
        os.write(report_w, json.dumps({"pid": kernel}).encode())
        os._exit(0)
    os.close(report_w)
    try:
        _become_kernel(request, fds)
    except BaseException:  # noqa: BLE001 - into the kernel log, which the host shows
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(1)
    os._exit(0)


def _join_namespaces(ns_pid: int, uid: int, userns: bool) -> None:
    # The placeholder runs as the session's uid: a pid reused by anything else is refused.
    if os.stat(f"/proc/{ns_pid}").st_uid != uid:
        raise KernelError(f"process {ns_pid} is not the sandbox placeholder of uid {uid}")
    # A world has its own user namespace, joined first: its other namespaces belong to it.
    namespaces = ("user", *_NAMESPACES) if userns else _NAMESPACES
    handles = [os.open(f"/proc/{ns_pid}/ns/{ns}", os.O_RDONLY) for ns in namespaces]
    for ns, fd in zip(namespaces, handles):
        if _libc().setns(fd, 0) != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"setns({ns}): {os.strerror(err)}")
        os.close(fd)


def _become_kernel(request: dict[str, Any], fds: list[int]) -> None:
    os.setsid()
    for target, fd in enumerate(fds):  # stdin, stdout, stderr (the kernel log: errors from here on)
        os.dup2(fd, target)
    # The environment comes in a root-only file in the session's private dir, read here
    # (still root, already in the sandbox) and removed: it never passes through the server,
    # whose memory every later kernel inherits.
    env_file = Path(request["env_file"])
    env = json.loads(env_file.read_text())
    env_file.unlink()
    os.closerange(3, resource.getrlimit(resource.RLIMIT_NOFILE)[0])  # the host's socket above all
    for name, value in request["rlimits"].items():
        resource.setrlimit(getattr(resource, f"RLIMIT_{name.upper()}"), (value, value))
    # In a world the kernel is its root: uid 0 of the world's user namespace (an unprivileged host uid).
    # With world.user = user: the agent's account, whose sudo needs setuid to work (no no_new_privs;
    # setuid there reaches the world's root, no further).
    uid = int(request.get("inner_uid", 0)) if request.get("userns") else int(request["uid"])
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)  # from root to a non-root uid: every capability is dropped
    # Changing uid made the process undumpable (its /proc files root-only); an exec would
    # have reset that, as it does for exec'd kernels. Same behaviour either way.
    options = [(_PR_SET_DUMPABLE, "PR_SET_DUMPABLE")]
    if not (request.get("userns") and uid != 0):
        options.append((_PR_SET_NO_NEW_PRIVS, "PR_SET_NO_NEW_PRIVS"))
    for option, what in options:
        if _libc().prctl(option, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), f"prctl({what})")
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(env)
    # What the interpreter would have done with these at start-up (see can_fork).
    if os.environ.get("PYTHONPATH"):
        sys.path[0:0] = [p for p in os.environ["PYTHONPATH"].split(os.pathsep) if p]
    sys.dont_write_bytecode = bool(os.environ.get("PYTHONDONTWRITEBYTECODE"))
    from . import launcher

    launcher.run(request["argv"])


# -- the host side -----------------------------------------------------------------

Spawn = Callable[..., "subprocess.Popen[bytes]"]


class ForkServer:
    """The host's handle on its fork server. Thread-safe; one request at a time."""

    def __init__(self, spawn: Spawn, owner_env: dict[str, str], timeout: float) -> None:
        self._lock = threading.Lock()
        self._dir = Path(tempfile.mkdtemp(prefix="deskact-forkserver-"))
        from .. import reaper  # here, not at the top: the kernel side imports this module too

        reaper.own(self._dir)
        self.log = self._dir / "log"
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        env = {"PATH": os.environ.get("PATH", os.defpath), "LANG": "C.UTF-8", "PYTHONUNBUFFERED": "1", **_ONE_THREAD,
               **owner_env}
        with open(self.log, "wb") as log:
            self.proc = spawn(
                [sys.executable, "-m", "deskact.runtime.world.kernel.forkserver", str(theirs.fileno())],
                pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=log, env=env, cwd="/",
            )
        theirs.close()
        self._sock = ours
        self._sock.settimeout(timeout)
        try:
            if self._sock.recv(16) != b"ready":
                raise ForkServerError(f"the kernel fork server did not start:\n{self.log_tail()}")
        except OSError as exc:
            self.close()
            raise ForkServerError(f"the kernel fork server did not start ({exc}):\n{self.log_tail()}") from exc

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def spawn(self, ns_pid: int, uid: int, argv: list[str], env_file: Path, cwd: Path,
              rlimits: dict[str, int], stdio: tuple[int, int, int], imports: Sequence[str] = (),
              userns: bool = False, cgroups: Sequence[str] = (), inner_uid: int = 0) -> int:
        """Fork a kernel into the sandbox whose placeholder is ``ns_pid``; its pid (host view).

        ``env_file``: the kernel's environment as JSON, at a path the sandbox shows (root-only;
        the kernel removes it). ``imports``: modules to import into the server first (once), for
        this kernel and the next. ``userns``: the sandbox is a world (join its user namespace, become
        its root); ``cgroups``: its cgroup.procs files, joined before the namespaces.
        """
        request = {"ns_pid": ns_pid, "uid": uid, "argv": argv, "env_file": str(env_file), "cwd": str(cwd),
                   "rlimits": rlimits, "imports": list(imports), "userns": userns, "cgroups": list(cgroups),
                   "inner_uid": inner_uid}
        with self._lock:
            try:
                socket.send_fds(self._sock, [json.dumps(request).encode()], list(stdio))
                data = self._sock.recv(1 << 16)
            except OSError as exc:
                raise ForkServerError(f"the kernel fork server failed ({exc}):\n{self.log_tail()}") from exc
        if not data:
            raise ForkServerError(f"the kernel fork server exited:\n{self.log_tail()}")
        reply = json.loads(data)
        if "error" in reply:
            raise ForkServerError(f"the kernel fork server could not start a kernel: {reply['error']}")
        return int(reply["pid"])

    def log_tail(self, limit: int = 1500) -> str:
        try:
            return self.log.read_text(errors="replace")[-limit:].strip()
        except OSError:
            return ""

    def close(self) -> None:
        self._sock.close()  # the server exits on EOF
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self._dir, ignore_errors=True)


def placeholder_pid(bwrap_pid: int, uid: int) -> int:
    """The placeholder's pid: bwrap -> its init in the PID namespace -> the placeholder (our uid)."""
    for init in children(bwrap_pid):
        for pid in children(init):
            if os.stat(f"/proc/{pid}").st_uid == uid:
                return pid
    raise ForkServerError(f"no sandbox placeholder running as uid {uid} under bwrap (pid {bwrap_pid})")


def children(pid: int) -> list[int]:
    """The pids of ``pid``'s child processes (from /proc; empty once it is gone)."""
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def wait_ready(stream: Any, timeout: float) -> bool:
    """Did the placeholder print ``ready`` (its sandbox is built) within ``timeout``?"""
    ready, _, _ = select.select([stream], [], [], timeout)
    return bool(ready) and stream.readline().strip() == b"ready"


class KernelProcess:
    """A forked kernel, watched through a pidfd (it is not our child)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._fd: int | None = os.pidfd_open(pid)

    @property
    def alive(self) -> bool:
        if self._fd is None:
            return False
        exited, _, _ = select.select([self._fd], [], [], 0)
        return not exited

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


if __name__ == "__main__":
    from .launcher import drop_cwd_from_path

    drop_cwd_from_path()  # started with cwd=/, but be sure
    serve(socket.socket(fileno=int(sys.argv[1])))
