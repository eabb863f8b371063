"""Offline web apps: what a task's reset costs, and a page through the world's forwarder.

Run: .venv/bin/python benchmarks/web_reset.py [--n 200]
Prints median and p95 (ms) of:
- SiteDB.reset per app (the database back to its seed: SQLite backup API), after an
  agent-like change each time so every reset has work to do;
- site.serve on the host without a world (reset + step machinery; it then says it needs
  a world) and, where worlds can be made, site.serve in a world that already has the
  forwarder (every reset after the first of a task) and the first one (starts it);
- GET / of each app from the world's kernel through the forwarder.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from deskact.runtime.config import Config
from deskact.runtime.tasks.steps import StepContext, load_plugins, run_reset
from deskact.toolkits.base import ServiceContext
from deskact.toolkits.web import toolkit
from deskact.toolkits.web.service import web_service

CHANGES = {
    "shop": ["INSERT INTO cart_items VALUES (2, 1)", "UPDATE orders SET status = 'cancelled' WHERE id = 2"],
    "wiki": ["UPDATE pages SET body = 'x' WHERE id = 2", "DELETE FROM comments"],
    "crm": ["DELETE FROM customers WHERE id = 6", "UPDATE settings SET value = 'USD' WHERE key = 'currency'"],
}


def measure(n: int, fn: Callable[[], Any], before: Callable[[], Any] = lambda: None) -> tuple[float, float]:
    times = []
    for _ in range(n):
        before()
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def show(label: str, result: tuple[float, float]) -> None:
    print(f"{label:<48} median {result[0]:8.2f} ms   p95 {result[1]:8.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=200)
    n = parser.parse_args().n
    load_plugins()
    tmp = Path(tempfile.mkdtemp())
    with web_service(ServiceContext(0, tmp / "web", Config())) as handle:
        sites = handle.host["sites"]
        for name, running in sites.items():
            db = running.db
            show(f"SiteDB.reset {name}", measure(n, db.reset, lambda db=db, name=name: _change(db, name)))
        ctx = StepContext(workspace=tmp, files=tmp, home=tmp, services={"web": handle.host}, config=Config())

        def serve_no_world() -> None:
            with contextlib.suppress(Exception):  # "needs a world" is raised after the reset
                run_reset("site.serve", {"app": "shop"}, ctx)

        show("site.serve shop (host, no world)", measure(n, serve_no_world))
        _in_world(n, handle, tmp)


def _change(db: Any, name: str) -> None:
    from deskact.toolkits.web.apps.common import connect

    conn = connect(db.path)
    with conn:
        for statement in CHANGES[name]:
            conn.execute(statement)
    conn.close()


def _in_world(n: int, handle: Any, tmp: Path) -> None:
    from deskact.runtime.world.kernel import KernelSession
    from deskact.runtime.world.world import world_status

    ok, why = world_status()
    if not ok:
        print(f"(no world here: {why})")
        return
    with KernelSession(Config(), preload=[("web", toolkit.preload_code())], env=handle.env,
                       sockets=handle.sockets, sandbox="bwrap") as session:
        session.start()
        ctx = StepContext(workspace=Path(session.workspace), files=tmp, home=tmp, services={"web": handle.host},
                          config=Config(), world=session.world)
        start = time.perf_counter()
        run_reset("site.serve", {"app": "shop"}, ctx)
        print(f"{'site.serve shop (world, first: starts forwarder)':<48} {1000 * (time.perf_counter() - start):8.2f} ms")
        show("site.serve shop (world, forwarder running)", measure(n, lambda: run_reset("site.serve", {"app": "shop"}, ctx)))
        code = ("import json, time, urllib.request\nout = {}\n"
                f"for name in sites:\n    ts = []\n    for _ in range({min(n, 100)}):\n"
                "        t = time.perf_counter()\n        urllib.request.urlopen(sites[name], timeout=30).read()\n"
                "        ts.append((time.perf_counter() - t) * 1000)\n    ts.sort()\n"
                "    out[name] = [ts[len(ts) // 2], ts[int(0.95 * (len(ts) - 1))]]\nprint(json.dumps(out))")
        result = session.execute(code, timeout=600)
        for name, (p50, p95) in json.loads(result.stdout).items():
            show(f"GET http://{name}.test/ from the world's kernel", (p50, p95))


if __name__ == "__main__":
    main()
