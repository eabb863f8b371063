"""The emulator speaks HTTP defensively: malformed lengths and chunks get a 400, oversized bodies a 413
before they are read, resumable uploads stream to disk within the Drive quota (403
storageQuotaExceeded past it), unfinished upload sessions expire, and a burst of 500 concurrent
requests on loopback is answered in full."""

from __future__ import annotations

import hashlib
import io
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from deskact.toolkits.google.client import build_service
from deskact.toolkits.google.emulator import Emulator, RunningServer, start_server
from deskact.toolkits.google.emulator.limits import EmulatorLimits
from googleapiclient.errors import HttpError
from googleapiclient.http import MediaIoBaseUpload

KIB = 1024
CREATE = "/upload/drive/v3/files?uploadType=media"


@pytest.fixture
def small(tmp_path: Path) -> Iterator[RunningServer]:
    """An emulator with tiny limits: 64 KiB requests, a 1 MiB Drive, sessions that live 0.2 s."""
    limits = EmulatorLimits(max_request_bytes=64 * KIB, drive_quota_bytes=1024 * KIB, upload_session_ttl_s=0.2)
    server = start_server(Emulator(limits=limits, files_dir=tmp_path / "files"), port=0)
    yield server
    server.close()
    server.emulator.close()


def raw_exchange(url: str, head: str, body: bytes = b"") -> tuple[int, dict]:
    """Send ``head`` (and ``body``) on a fresh connection; the status and JSON body of the answer."""
    host, port = url.split("//")[1].split(":")
    with socket.create_connection((host, int(port)), timeout=30) as conn:
        conn.sendall(head.replace("\n", "\r\n").encode() + b"\r\n" + body)
        received = b""
        while b"\r\n\r\n" not in received:
            chunk = conn.recv(65536)
            assert chunk, f"connection closed with no response (got {received!r})"
            received += chunk
        head_bytes, _, rest = received.partition(b"\r\n\r\n")
        length = int(next(line.split(b":")[1] for line in head_bytes.split(b"\r\n")
                          if line.lower().startswith(b"content-length")))
        while len(rest) < length:
            rest += conn.recv(65536)
    return int(head_bytes.split()[1]), json.loads(rest) if rest else {}


@pytest.mark.parametrize("length", ["abc", "-5", "1e20", "12, 13", "٣"])
def test_a_malformed_content_length_is_a_400(emu, length: str) -> None:
    status, body = raw_exchange(emu.url, f"POST /calendar/v3/calendars HTTP/1.1\nHost: x\n"
                                         f"Content-Type: application/json\nContent-Length: {length}\n")
    assert status == 400 and "Content-Length" in body["error"]["message"]


@pytest.mark.parametrize("size", ["zz", "-1", "1" * 40, ""])
def test_a_bad_chunk_size_is_a_400(emu, size: str) -> None:
    status, body = raw_exchange(emu.url, "POST /calendar/v3/calendars HTTP/1.1\nHost: x\n"
                                         "Transfer-Encoding: chunked\n", f"{size}\r\nabc\r\n0\r\n\r\n".encode())
    assert status == 400 and "chunk" in body["error"]["message"]


def test_a_chunk_without_its_crlf_is_a_400(emu) -> None:
    status, _ = raw_exchange(emu.url, "POST /calendar/v3/calendars HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n",
                             b"2\r\nabcd\r\n0\r\n\r\n")
    assert status == 400


def test_an_oversized_body_is_refused_before_it_is_read(small: RunningServer) -> None:
    # Only the head is sent: a server that waited for the gigabyte would never answer.
    status, body = raw_exchange(small.url or "", f"POST {CREATE} HTTP/1.1\nHost: x\nContent-Length: {10**9}\n")
    assert status == 413 and str(64 * KIB) in body["error"]["message"]
    status, _ = raw_exchange(small.url or "", f"POST {CREATE} HTTP/1.1\nHost: x\nContent-Length: {10**9}\n"
                                              "Expect: 100-continue\n")
    assert status == 413


def test_an_oversized_chunked_body_is_a_413(small: RunningServer) -> None:
    chunk = b"x" * (40 * KIB)
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(2)) + b"0\r\n\r\n"
    status, _ = raw_exchange(small.url or "", f"POST {CREATE} HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n", body)
    assert status == 413


def test_resumable_chunks_larger_than_a_request_stream_to_disk(small: RunningServer) -> None:
    drive = build_service("drive", "v3", small.url or "")
    data = bytes(range(256)) * (3 * KIB)  # 768 KiB in 256 KiB chunks, each past the 64 KiB request limit
    media = MediaIoBaseUpload(io.BytesIO(data), "application/octet-stream", chunksize=256 * KIB, resumable=True)
    made = drive.files().create(body={"name": "big.bin"}, media_body=media, fields="id,size,md5Checksum").execute()
    assert made["size"] == str(len(data)) and made["md5Checksum"] == hashlib.md5(data).hexdigest()
    store = small.emulator.store
    on_disk = store.blob_file("drive:" + made["id"])
    assert on_disk is not None and on_disk.read_bytes() == data  # a file, not a database row
    assert drive.files().get_media(fileId=made["id"]).execute() == data
    assert not any(small.emulator.upload_dir.iterdir())  # no chunk or session left behind


