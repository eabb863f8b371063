"""The per-worker service: one emulator per worker, for the Google toolkit's ``service``.

The runner calls ``emulator_service(ctx)`` when a worker starts. The emulator
listens on a Unix socket (bound into the sandbox; the kernel session forwards
a loopback port to it and sets ``DESKACT_GOOGLE_URL``) and on a host-only TCP
port that reset steps and judges use (``handle.host["url"]``). Each worker has
its own in-memory SQLite state, so workers never see each other's data.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ...base import ServiceContext, ServiceHandle
from .framework import Emulator
from .server import start_server

URL_ENV = "DESKACT_GOOGLE_URL"
_MAX_SOCKET_PATH = 100  # AF_UNIX paths are limited to 107 bytes on Linux


def _socket_path(state_dir: Path) -> tuple[Path, Path | None]:
    path = state_dir / "google-emulator.sock"
    if len(str(path)) <= _MAX_SOCKET_PATH:
        return path, None
    short = Path(tempfile.mkdtemp(prefix="dg-"))
    return short / "google.sock", short


@contextmanager
def emulator_service(ctx: ServiceContext) -> Iterator[ServiceHandle]:
    """Start this worker's emulator; ``host`` holds ``emulator``, ``url`` and ``socket``."""
    ctx.state_dir.mkdir(parents=True, exist_ok=True)
    sock, tmp_dir = _socket_path(ctx.state_dir)
    emulator = Emulator(state_dir=None, user=ctx.config.google.user)
    running = start_server(emulator, port=0, socket_path=sock)
    try:
        yield ServiceHandle(
            sockets={URL_ENV: sock},
            host={"emulator": emulator, "url": running.url, "socket": sock},
        )
    finally:
        running.close()
        emulator.close()
        if tmp_dir is not None:
            tmp_dir.rmdir()
