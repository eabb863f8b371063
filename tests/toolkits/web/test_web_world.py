"""The apps in a real world: reachable by hostname from the world, their databases and resets not.

The kernel (a real sandboxed kernel in its world, the same network namespace as
the world's Chromium) opens http://shop.test/ etc.; the host-side database files,
the worker's folder and any reset route are out of its reach.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from deskact.runtime.config import Config
from deskact.runtime.tasks.steps import StepContext, load_plugins, run_judge, run_reset
from deskact.runtime.world.kernel import KernelSession
from deskact.runtime.world.world import world_status
from deskact.toolkits.base import ServiceContext, ServiceHandle
from deskact.toolkits.web import toolkit
from deskact.toolkits.web.service import web_service

pytestmark = pytest.mark.bwrap


@pytest.fixture(scope="module")
def world_kernel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[KernelSession, ServiceHandle, Path]]:
    ok, why = world_status()
    if not ok:
        pytest.skip(f"this machine cannot make worlds: {why}")
    load_plugins()
    state = tmp_path_factory.mktemp("w") / "web"
    with web_service(ServiceContext(0, state, Config())) as handle, \
            KernelSession(Config(), preload=[("web", toolkit.preload_code())], env=handle.env,
                          sockets=handle.sockets, sandbox="bwrap") as session:
        session.start()
        assert session.world is not None
        yield session, handle, state


def _ctx(session: KernelSession, handle: ServiceHandle, tmp: Path) -> StepContext:
    return StepContext(workspace=Path(session.workspace), files=tmp, home=tmp, services={"web": handle.host},
                       config=Config(), task_id="web-world", world=session.world)


def _run(session: KernelSession, code: str) -> str:
    result = session.execute(code, timeout=120)
    assert result.error is None, result.error
    return result.stdout


def test_the_world_opens_each_app_by_hostname(world_kernel, tmp_path: Path) -> None:
    session, handle, _ = world_kernel
    ctx = _ctx(session, handle, tmp_path)
    host_hosts = Path("/etc/hosts").read_text()
    for app in ("shop", "wiki", "crm"):
        run_reset("site.serve", {"app": app}, ctx)
    proc = handle.host["forwarded"][session.world]
    out = _run(session, """
import json, urllib.request
seen = {}
for name in sites:
    with urllib.request.urlopen(sites[name], timeout=30) as r:
        seen[name] = [r.status, r.read().decode()[:8000]]
print(json.dumps(seen))
""")
    seen = json.loads(out)
    assert seen["shop"][0] == 200 and "Compact Mechanical Keyboard" in seen["shop"][1]
    assert seen["wiki"][0] == 200 and "Release Process" in seen["wiki"][1]
    assert seen["crm"][0] == 200 and "Northwind Services" in seen["crm"][1]
    assert handle.host["forwarded"][session.world] is proc and proc.poll() is None  # one forwarder per world
    assert Path("/etc/hosts").read_text() == host_hosts  # the world's /etc/hosts is its own


def test_what_the_agent_does_is_judged_and_undone_by_the_next_reset(world_kernel, tmp_path: Path) -> None:
    session, handle, _ = world_kernel
    ctx = _ctx(session, handle, tmp_path)
    run_reset("site.serve", {"app": "crm"}, ctx)
    seeded = handle.host["sites"]["crm"].db.dump()
    _run(session, "import requests\n"
                  "r = requests.post(sites.url('crm', 'customers/6/delete'), timeout=30)\nprint(r.status_code)")
    verdict = run_judge("site.state", {"app": "crm", "table": "customers", "where": {"name": "Farid Haddad"},
                                       "count": 0}, ctx)
    assert verdict.passed, verdict.feedback
    run_reset("site.serve", {"app": "crm"}, ctx)
    assert handle.host["sites"]["crm"].db.dump() == seeded


def test_no_reset_route_database_or_worker_folder_is_reachable(world_kernel, tmp_path: Path) -> None:
    session, handle, state = world_kernel
    run_reset("site.serve", {"app": "shop"}, _ctx(session, handle, tmp_path))
    dbs = [str(s.db.path) for s in handle.host["sites"].values()]
    out = _run(session, f"""
import json, os, requests
statuses = {{}}
for name in sites:
    for path in ("_site/reset", "_emulator/reset", "admin/reset", "reset", "_site/db", "static/../../db/shop.db"):
        statuses[name + "/" + path] = requests.post(sites.url(name, path), timeout=30).status_code
paths = {json.dumps(dbs)} + [{str(state)!r}, {str(state.parent)!r}]
visible = [p for p in paths if os.path.exists(p)]
env = {{k: v for k, v in os.environ.items() if k.startswith("DESKACT_SITE")}}
print(json.dumps({{"statuses": statuses, "visible": visible, "env": env}}))
""")
    seen = json.loads(out)
    assert set(seen["statuses"].values()) <= {404, 405}, seen["statuses"]
    assert seen["visible"] == []
    # The kernel holds the three data sockets only (forwarded to loopback ports), nothing else of the service.
    assert sorted(seen["env"]) == ["DESKACT_SITE_CRM_URL", "DESKACT_SITE_SHOP_URL", "DESKACT_SITE_WIKI_URL"]
    assert all(v.startswith("http://127.0.0.1:") for v in seen["env"].values())
    assert set(handle.sockets.values()) == {s.socket for s in handle.host["sites"].values()}
    assert all(not str(p).startswith(str(state / "db")) for p in handle.sockets.values())
    assert oct((state / "db").stat().st_mode & 0o777) == "0o700"
