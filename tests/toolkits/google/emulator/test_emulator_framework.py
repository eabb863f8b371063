"""The emulator framework: routing, errors, fields, paging, uploads, snapshots, sockets."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from deskact.toolkits.google.client import build_service
from deskact.toolkits.google.emulator import Emulator, start_server
from deskact.toolkits.google.emulator.discovery import Router
from deskact.toolkits.google.emulator.errors import ApiError
from deskact.toolkits.google.emulator.fields import apply_fields, parse_fields
from deskact.toolkits.google.emulator.framework import HANDLERS, split_multipart
from deskact.toolkits.google.emulator.paging import paginate


def test_router_matches_flat_paths_uploads_and_reserved_expansion() -> None:
    router = Router()
    m = router.match("GET", "/calendar/v3/calendars/a%40b.com/events/ev1")
    assert m and m.spec.id == "calendar.events.get" and m.path_params == {"calendarId": "a@b.com", "eventId": "ev1"}
    m = router.match("POST", "/calendar/v3/calendars/primary/events/quickAdd")
    assert m and m.spec.id == "calendar.events.quickAdd"
    m = router.match("POST", "/upload/gmail/v1/users/me/messages/send")
    assert m and m.spec.id == "gmail.users.messages.send" and m.upload == "simple"
    m = router.match("GET", "/v4/spreadsheets/abc/values/Sheet1%21A1%3AB2")
    assert m and m.spec.id == "sheets.spreadsheets.values.get" and m.path_params["range"] == "Sheet1!A1:B2"
    m = router.match("POST", "/v4/spreadsheets/abc/values/Sheet1%21A1:append")
    assert m and m.spec.id == "sheets.spreadsheets.values.append"
    assert router.match("GET", "/calendar/v3/nothing") is None
    assert "/batch" in router.batch_paths and "/batch/calendar/v3" in router.batch_paths


def test_every_registered_handler_names_a_discovery_method() -> None:
    Emulator()  # raises on an unknown method id
    router = Router()
    assert set(HANDLERS) <= set(router.methods)


def test_fields_syntax() -> None:
    data = {"kind": "k", "items": [{"id": 1, "start": {"date": "d", "dateTime": "t"}, "x": 2}], "next": "n"}
    assert apply_fields(data, parse_fields("items(id,start/date),next")) == {
        "items": [{"id": 1, "start": {"date": "d"}}], "next": "n"}
    assert apply_fields(data, parse_fields("items/start")) == {"items": [{"start": {"date": "d", "dateTime": "t"}}]}
    assert apply_fields(data, parse_fields("*")) == data
    assert apply_fields(data, parse_fields("items(*)")) == {"items": data["items"]}
    for bad in ("items(id", "a,,b", "items)"):
        with pytest.raises(ApiError):
            parse_fields(bad)


def test_paging_tokens_are_bound_to_the_query() -> None:
    items = list(range(10))
    page, token = paginate(items, {"maxResults": 4}, default_size=100, max_size=1000)
    assert page == [0, 1, 2, 3] and token
    page2, _token2 = paginate(items, {"maxResults": 4, "pageToken": token}, default_size=100, max_size=1000)
    assert page2 == [4, 5, 6, 7]
    with pytest.raises(ApiError):
        paginate(items, {"maxResults": 4, "pageToken": token, "q": "other"}, default_size=100, max_size=1000)
    assert paginate(items, {"maxResults": 5000}, default_size=100, max_size=3)[0] == [0, 1, 2]


def test_split_multipart_is_binary_safe() -> None:
    body = (b"--XX\r\nContent-Type: application/json\r\n\r\n{\"a\": 1}\r\n--XX\r\n"
            b"Content-Type: application/octet-stream\r\n\r\n\x00\r\n\xff\r\n--XX--\r\n")
    parts = split_multipart(body, 'multipart/related; boundary="XX"')
    assert parts[0][1] == b'{"a": 1}' and parts[1][1] == b"\x00\r\n\xff"
    assert parts[1][0]["content-type"] == "application/octet-stream"


def _request(conn: http.client.HTTPConnection, method: str, path: str, body: bytes | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    conn.request(method, path, body=body, headers=headers or {})
    resp = conn.getresponse()
    return resp.status, {k.lower(): v for k, v in resp.getheaders()}, resp.read()


def test_error_format_auth_and_405(emu: Any) -> None:
    host, port = emu.url.split("//")[1].split(":")
    conn = http.client.HTTPConnection(host, int(port))
    status, _, body = _request(conn, "GET", "/calendar/v3/calendars/primary/events/nope")
    err = json.loads(body)["error"]
    assert status == 404 and set(err) == {"code", "message", "errors", "status"}
    assert set(err["errors"][0]) >= {"domain", "reason", "message"}
    status, _, _ = _request(conn, "GET", "/calendar/v3/calendars/primary", headers={"Authorization": "Basic abc"})
    assert status == 401
    status, _, _ = _request(conn, "GET", "/calendar/v3/calendars/primary", headers={"Authorization": "Bearer anything"})
    assert status == 200
    status, _, _ = _request(conn, "PUT", "/calendar/v3/calendars/primary/events")
    assert status == 405
    status, _, body = _request(conn, "POST", "/calendar/v3/calendars/primary/events", body=b"{not json",
                               headers={"Content-Type": "application/json"})
    assert status == 400 and json.loads(body)["error"]["errors"][0]["reason"] == "parseError"
    status, _, body = _request(conn, "POST", "/calendar/v3/calendars")
    assert status == 400  # body required
    # keep-alive: all of the above went over one connection
    assert conn.sock is not None


def test_unix_socket_and_state_dir_snapshots_survive_restart(tmp_path: Path) -> None:
    sock = tmp_path / "google.sock"
    state = tmp_path / "state"
    emulator = Emulator(state_dir=state)
    server = start_server(emulator, port=None, socket_path=sock)
    try:
        s = socket.socket(socket.AF_UNIX)
        s.connect(str(sock))
        s.sendall(b"POST /calendar/v3/calendars HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 19\r\n\r\n{\"summary\": \"Sock\"}")
        data = b""
        while b"\r\n\r\n" not in data or not data.rstrip().endswith(b"}"):
            data += s.recv(65536)
        s.close()
        assert data.startswith(b"HTTP/1.1 200") and b'"summary":"Sock"' in data
        emulator.snapshot("with-sock")
    finally:
        server.close()
        emulator.close()
    again = Emulator(state_dir=state)
    try:
        def summaries() -> list[str]:
            return [c["summary"] for c in again.store.list("calendar.calendar")]
        assert "Sock" in summaries()  # the state itself persisted
        again.reset()
        assert "Sock" not in summaries()
        again.reset("with-sock")  # the named snapshot was written to disk
        assert "Sock" in summaries()
    finally:
        again.close()


def test_admin_endpoints(emu: Any) -> None:
    host, port = emu.url.split("//")[1].split(":")
    conn = http.client.HTTPConnection(host, int(port))
    assert _request(conn, "GET", "/_emulator/health")[0] == 200
    _request(conn, "POST", "/calendar/v3/calendars", b'{"summary": "S"}', {"Content-Type": "application/json"})
    assert _request(conn, "POST", "/_emulator/snapshot/s1")[0] == 200
    assert "s1" in json.loads(_request(conn, "GET", "/_emulator/snapshots")[2])["snapshots"]
    status, _, body = _request(conn, "POST", "/_emulator/reset")
    assert status == 200 and json.loads(body)["reset"] == "empty"
    assert _request(conn, "POST", "/_emulator/reset", b'{"snapshot": "s1"}')[0] == 200
    assert len(emu.emulator.store.list("calendar.calendar")) == 2
    assert _request(conn, "DELETE", "/_emulator/snapshot/s1")[0] == 204
    assert _request(conn, "POST", "/_emulator/snapshot/bad%20name!")[0] == 400
    assert _request(conn, "GET", "/_emulator/nothing")[0] == 404


def test_resumable_upload_protocol_by_hand(emu: Any) -> None:
    import base64
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["To"], msg["Subject"] = "z@example.com", "chunks"
    msg.set_content("x" * 5000)
    raw = msg.as_bytes()
    host, port = emu.url.split("//")[1].split(":")
    conn = http.client.HTTPConnection(host, int(port))
    status, headers, _ = _request(conn, "POST", "/upload/gmail/v1/users/me/messages/send?uploadType=resumable",
                                  b"{}", {"Content-Type": "application/json", "X-Upload-Content-Type": "message/rfc822",
                                          "X-Upload-Content-Length": str(len(raw))})
    assert status == 200
    location = headers["location"].split(f"{port}", 1)[1]
    status, headers, _ = _request(conn, "PUT", location, raw[:2000],
                                  {"Content-Range": f"bytes 0-1999/{len(raw)}"})
    assert status == 308 and headers["range"] == "bytes=0-1999"
    status, _, body = _request(conn, "PUT", location, raw[2000:],
                               {"Content-Range": f"bytes 2000-{len(raw) - 1}/{len(raw)}"})
    assert status == 200 and json.loads(body)["labelIds"] == ["SENT"]
    sent = json.loads(body)["id"]
    gm = emu.build("gmail", "v1")
    got = gm.users().messages().get(userId="me", id=sent, format="raw").execute()
    assert base64.urlsafe_b64decode(got["raw"]).endswith(raw[-100:])


def test_build_service_routes_everything_to_base_url(emu: Any) -> None:
    svc = build_service("calendar", "v3", emu.url)
    assert svc._baseUrl.startswith(emu.url)
    batch = svc.new_batch_http_request()
    assert batch._batch_uri.startswith(emu.url)


def test_cli_serves_on_port_and_socket(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    sock = tmp_path / "cli.sock"
    code = ("from deskact.toolkits.google.emulator.cli import serve; from pathlib import Path; "
            f"serve(port={port}, socket_path=Path({str(sock)!r}))")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        assert f"127.0.0.1:{port}" in line and str(sock) in line
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        for _ in range(50):
            try:
                assert _request(conn, "GET", "/_emulator/health")[0] == 200
                break
            except ConnectionRefusedError:
                time.sleep(0.1)
        assert sock.exists()
    finally:
        proc.terminate()
        assert proc.wait(timeout=10) == 0


def test_worker_service_gives_each_worker_its_own_state(tmp_path: Path) -> None:
    from deskact.runtime.config import Config
    from deskact.toolkits.base import ServiceContext
    from deskact.toolkits.google.emulator.service import URL_ENV, emulator_service

    config = Config()
    long_dir = tmp_path / ("x" * 120)  # too long for an AF_UNIX path: falls back to a short one
    with emulator_service(ServiceContext(0, tmp_path / "w0", config)) as h0, \
            emulator_service(ServiceContext(1, long_dir, config)) as h1:
        assert h0.sockets[URL_ENV].exists() and h1.sockets[URL_ENV].exists()
        assert len(str(h1.sockets[URL_ENV])) < 108
        cal0 = build_service("calendar", "v3", h0.host["url"])
        cal1 = build_service("calendar", "v3", h1.host["url"])
        cal0.calendars().insert(body={"summary": "only in worker 0"}).execute()
        assert len(cal0.calendarList().list().execute()["items"]) == 2
        assert len(cal1.calendarList().list().execute()["items"]) == 1
        assert cal0.calendars().get(calendarId="primary").execute()["id"] == config.google.user
    assert not h0.sockets[URL_ENV].exists() and not h1.sockets[URL_ENV].exists()


def test_alt_media_on_a_method_without_downloads_is_400(emu: Any) -> None:
    host, port = emu.url.split("//")[1].split(":")
    conn = http.client.HTTPConnection(host, int(port))
    status, _, body = _request(conn, "GET", "/calendar/v3/calendars/primary?alt=media")
    assert status == 400 and json.loads(body)["error"]["errors"][0]["location"] == "alt"


def test_chunked_request_body(emu: Any) -> None:
    host, port = emu.url.split("//")[1].split(":")
    conn = http.client.HTTPConnection(host, int(port))
    chunks = iter([b'{"summary": ', b'"Chunked"}'])
    conn.request("POST", "/calendar/v3/calendars", body=chunks, headers={"Content-Type": "application/json"},
                 encode_chunked=True)
    resp = conn.getresponse()
    assert resp.status == 200 and json.loads(resp.read())["summary"] == "Chunked"
