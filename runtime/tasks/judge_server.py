"""The process judges are forked from: a copy of the runner taken while it was quiet.

A judge runs in a child process (limits.py says why). Forking that child from the runner itself is
unsafe: the runner has threads (workers, web apps, capture), and a lock another thread holds at
the fork stays held in the child forever. python-docx's shared lxml parser held by a reset step
of the other worker hung ``docx.paragraph`` to its time limit; SQLite's mutexes hung ``site.state``.
So the runner forks this server once, before its worker threads start (``start_early``), and asks
it for each judge's child; the server has one thread and holds no lock when it forks.

The child gets the judge's context pickled, without what lives only in the runner: the world
(a ``WorldFiles`` view with its root, workspace and uid: enough for ``ctx.path``) and the
services. A judge that reaches for more (``ctx.world.run``, ``ctx.services[...]``) stops at once
with ``NeedsRunner``; it then runs in a runner thread, with the time limit only, and so does that
judge's next call.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import socket
import struct
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

_HEADER = struct.Struct("!Q")
_PRELOAD = ("docx", "pptx", "openpyxl", "lxml.etree", "PIL.Image", "odf.opendocument")


class NeedsRunner(BaseException):
    """The judge used what only the runner has. A BaseException, so a judge's ``except Exception``
    cannot turn it into a verdict."""


_needed: list[str] = []
"""What the judge in this child reached for (set even if the judge caught ``NeedsRunner``)."""


def _needs(what: str) -> NeedsRunner:
    _needed.append(what)
    return NeedsRunner(what)


@dataclass
class WorldFiles:
    """The task's world as a judge's child sees it: its files (through ``ctx.path``), nothing else."""

    root: str
    workspace: str
    uid: int

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)  # pickle and copy probe dunders
        raise _needs(f"ctx.world.{name}")


class RunnerServices(dict[str, Any]):  # a dict so a judge's isinstance checks hold
    """``ctx.services`` in a judge's child: every use says the judge needs the runner."""

    def _refuse(self, *_: Any, **__: Any) -> Any:
        raise _needs("ctx.services")

    __getitem__ = __contains__ = __iter__ = __len__ = get = keys = items = values = _refuse

    def __reduce__(self) -> Any:
        return (RunnerServices, ())


def child_context(ctx: Any) -> Any:
    """``ctx`` as it travels to a judge's child."""
    world = ctx.world
    view = None if world is None else WorldFiles(str(world.root), str(world.workspace), int(world.uid))
    return replace(ctx, world=view, services=RunnerServices() if ctx.services else {})


class JudgeServer:
    """One forked server process and its control socket; ``spawn`` asks it for a judge's child."""

    def __init__(self) -> None:
        from .steps import REGISTRY

        self.judges = dict(REGISTRY["judge"])  # the server knows the judges registered before the fork
        ours, theirs = socket.socketpair()
        _flush_std()
        pid = os.fork()
        if pid == 0:  # the server: never returns
            ours.close()
            _serve(theirs)
        theirs.close()
        self.pid = pid
        self.sock = ours
        self.lock = threading.Lock()

    def spawn(self, request: bytes, write_end: int) -> int:
        """A child for ``request`` (a pickled ``(name, params, ctx, limits, runner pid)``) that
        writes its reply to ``write_end``; its pid, which is also its process group."""
        with self.lock:
            socket.send_fds(self.sock, [_HEADER.pack(len(request))], [write_end])
            self.sock.sendall(request)
            (pid,) = _HEADER.unpack(_read_exact(self.sock, _HEADER.size))
        return pid

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()  # the server sees the end of its socket and exits
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(self.pid, 0)


_server: JudgeServer | None = None
_server_lock = threading.Lock()


def start_early() -> None:
    """Fork the server now, while this process is quiet (before a run's worker threads start), or
    again if a judge was registered since its fork."""
    from .steps import REGISTRY

    with _server_lock:
        _current(lambda server: server.judges == REGISTRY["judge"])


