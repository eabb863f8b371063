"""HTTP/1.1 servers (TCP and Unix socket) in front of an :class:`Emulator`.

Stdlib only: ``http.server`` with one thread per connection and keep-alive, so
httplib2 (googleapiclient's transport) reuses its connection. Each response is
written with a single ``sendall`` and TCP_NODELAY is set: small split writes
on a keep-alive connection otherwise wait ~40 ms for delayed ACKs.

Data vs admin: by default every listener serves everything. Given
``admin_socket``, the admin API (``/_emulator/...``: reset, snapshots) is
served only on that Unix socket (mode 0600, host only) and the TCP port and
``socket_path`` (the data endpoints, the only ones ever handed to a kernel)
answer it with 403.

Defensive reading: a Content-Length that is not a plain number, a bad chunk size
or chunk ending answer 400; a body past ``limits.max_request_bytes`` answers 413
before any of it is read (also to ``Expect: 100-continue``). Resumable upload
chunks stream to a file in the emulator's upload folder instead, within the
room the Drive quota leaves. The listen backlog holds ``LISTEN_BACKLOG``
connections, so a burst of clients waits instead of being refused.
"""

from __future__ import annotations

import os
import re
import secrets
import socket
import socketserver
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from .errors import ApiError
from .framework import Emulator, RawResponse, error_response

_REASONS = {200: "OK", 204: "No Content", 304: "Not Modified", 308: "Permanent Redirect"}
LISTEN_BACKLOG = 1024
_DIGITS = re.compile(r"[0-9]{1,19}")
_CHUNK_SIZE = re.compile(rb"[0-9A-Fa-f]{1,16}")
_LINE_LIMIT = 65536
_BLOCK = 1024 * 1024
_RESUMABLE_HINT = "; send a large file as a resumable upload (MediaFileUpload(path, resumable=True))"


