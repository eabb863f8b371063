"""The per-worker service: one emulator per worker, for the Google toolkit's ``service``.

The runner calls ``emulator_service(ctx)`` when a worker starts. Each worker has
its own in-memory SQLite state, so workers never see each other's data; large
content and unfinished uploads are files under the worker's state folder. The
emulator listens on:

- a data Unix socket, the only endpoint bound into the sandbox (the kernel
  session forwards a loopback port to it and sets ``DESKACT_GOOGLE_URL``);
- a data TCP port on the host's loopback (``handle.host["url"]``) for the
  host-side googleapiclient services (``host["clients"]``) judges use;
- an admin Unix socket (``handle.host["admin_socket"]``, 0600 in a 0700
  folder, never in ``sockets``/``env``): the only endpoint that serves
  ``/_emulator/...`` (reset, snapshots). Both data endpoints answer it with
  403, so an agent cannot wipe the account or overwrite a snapshot. Reset steps
  call ``host["emulator"]`` (the in-process :class:`Emulator`) directly.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ....runtime.world import reaper
from ...base import ServiceContext, ServiceHandle
from .framework import Emulator
from .limits import MIB, EmulatorLimits
from .server import start_server

URL_ENV = "DESKACT_GOOGLE_URL"
_MAX_SOCKET_PATH = 100  # AF_UNIX paths are limited to 107 bytes on Linux


def _socket_paths(state_dir: Path) -> tuple[Path, Path, Path | None]:
    """(data socket, admin socket, temporary folder to remove or None)."""
    folder, tmp_dir = state_dir, None
    if len(str(folder / "admin" / "google-emulator.sock")) > _MAX_SOCKET_PATH:
        folder = tmp_dir = Path(tempfile.mkdtemp(prefix="dg-"))
        reaper.own(folder)
    admin_dir = folder / "admin"
    admin_dir.mkdir(mode=0o700, exist_ok=True)
    admin_dir.chmod(0o700)  # mkdir's mode is masked by the umask; an existing folder keeps its own
    return folder / "google-emulator.sock", admin_dir / "google-emulator.sock", tmp_dir


@contextmanager
def emulator_service(ctx: ServiceContext) -> Iterator[ServiceHandle]:
    """Start this worker's emulator; ``host`` holds ``emulator``, ``url`` (data, TCP),
    ``socket`` (data, the kernel's) and ``admin_socket``."""
    ctx.state_dir.mkdir(parents=True, exist_ok=True)
    sock, admin_sock, tmp_dir = _socket_paths(ctx.state_dir)
    google = ctx.config.google
    limits = EmulatorLimits(max_request_bytes=int(google.max_request_mb * MIB),
                            drive_quota_bytes=int(google.drive_quota_gb * 1024 * MIB),
                            upload_session_ttl_s=google.upload_session_ttl_s)
    # Large uploads live on disk in the worker's state folder, not in the runner's memory.
    emulator = Emulator(state_dir=None, user=google.user, limits=limits, files_dir=ctx.state_dir / "google-files")
    running = start_server(emulator, port=0, socket_path=sock, admin_socket=admin_sock)
    try:
        yield ServiceHandle(
            sockets={URL_ENV: sock},
            host={"emulator": emulator, "url": running.url, "socket": sock, "admin_socket": admin_sock},
        )
    finally:
        running.close()
        emulator.close()
        if tmp_dir is not None:
            shutil.rmtree(tmp_dir, ignore_errors=True)
