"""The emulator's admin API (/_emulator/...: reset, snapshots) is host-only.

The data endpoints (the socket bound into the sandbox, the host's data TCP port)
answer every admin route with 403, batch parts included; only the admin socket,
never given to a kernel, serves it. Checked on the server itself and from a real
sandboxed kernel, whose agent must not be able to wipe the account or overwrite
a snapshot a later task resets to.
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import stat
import threading
from pathlib import Path

from deskact.runtime.config import Config
from deskact.runtime.tasks.steps import StepContext, run_judge, run_reset
from deskact.runtime.world.kernel import KernelSession
from deskact.toolkits.base import ServiceContext, ServiceHandle
from deskact.toolkits.google.client import build_service
from deskact.toolkits.google.emulator import Emulator, start_server
from deskact.toolkits.google.emulator.cli import serve
from deskact.toolkits.google.emulator.service import URL_ENV
from deskact.toolkits.google.service import google_service

# Every admin route of framework.Emulator._admin, plus paths it would answer 404 to.
ADMIN_CALLS = [
    ("GET", "/_emulator/health", b""),
    ("GET", "/_emulator/snapshots", b""),
    ("POST", "/_emulator/reset", b""),
    ("POST", "/_emulator/reset", b'{"snapshot": "keep"}'),
    ("POST", "/_emulator/snapshot/keep", b""),
    ("DELETE", "/_emulator/snapshot/keep", b""),
    ("GET", "/_emulator/nothing", b""),
    ("GET", "/_emulator", b""),
]


class _UnixHTTPConnection(http.client.HTTPConnection):
    def __init__(self, path: Path) -> None:
        super().__init__("localhost", timeout=10)
        self.path = str(path)

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(self.path)


def _call(conn: http.client.HTTPConnection, method: str, path: str, body: bytes = b"",
          headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    conn.request(method, path, body=body, headers=headers or {})
    resp = conn.getresponse()
    return resp.status, resp.read()


def _batch_reset_body() -> tuple[bytes, str]:
    """A batch whose one part asks for an admin reset (an indirect way in)."""
    boundary = "b0undary"
    body = (f"--{boundary}\r\nContent-Type: application/http\r\nContent-ID: <1>\r\n\r\n"
            f"POST /_emulator/reset HTTP/1.1\r\nContent-Length: 0\r\n\r\n\r\n--{boundary}--\r\n").encode()
    return body, f"multipart/mixed; boundary={boundary}"


def _assert_refused(status: int, body: bytes) -> None:
    assert status == 403, (status, body)
    err = json.loads(body)["error"]
    assert err["errors"][0]["reason"] == "forbidden" and "host-only" in err["message"], err


def _seed(emulator: Emulator) -> None:
    """A calendar and a snapshot ``keep`` holding it: what the refused calls must leave alone."""
    emulator.reset()
    emulator.dispatch("POST", "/calendar/v3/calendars", {"content-type": "application/json"},
                      b'{"summary": "Precious"}', "http://x")
    emulator.snapshot("keep")


def _summaries(emulator: Emulator) -> list[str]:
    return sorted(c["summary"] for c in emulator.store.list("calendar.calendar"))


def test_data_endpoints_refuse_admin_while_the_admin_socket_serves_it(tmp_path: Path) -> None:
    data_sock, admin_sock = tmp_path / "data.sock", tmp_path / "admin.sock"
    emulator = Emulator()
    server = start_server(emulator, port=0, socket_path=data_sock, admin_socket=admin_sock)
    try:
        assert stat.S_IMODE(admin_sock.stat().st_mode) == 0o600
        _seed(emulator)
        host, port = server.url.split("//")[1].split(":")  # type: ignore[union-attr]
        for conn in (_UnixHTTPConnection(data_sock), http.client.HTTPConnection(host, int(port), timeout=10)):
            for method, path, body in ADMIN_CALLS:
                _assert_refused(*_call(conn, method, path, body))
            batch, content_type = _batch_reset_body()
            status, answer = _call(conn, "POST", "/batch/calendar/v3", batch, {"Content-Type": content_type})
            assert status == 200 and b"HTTP/1.1 403" in answer and b"host-only" in answer, answer
            # ...and the Google APIs still answer on the same connection.
            status, answer = _call(conn, "GET", "/calendar/v3/users/me/calendarList")
            assert status == 200 and b"Precious" in answer
        assert _summaries(emulator) == ["Precious", emulator.user]
        assert "keep" in emulator.store.snapshot_names()

        admin = _UnixHTTPConnection(admin_sock)
        assert _call(admin, "GET", "/_emulator/health")[0] == 200
        assert "keep" in json.loads(_call(admin, "GET", "/_emulator/snapshots")[1])["snapshots"]
        assert _call(admin, "POST", "/_emulator/reset")[0] == 200
        assert _summaries(emulator) == [emulator.user]
        assert _call(admin, "POST", "/_emulator/reset", b'{"snapshot": "keep"}')[0] == 200
        assert _summaries(emulator) == ["Precious", emulator.user]
        assert _call(admin, "POST", "/_emulator/snapshot/other")[0] == 200
        assert _call(admin, "DELETE", "/_emulator/snapshot/other")[0] == 204
        assert _call(admin, "GET", "/_emulator/nothing")[0] == 404
        assert _call(admin, "GET", "/calendar/v3/users/me/calendarList")[0] == 200  # it serves everything
    finally:
        server.close()
        emulator.close()
    assert not data_sock.exists() and not admin_sock.exists()


def test_without_an_admin_socket_every_endpoint_serves_admin(tmp_path: Path) -> None:
    # deskact emulate google's default (a notebook or benchmark, no agent).
    emulator = Emulator()
    server = start_server(emulator, port=None, socket_path=tmp_path / "all.sock")
    try:
        assert _call(_UnixHTTPConnection(tmp_path / "all.sock"), "GET", "/_emulator/health")[0] == 200
    finally:
        server.close()
        emulator.close()


def test_cli_admin_socket_option(tmp_path: Path) -> None:
    data_sock, admin_sock = tmp_path / "data.sock", tmp_path / "admin.sock"
    ready, stop = threading.Event(), threading.Event()
    thread = threading.Thread(target=serve, kwargs={"port": None, "socket_path": data_sock,
                                                   "admin_socket": admin_sock, "ready": ready, "stop": stop})
    thread.start()
    try:
        assert ready.wait(30)
        _assert_refused(*_call(_UnixHTTPConnection(data_sock), "POST", "/_emulator/reset"))
        assert _call(_UnixHTTPConnection(admin_sock), "POST", "/_emulator/reset")[0] == 200
    finally:
        stop.set()
        thread.join(10)


def test_worker_service_keeps_the_admin_socket_on_the_host(tmp_path: Path) -> None:
    ctx = ServiceContext(worker_id=0, state_dir=tmp_path / "google", config=Config())
    with google_service(ctx) as handle:
        admin_sock = handle.host["admin_socket"]
        assert set(handle.sockets) == {URL_ENV} and handle.sockets[URL_ENV] != admin_sock
        assert not any(str(admin_sock) in v or "admin" in k.lower() for k, v in handle.env.items())
        assert stat.S_IMODE(admin_sock.stat().st_mode) == 0o600
        assert stat.S_IMODE(admin_sock.parent.stat().st_mode) == 0o700
        _assert_refused(*_call(_UnixHTTPConnection(handle.sockets[URL_ENV]), "POST", "/_emulator/reset"))
        assert _call(_UnixHTTPConnection(admin_sock), "GET", "/_emulator/health")[0] == 200
        # Host judges' googleapiclient services use the data TCP port.
        assert handle.host["clients"].calendar.calendarList().list().execute()["items"]
    assert not admin_sock.exists()


# ---- from a real sandboxed kernel -------------------------------------------------------------

def _run(kernel: KernelSession, code: str) -> str:
    result = kernel.execute(code, timeout=60)
    assert result.error is None, result.error
    return result.stdout


_KERNEL_PROBE = """
import json, os, socket, urllib.request, urllib.error
base = os.environ["DESKACT_GOOGLE_URL"]
def call(method, path, body=b"", content_type=None):
    req = urllib.request.Request(base + path, data=body if method != "GET" else None, method=method)
    if content_type:
        req.add_header("Content-Type", content_type)
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()
out = {"admin": [[m, p, *call(m, p, b)] for m, p, b in CALLS], "batch": call("POST", "/batch/calendar/v3", *BATCH)}
try:
    s = socket.socket(socket.AF_UNIX); s.connect(ADMIN_SOCKET); out["admin_socket"] = "connected"