class _Refused(Exception):
    """A request refused before (or while) reading its body; the connection then closes."""

    def __init__(self, status: int, message: str, reason: str) -> None:
        super().__init__(message)
        self.error = ApiError(status, message, reason)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "deskact-google-emulator"
    emulator: Emulator  # set on the subclass built per server
    admin = True  # False on data endpoints: /_emulator/ answers 403

    def setup(self) -> None:
        super().setup()
        if self.connection.family in (socket.AF_INET, socket.AF_INET6):
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def address_string(self) -> str:  # Unix sockets have no client address
        return str(self.client_address[0]) if self.client_address else "unix"

    def log_message(self, format: str, *args: object) -> None:  # quiet: one line per request is noise
        pass

    def handle_expect_100(self) -> bool:
        try:
            self._body_limit()
        except _Refused as refused:
            self._refuse(refused)
            return False
        return super().handle_expect_100()

    def _serve(self) -> None:
        body_file: Path | None = None
        try:
            body, body_file = self._read_body()
        except _Refused as refused:
            if body_file is not None:
                body_file.unlink(missing_ok=True)
            self._refuse(refused)
            return
        headers = {k.lower(): v for k, v in self.headers.items()}
        host = headers.get("host") or "127.0.0.1"
        resp = self.emulator.dispatch(self.command, self.path, headers, body, f"http://{host}", admin=self.admin,
                                      body_file=body_file)
        self._write(resp)

    def _write(self, resp: RawResponse) -> None:
        if resp.file is not None:
            try:
                content = resp.file.open("rb")
            except OSError:  # content replaced by a reset while the request ran
                self._write(error_response(ApiError(404, "the file's content is gone", "notFound")))
                return
            with content:
                self._write_head(resp, os.fstat(content.fileno()).st_size, b"")
                self.connection.sendfile(content)
            return
        self._write_head(resp, len(resp.body), resp.body)

    def _write_head(self, resp: RawResponse, length: int, body: bytes) -> None:
        reason = self.responses.get(resp.status, ("",))[0] or _REASONS.get(resp.status, "")
        head = [f"HTTP/1.1 {resp.status} {reason}"]
        for name, value in resp.headers.items():
            head.append(f"{name}: {value}")
        head.append(f"Content-Length: {length}")
        if self.close_connection:
            head.append("Connection: close")
        data = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body
        self.wfile.write(data)
        self.wfile.flush()

    def _refuse(self, refused: _Refused) -> None:
        # What is left of the body is unread: the connection cannot carry another request.
        self.close_connection = True
        self._write(error_response(refused.error))

    def _body_limit(self) -> tuple[int, bool]:
        """(most body bytes this request may send, whether they stream to disk); raises
        _Refused for a malformed or too large Content-Length."""
        room = self.emulator.upload_room(self.path)
        limit = self.emulator.limits.max_request_bytes if room is None else room
        lengths = self.headers.get_all("Content-Length") or []
        if lengths:
            if len(set(lengths)) > 1 or not _DIGITS.fullmatch(lengths[0].strip()):
                raise _Refused(400, f"Content-Length {', '.join(lengths)!r} is not one number of bytes", "badRequest")
            if int(lengths[0]) > limit and room is not None:  # a resumable chunk: only the quota bounds it
                raise _Refused(403, "The user's Drive storage quota has been exceeded.", "storageQuotaExceeded")
            if int(lengths[0]) > limit:
                raise _Refused(413, f"the request body ({int(lengths[0])} bytes) is larger than the "
                               f"{limit} bytes this request may send{_RESUMABLE_HINT}", "uploadTooLarge")
        return limit, room is not None

    def _read_body(self) -> tuple[bytes, Path | None]:
        self.connection.settimeout(self.emulator.limits.body_idle_s)
        try:
            return self._read_body_in_time()
        except TimeoutError:
            raise _Refused(408, f"the request body stopped arriving for {self.emulator.limits.body_idle_s:g} s",
                           "requestTimeout") from None
        finally:
            self.connection.settimeout(None)  # an idle keep-alive connection may wait for its next request

    def _read_body_in_time(self) -> tuple[bytes, Path | None]:
        limit, to_disk = self._body_limit()
        chunked = "chunked" in (self.headers.get("Transfer-Encoding") or "").lower()
        length = 0 if chunked else int((self.headers.get("Content-Length") or "0").strip())
        if not to_disk:
            if chunked:
                return b"".join(self._chunks(limit)), None
            return (self._read_exactly(length) if length else b""), None
        target = self.emulator.upload_dir / f".chunk-{secrets.token_hex(8)}"
        with target.open("wb") as out:
            try:
                if chunked:
                    for block in self._chunks(limit):
                        out.write(block)
                else:
                    while length:
                        block = self._read_exactly(min(length, _BLOCK))
                        out.write(block)
                        length -= len(block)
            except (_Refused, TimeoutError):
                target.unlink(missing_ok=True)
                raise
        return b"", target

    def _read_exactly(self, size: int) -> bytes:
        data = self.rfile.read(size)
        if len(data) != size:
            raise _Refused(400, f"the body ended after {len(data)} of {size} bytes", "badRequest")
        return data

    def _chunks(self, limit: int) -> Iterator[bytes]:
        """The blocks of a chunked body; 400 for a malformed chunk, 413 past ``limit``."""
        total = 0
        while True:
            line = self.rfile.readline(_LINE_LIMIT)
            size_text = line.split(b";")[0].strip()
            if not _CHUNK_SIZE.fullmatch(size_text):
                raise _Refused(400, f"bad chunk size {size_text[:40]!r} in a chunked body", "badRequest")
            size = int(size_text, 16)
            if size == 0:
                for _ in range(100):  # trailers, to the blank line
                    if self.rfile.readline(_LINE_LIMIT) in (b"\r\n", b"\n", b""):
                        return
                raise _Refused(400, "too many trailer lines after a chunked body", "badRequest")
            total += size
            if total > limit:
                raise _Refused(413, f"the chunked request body passes the {limit} bytes this request may send"
                               f"{_RESUMABLE_HINT}", "uploadTooLarge")
            while size:
                block = self._read_exactly(min(size, _BLOCK))
                size -= len(block)
                yield block
            if self.rfile.readline(_LINE_LIMIT) not in (b"\r\n", b"\n"):
                raise _Refused(400, "a chunk does not end with CRLF", "badRequest")

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _serve


