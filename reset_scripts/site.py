"""site.* reset steps: one of deskact's offline web apps, in a known state, for the task's world.

``site.serve`` resets the app's database (SQLite backup of a seeded template,
about a millisecond) and makes the world resolve ``<app>.test`` to a loopback
address where a forwarder relays port 80 to the app's socket. The database
and the reset live on the host (``ctx.services["web"]``); the world only ever
holds the apps' data sockets.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Literal

from ..runtime.tasks.steps import StepContext, StepFailed, reset_step
from ..runtime.world import socket_relay
from ..toolkits.web.sites import PORT, SITES

App = Literal["shop", "wiki", "crm"]
_FORWARDER = Path(socket_relay.__file__)
_READY_TIMEOUT = 20.0  # s; the forwarder is a bare Python start, ~50 ms when the machine is idle


def web_host(ctx: StepContext) -> dict[str, Any]:
    """The web service's host handle (shared with judges/site.py)."""
    host = ctx.services.get("web")
    if not host:
        raise StepFailed("the web apps are not running: add `toolkits: [web]` to the task")
    return host


def site(ctx: StepContext, app: str) -> Any:
    return web_host(ctx)["sites"][app]


@reset_step("site.serve")
def site_serve(ctx: StepContext, app: App, seed: str = "default",
               rows: dict[str, list[dict[str, Any]]] | None = None, sql: list[str] | None = None) -> None:
    """Serve ``app`` (shop, wiki or crm) at ``http://<app>.test/`` in the task's world, its database
    reset to ``seed`` (``default``, or ``empty`` for the bare schema), then ``rows`` applied
    (table -> rows; a row whose primary key exists updates only the given columns, others are
    inserted) and ``sql`` statements run. Needs `toolkits: [web]` and a world (root with bubblewrap)."""
    from ..toolkits.web.db import SiteDBError

    running = site(ctx, app)
    try:
        running.db.reset(seed, rows, sql)
    except SiteDBError as exc:
        raise StepFailed(f"site.serve: {exc}") from None
    if ctx.world is None:
        raise StepFailed("site.serve needs the task's world to give the app its hostname (run as root with "
                         "bubblewrap; `deskact doctor` says why worlds are off)")
    _ensure_forwarder(ctx)


def _ensure_forwarder(ctx: StepContext) -> None:
    host = web_host(ctx)
    world = ctx.world
    with host["lock"]:
        proc = host["forwarded"].get(world)
        if proc is not None and proc.poll() is None:
            return
        specs = []
        for name, (_, address) in SITES.items():
            inside = world.sockets.get(host["sites"][name].socket.resolve())
            if inside is None:
                raise StepFailed("the web apps' sockets are not in this task's world: list `web` in the task's "
                                 "toolkits (not only in a reset step)")
            specs.append(f"{address}:{PORT}={inside}")
        _write_hosts(ctx)
        host["forwarded"][world] = _start(world, specs)


def _write_hosts(ctx: StepContext) -> None:
    """Name the apps in the world's own /etc/hosts (its overlay copy; the host's file is untouched)."""
    path = ctx.path("/etc/hosts")
    text = path.read_text(encoding="utf-8") if path.is_file() else "127.0.0.1 localhost\n"
    lines = [f"{address} {hostname}" for hostname, address in SITES.values()]
    missing = [line for line in lines if line not in text.splitlines()]
    if missing:
        path.write_text(text.rstrip("\n") + "\n" + "\n".join(missing) + "\n", encoding="utf-8")
        path.lchown(ctx.world.uid, ctx.world.uid)
        path.chmod(0o644)


def _start(world: Any, specs: list[str]) -> subprocess.Popen[bytes]:
    source = _FORWARDER.read_text(encoding="utf-8")
    proc = world.spawn([sys.executable, "-I", "-S", "-c", source, *specs],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    deadline = time.monotonic() + _READY_TIMEOUT
    line = b""
    while time.monotonic() < deadline and proc.poll() is None:
        if select.select([proc.stdout], [], [], 0.2)[0]:
            line = proc.stdout.readline()
            break
    if line.strip() != b"ready":
        proc.kill()
        err = proc.stderr.read().decode(errors="replace").strip().splitlines()
        raise StepFailed(f"the web apps' forwarder did not start in the world: {err[-1] if err else 'no output'}")
    os.set_blocking(proc.stdout.fileno(), False)
    return proc
