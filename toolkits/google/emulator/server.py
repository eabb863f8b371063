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
"""

from __future__ import annotations

import os
import socket
import socketserver
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from .framework import Emulator

_REASONS = {200: "OK", 204: "No Content", 304: "Not Modified", 308: "Permanent Redirect"}


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

    def _serve(self) -> None:
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            body = self._read_chunked()
        else:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
        headers = {k.lower(): v for k, v in self.headers.items()}
        host = headers.get("host") or "127.0.0.1"
        resp = self.emulator.dispatch(self.command, self.path, headers, body, f"http://{host}", admin=self.admin)
        reason = self.responses.get(resp.status, ("",))[0] or _REASONS.get(resp.status, "")
        head = [f"HTTP/1.1 {resp.status} {reason}"]
        for name, value in resp.headers.items():
            head.append(f"{name}: {value}")
        head.append(f"Content-Length: {len(resp.body)}")
        if self.close_connection:
            head.append("Connection: close")
        data = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + resp.body
        self.wfile.write(data)
        self.wfile.flush()

    def _read_chunked(self) -> bytes:
        out = bytearray()
        while True:
            size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
            if size == 0:
                while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                    pass  # trailers
                return bytes(out)
            out += self.rfile.read(size)
            self.rfile.readline()  # CRLF after each chunk

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _serve


class _TCPServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


class _UnixServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True


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
