"""Kernels never outlive the runtime: every live session's kernel, and the fork server,
are killed at interpreter exit and on SIGTERM."""

from __future__ import annotations

import atexit
import os
import signal
import threading
import weakref
from typing import TYPE_CHECKING, Any

from . import launch_forked

if TYPE_CHECKING:
    from .session import KernelSession

_live: weakref.WeakSet[KernelSession] = weakref.WeakSet()
_live_lock = threading.Lock()
_handlers_installed = False


def register(session: KernelSession) -> None:
    with _live_lock:
        _live.add(session)
    _install_exit_handlers()


def unregister(session: KernelSession) -> None:
    with _live_lock:
        _live.discard(session)


def kill_all() -> None:
    """Kill every kernel this process started, and the fork server (atexit, SIGTERM)."""
    with _live_lock:
        sessions = list(_live)
    for session in sessions:
        try:
            session._kill()
            if session.world is not None:
                session.world.close()  # its processes, cgroup and mounts
        except Exception:  # noqa: BLE001 - keep killing the others
            pass
    launch_forked.close_fork_server()


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
