"""``deskact emulate google``: run one emulator in the foreground.

By default the TCP port and ``--socket`` serve the Google APIs and the admin
API (``/_emulator/...``: reset, snapshots) alike: fine for a notebook or a
benchmark, not for an agent. With ``--admin-socket PATH`` the admin API is
served only on that Unix socket (0600) and the port and ``--socket`` (the data
endpoints, safe to hand to an agent) answer it with 403.
"""

from __future__ import annotations

import signal
import threading
from pathlib import Path

from .framework import Emulator
from .server import start_server


def serve(
    port: int | None = 8085,
    socket_path: Path | None = None,
    admin_socket: Path | None = None,
    state_dir: Path | None = None,
    user: str = "me@deskact.test",
    host: str = "127.0.0.1",
    ready: threading.Event | None = None,
    stop: threading.Event | None = None,
) -> None:
    """Serve until SIGINT/SIGTERM (or until ``stop`` is set). ``port=None`` = Unix socket only."""
    if port is None and socket_path is None:
        raise ValueError("deskact emulate google: give --port or --socket (or both)")
    emulator = Emulator(state_dir=state_dir, user=user)
    running = start_server(emulator, host=host, port=port, socket_path=socket_path, admin_socket=admin_socket)
    stop = stop or threading.Event()
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
    where = [w for w in (running.url, running.socket_path and f"unix:{running.socket_path}") if w]
    admin = f"admin API only on unix:{admin_socket}" if admin_socket else "admin API on all of them"
    print(f"Google API emulator for {user} serving on {' and '.join(map(str, where))}"
          f" ({admin}; state: {state_dir or 'in memory'})", flush=True)
    if ready is not None:
        ready.set()
    try:
        stop.wait()
    finally:
        running.close()
        emulator.close()