class _ClosesConnections(socketserver.BaseServer):
    """A server that can close the connections it still serves (``close_connections``). A client
    that keeps its keep-alive connection open (an idle ``httplib2.Http`` in a runner thread) would
    otherwise keep the connection's handler thread waiting for the next request, and through its
    handler class the whole emulator, after the server has stopped: one emulator per worker leaked."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._open: set[Any] = set()
        self._open_lock = threading.Lock()
        super().__init__(*args, **kwargs)

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._open_lock:
            self._open.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self._open_lock:
            self._open.discard(request)
        super().shutdown_request(request)

    def close_connections(self) -> None:
        """End every connection still open: its handler reads EOF and its thread ends."""
        with self._open_lock:
            still = list(self._open)
        for conn in still:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass  # closed by its handler meanwhile


class _TCPServer(_ClosesConnections, ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = LISTEN_BACKLOG


class _UnixServer(_ClosesConnections, socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True
    request_queue_size = LISTEN_BACKLOG


@dataclass
class RunningServer:
    """A serving emulator. ``url`` is the TCP base URL (None if only a socket);
    ``admin_socket`` the host-only admin socket (None: every endpoint serves admin)."""

    emulator: Emulator
    url: str | None
    socket_path: Path | None
    admin_socket: Path | None = None
    _servers: list[socketserver.BaseServer] = field(default_factory=list)
    _threads: list[threading.Thread] = field(default_factory=list)

    def close(self) -> None:
        for srv in self._servers:
            srv.shutdown()
            if isinstance(srv, _ClosesConnections):
                srv.close_connections()
            srv.server_close()
        for t in self._threads:
            t.join(timeout=5)
        for path in (self.socket_path, self.admin_socket):
            if path and path.exists():
                path.unlink()

    def __enter__(self) -> RunningServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def start_server(
    emulator: Emulator,
    host: str = "127.0.0.1",
    port: int | None = 0,
    socket_path: Path | None = None,
    admin_socket: Path | None = None,
) -> RunningServer:
    """Serve ``emulator`` in background threads on a TCP port (0 = any free one;
    None = no TCP) and/or a Unix socket. Returns at once, already accepting.

    ``admin_socket``: serve the admin API only there (a 0600 Unix socket); the
    TCP port and ``socket_path`` then refuse it with 403 (see the module docstring)."""
    data_only = admin_socket is not None
    data_cls = type("EmulatorHandler", (_Handler,), {"emulator": emulator, "admin": not data_only})
    running = RunningServer(emulator, None, Path(socket_path) if socket_path else None,
                            Path(admin_socket) if admin_socket else None)
    if port is not None:
        tcp = _TCPServer((host, port), data_cls)
        running.url = f"http://{host}:{tcp.server_address[1]}"
        running._servers.append(tcp)
    if socket_path is not None:
        # 0666: the sandboxed kernel may run as another uid
        running._servers.append(_unix_server(Path(socket_path), data_cls, 0o666))
    if admin_socket is not None:
        admin_cls = type("EmulatorAdminHandler", (_Handler,), {"emulator": emulator, "admin": True})
        running._servers.append(_unix_server(Path(admin_socket), admin_cls, 0o600))
    if not running._servers:
        raise ValueError("start_server needs a TCP port or a socket path")
    for srv in running._servers:
        t = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True,
                             name=f"google-emulator-{type(srv).__name__}")
        t.start()
        running._threads.append(t)
    return running


def _unix_server(path: Path, handler_cls: type[_Handler], mode: int) -> _UnixServer:
    # chmod follows bind: a 0600 socket is private from the start only inside a private
    # folder (emulator_service puts its admin socket in a 0700 one).
    if path.exists():
        path.unlink()
    path.parent.mkdir(parents=True, exist_ok=True)
    server = _UnixServer(str(path), handler_cls)
    os.chmod(path, mode)
    return server