def server_for(name: str, spec: Any) -> JudgeServer:
    """The server, forked again if it does not know this judge (one registered after its fork, as
    tests do) or has died."""
    with _server_lock:
        return _current(lambda server: server.judges.get(name) is spec)


def stop() -> None:
    """End the server; the next judge forks a new one from this process as it is then (after a
    change judges' children must see, such as a test's monkeypatch)."""
    global _server
    with _server_lock:
        server, _server = _server, None
    if server is not None:
        server.close()


def drop(server: JudgeServer) -> None:
    """Forget a server whose socket failed; the next judge forks a new one."""
    global _server
    with _server_lock:
        if _server is server:
            _server = None
    server.close()


def _current(usable: Callable[[JudgeServer], bool]) -> JudgeServer:
    global _server
    server = _server
    if server is not None and not (_server_pid_alive(server) and usable(server)):
        server.close()
        server = None
    if server is None:
        server = _server = JudgeServer()
    return server


def _server_pid_alive(server: JudgeServer) -> bool:
    try:
        pid, _ = os.waitpid(server.pid, os.WNOHANG)
    except ChildProcessError:
        return False  # not our child: forked by the process we were forked from
    return pid == 0


def forget_after_fork() -> None:
    """In a child of the runner: the server belongs to the runner."""
    global _server
    _server = None


os.register_at_fork(after_in_child=forget_after_fork)


# --- the server's side ---------------------------------------------------------------------------


def _serve(sock: socket.socket) -> None:
    code = 0
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the children
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the runner's; it stops the judges
        _close_inherited(keep=sock.fileno())
        for module in _PRELOAD:  # once here, instead of in every child
            with contextlib.suppress(ImportError):
                __import__(module)
        while True:
            message, fds, _flags, _addr = socket.recv_fds(sock, _HEADER.size, 1)
            if not message:
                break  # the runner closed its end: it is gone
            (size,) = _HEADER.unpack(message + _read_exact(sock, _HEADER.size - len(message)))
            request = _read_exact(sock, size)
            pid = os.fork()
            if pid == 0:
                sock.close()
                _judge_child(request, fds[0])
            with contextlib.suppress(OSError):
                os.setpgid(pid, pid)  # also done by the child: whichever runs first
            os.close(fds[0])
            sock.sendall(_HEADER.pack(pid))
    except BaseException:  # noqa: BLE001 - the runner sees the socket close and forks a new server
        code = 1
    finally:
        os._exit(code)


def _close_inherited(keep: int) -> None:
    """File descriptors of the runner (pipes to kernels, sockets of services) are not the server's:
    holding them would keep an end of a pipe open after the runner closed it."""
    for fd in _open_fds():
        if fd > 2 and fd != keep:
            with contextlib.suppress(OSError):
                os.close(fd)


def _open_fds() -> list[int]:
    try:
        return [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        return list(range(3, 1024))


def _judge_child(request: bytes, write_end: int) -> None:
    from . import limits
    from .steps import lookup

    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the judge waits for its own commands' exit codes
    name, params, ctx, step_limits, runner = pickle.loads(request)
    _needed.clear()  # what the process this server was forked from reached for is not this judge's
    limits.set_runner_pid(runner)

    def call() -> Any:
        with limits.applied(step_limits):
            try:
                verdict = lookup("judge", name).call(ctx, params)
            except NeedsRunner:
                verdict = None
            return NeedsRunner(_needed[0]) if _needed else verdict

    limits.child_main(call, write_end, step_limits)


def _read_exact(sock: socket.socket, size: int) -> bytes:
    chunks = []
    while size:
        chunk = sock.recv(min(size, 1 << 20))
        if not chunk:
            raise EOFError("the judge server's socket closed")
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _flush_std() -> None:
    for stream in (sys.stdout, sys.stderr):  # a buffer left unflushed would be written twice
        with contextlib.suppress(Exception):
            stream.flush()
