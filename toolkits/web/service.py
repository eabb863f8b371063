"""The web toolkit's per-worker service: each offline app on a Unix socket, its DB on the host.

- ``sockets``: one data socket per app (``DESKACT_SITE_SHOP_URL`` ...), bound into
  the task's world by the kernel session; ``site.serve`` adds the forwarder that
  gives them their hostnames there. The apps serve pages and forms only.
- ``host["sites"][name]``: the :class:`RunningSite` (its :class:`SiteDB`);
  ``host["forwarded"]``: the worlds that already have the forwarder. Resets
  and judges call it in this process: there is no admin endpoint at all, so no
  route of any socket the world holds can reset, read or replace a database, and
  the database files live in the worker's host folder, which no world shows (on a
  tmpfs of ``world.disk_mb`` as root). Every task that lists the toolkit starts from
  the default seed (``before_task``), whether or not it names ``site.serve``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import weakref
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...runtime.world import reaper
from ..base import ServiceContext, ServiceHandle
from .sites import SITES, socket_env

_MAX_SOCKET_PATH = 100  # AF_UNIX paths are limited to 107 bytes on Linux


@dataclass
class RunningSite:
    name: str
    db: Any
    """The app's :class:`~.db.SiteDB`."""
    socket: Path
    server: Any = field(repr=False, default=None)


def _serve(app: Any, path: Path) -> Any:
    from werkzeug.serving import WSGIRequestHandler, make_server

    class Quiet(WSGIRequestHandler):
        def log_request(self, *args: object) -> None:  # one line per request on the runner's stderr is noise
            pass

    path.unlink(missing_ok=True)
    server = make_server(f"unix://{path}", 0, app, threaded=True, request_handler=Quiet)
    # The world's root is an unprivileged uid on the host; connecting needs write permission.
    path.chmod(0o666)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.5}, daemon=True,
                     name=f"deskact-site-{path.stem}").start()
    return server


@contextmanager
def web_service(ctx: ServiceContext) -> Iterator[ServiceHandle]:
    """Start every app for this worker, each on the default seed."""
    from .apps import APPS
    from .db import SiteDB

    folder = ctx.state_dir
    tmp_dir = None
    if len(str(folder / "crm.sock")) > _MAX_SOCKET_PATH:
        folder = tmp_dir = Path(tempfile.mkdtemp(prefix="dw-"))
        reaper.own(folder)
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o711)  # a kernel-only sandbox (no world) connects to the sockets at these host paths
    db_dir = ctx.state_dir / "db"
    db_dir.mkdir(mode=0o700, exist_ok=True)
    sites: dict[str, RunningSite] = {}
    with ExitStack() as stack:
        if tmp_dir is not None:
            stack.callback(shutil.rmtree, tmp_dir, True)
        if _bounded(db_dir, ctx.config.world.disk_mb):
            stack.callback(_unmount, db_dir)
        for name in SITES:
            db = SiteDB(APPS[name], db_dir / f"{name}.db")
            stack.callback(db.close)
            db.reset()
            sock = folder / f"{name}.sock"
            server = _serve(APPS[name].create(db.path), sock)
            stack.callback(server.server_close)
            stack.callback(server.shutdown)
            sites[name] = RunningSite(name=name, db=db, socket=sock, server=server)

        def before_task() -> None:  # the default seed, whether or not the task lists site.serve
            for running in sites.values():
                running.db.reset()

        yield ServiceHandle(sockets={socket_env(n): s.socket for n, s in sites.items()},
                            host={"sites": sites, "forwarded": weakref.WeakKeyDictionary(),
                                  "lock": threading.Lock()},
                            before_task=before_task)


def _bounded(db_dir: Path, size_mb: int) -> bool:
    """Put the databases on a tmpfs of ``world.disk_mb`` (as root): what a task writes through the
    apps' forms fails with "database or disk is full" past it instead of filling the host's disk
    (every task starts from the seed again, so the bound is per task). False where it cannot be
    mounted (not root): the folder stays on the host's disk."""
    if os.geteuid() != 0:
        return False
    from ...runtime.world import mounts

    try:
        mounts.tmpfs(str(db_dir), size_mb, mode=0o700)
    except Exception:  # noqa: BLE001 - no mount here (a container without CAP_SYS_ADMIN): unbounded
        return False
    return True


def _unmount(db_dir: Path) -> None:
    from ...runtime.world import mounts

    mounts.unmount(str(db_dir))