except OSError as exc:
    out["admin_socket"] = type(exc).__name__
out["env"] = {k: v for k, v in os.environ.items() if "GOOGLE" in k or "EMULATOR" in k or "admin" in v}
print(json.dumps(out))
"""


def test_kernel_is_refused_every_admin_route_but_uses_the_apis(
        kernel: KernelSession, handle: ServiceHandle, tmp_path: Path) -> None:
    ctx = StepContext(workspace=tmp_path, files=tmp_path, home=tmp_path, services={"google": handle.host},
                      config=Config(), task_id="admin-host-only")
    run_reset("google.reset", {}, ctx)
    run_reset("google.calendar_events", {"events": [{"summary": "Precious", "start": "2030-01-02 10:00"}]}, ctx)
    run_reset("google.snapshot", {"name": "keep"}, ctx)
    calls = [[m, p, b.decode()] for m, p, b in ADMIN_CALLS]
    batch, content_type = _batch_reset_body()
    code = (f"CALLS = [(m, p, b.encode()) for m, p, b in {calls!r}]\n"
            f"BATCH = ({batch!r}, {content_type!r})\n"
            f"ADMIN_SOCKET = {str(handle.host['admin_socket'])!r}\n" + _KERNEL_PROBE)
    out = json.loads(_run(kernel, code).strip().splitlines()[-1])

    assert [(m, p) for m, p, *_ in out["admin"]] == [(m, p) for m, p, _ in ADMIN_CALLS]
    for _method, _path, status, body in out["admin"]:
        _assert_refused(status, body.encode())
    status, body = out["batch"]
    assert status == 200 and "HTTP/1.1 403" in body and "host-only" in body, body
    assert out["admin_socket"] != "connected", out
    assert list(out["env"]) == [URL_ENV] and out["env"][URL_ENV].startswith("http://127.0.0.1:"), out["env"]

    # The account and the snapshot are untouched, and the Google APIs still work from the kernel.
    listed = _run(kernel, "print([e['summary'] for e in calendar.events().list(calendarId='primary')"
                          ".execute()['items']])")
    assert listed.strip() == "['Precious']"
    assert "keep" in handle.host["emulator"].store.snapshot_names()
    # Host-side resets and judges still work.
    assert run_judge("google.event_exists", {"summary": "Precious"}, ctx).passed
    run_reset("google.reset", {}, ctx)
    assert not run_judge("google.event_exists", {"summary": "Precious"}, ctx).passed
    run_reset("google.reset", {"snapshot": "keep"}, ctx)
    assert run_judge("google.event_exists", {"summary": "Precious"}, ctx).passed
    assert build_service("calendar", "v3", handle.host["url"]).events().list(calendarId="primary").execute()


def test_admin_socket_is_not_visible_in_the_sandbox_env(kernel: KernelSession, handle: ServiceHandle) -> None:
    values = _run(kernel, "import os; print('\\n'.join(os.environ.values()))")
    assert str(handle.host["admin_socket"]) not in values
    assert os.fspath(handle.host["admin_socket"]) not in {str(p) for p in handle.sockets.values()}