def test_the_drive_quota_is_enforced(small: RunningServer) -> None:
    drive = build_service("drive", "v3", small.url or "")
    about = drive.about().get(fields="storageQuota").execute()
    assert about["storageQuota"]["limit"] == str(1024 * KIB)
    part = b"y" * (600 * KIB)

    def upload(name: str) -> None:
        media = MediaIoBaseUpload(io.BytesIO(part), "application/octet-stream", chunksize=256 * KIB, resumable=True)
        drive.files().create(body={"name": name}, media_body=media).execute()

    upload("one")
    with pytest.raises(HttpError) as refused:
        upload("two")
    assert refused.value.resp.status == 403 and b"storageQuotaExceeded" in refused.value.content
    names = [f["name"] for f in drive.files().list().execute()["files"]]
    assert "one" in names and "two" not in names
    # Declared up front, a too large upload is refused before any byte of it.
    status, body = raw_exchange(small.url or "", "POST /upload/drive/v3/files?uploadType=resumable HTTP/1.1\n"
                                                 f"Host: x\nX-Upload-Content-Length: {2 * 1024 * KIB}\n"
                                                 "Content-Length: 0\n")
    assert status == 403 and body["error"]["errors"][0]["reason"] == "storageQuotaExceeded"


def test_unfinished_upload_sessions_expire(small: RunningServer) -> None:
    status, location = _start_resumable(small)
    assert status == 200
    status, _ = raw_exchange(small.url or "", f"PUT {location} HTTP/1.1\nHost: x\nContent-Length: 3\n"
                                              "Content-Range: bytes 0-2/10\n", b"abc")
    assert status == 308
    time.sleep(0.5)  # past the 0.2 s session lifetime
    status, body = raw_exchange(small.url or "", f"PUT {location} HTTP/1.1\nHost: x\nContent-Length: 7\n"
                                                 "Content-Range: bytes 3-9/10\n", b"defghij")
    assert status == 404 and "expired" in body["error"]["message"]
    assert not any(small.emulator.upload_dir.iterdir())


def _start_resumable(server: RunningServer) -> tuple[int, str]:
    host, port = (server.url or "").split("//")[1].split(":")
    with socket.create_connection((host, int(port)), timeout=30) as conn:
        conn.sendall(b"POST /upload/drive/v3/files?uploadType=resumable HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Length: 0\r\n\r\n")
        head = conn.recv(65536).split(b"\r\n\r\n")[0].decode()
    location = next(line.split(": ", 1)[1] for line in head.split("\r\n") if line.lower().startswith("location"))
    parts = urlsplit(location)
    return int(head.split()[1]), f"{parts.path}?{parts.query}"


@pytest.mark.timeout(300)
def test_500_concurrent_requests_are_all_answered(emu) -> None:
    host, port = emu.url.split("//")[1].split(":")
    count = 500
    start = threading.Barrier(count)
    outcomes: list[str] = []
    lock = threading.Lock()

    def one() -> None:
        start.wait()
        try:
            # 10 s: a connection the backlog dropped waits for SYN retries (1 s, 3 s, 7 s ...).
            with socket.create_connection((host, int(port)), timeout=10) as conn:
                conn.sendall(b"GET /calendar/v3/users/me/calendarList HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                reply = conn.recv(100)
            outcome = reply.split(b"\r\n")[0].decode()
        except OSError as exc:
            outcome = type(exc).__name__
        with lock:
            outcomes.append(outcome)

    threads = [threading.Thread(target=one) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    failures = [o for o in outcomes if o != "HTTP/1.1 200 OK"]
    assert not failures, f"{len(failures)} of {count} failed: {sorted(set(failures))}"


def test_the_worker_service_takes_its_limits_from_the_config(tmp_path: Path) -> None:
    from deskact.runtime.config import Config
    from deskact.toolkits.base import ServiceContext
    from deskact.toolkits.google.emulator.service import emulator_service

    config = Config()
    config.google.drive_quota_gb, config.google.max_request_mb = 0.5, 0.001
    with emulator_service(ServiceContext(0, tmp_path / "w0", config)) as handle:
        emulator = handle.host["emulator"]
        assert emulator.limits.drive_quota_bytes == 512 * 1024 * KIB
        assert emulator.store.files_dir == tmp_path / "w0" / "google-files"  # the worker's folder, not memory
        status, _ = raw_exchange(handle.host["url"], f"POST {CREATE} HTTP/1.1\nHost: x\nContent-Length: 5000\n")
        assert status == 413
    assert not (tmp_path / "w0" / "google-files").exists()  # gone with the worker's emulator


def test_a_resumable_chunk_past_the_quota_is_refused_before_it_is_read(small: RunningServer) -> None:
    status, location = _start_resumable(small)
    assert status == 200
    # Only the head is sent: the answer comes without the 2 MiB body.
    status, body = raw_exchange(small.url or "", f"PUT {location} HTTP/1.1\nHost: x\nContent-Length: {2048 * KIB}\n")
    assert status == 403 and body["error"]["errors"][0]["reason"] == "storageQuotaExceeded"


def test_a_body_that_stops_arriving_is_a_408(tmp_path: Path) -> None:
    server = start_server(Emulator(limits=EmulatorLimits(body_idle_s=0.5), files_dir=tmp_path / "f"), port=0)
    try:
        # Three of ten bytes, then silence: the server answers instead of waiting for ever.
        status, body = raw_exchange(server.url or "", "POST /calendar/v3/calendars HTTP/1.1\nHost: x\n"
                                                      "Content-Type: application/json\nContent-Length: 10\n", b'{"s')
        assert status == 408 and "stopped arriving" in body["error"]["message"]
        status, _ = raw_exchange(server.url or "", "GET /calendar/v3/users/me/calendarList HTTP/1.1\nHost: x\n")
        assert status == 200
    finally:
        server.close()
        server.emulator.close()
