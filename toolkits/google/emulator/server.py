"""HTTP/1.1 servers (TCP and Unix socket) in front of an :class:`Emulator`.

Stdlib only: ``http.server`` with one thread per connection and keep-alive, so
httplib2 (googleapiclient's transport) reuses its connection. Each response is
written with a single ``sendall`` and TCP_NODELAY is set: small split writes
on a keep-alive connection otherwise wait ~40 ms for delayed ACKs.
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
        resp = self.emulator.dispatch(self.command, self.path, headers, body, f"http://{host}")
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
    """A serving emulator. ``url`` is the TCP base URL (None if only a socket)."""

    emulator: Emulator
    url: str | None
    socket_path: Path | None
    _servers: list[socketserver.BaseServer] = field(default_factory=list)
    _threads: list[threading.Thread] = field(default_factory=list)

    def close(self) -> None:
        for srv in self._servers:
            srv.shutdown()
            srv.server_close()
        for t in self._threads:
            t.join(timeout=5)
        if self.socket_path and self.socket_path.exists():
            self.socket_path.unlink()

    def __enter__(self) -> RunningServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def start_server(
    emulator: Emulator,
    host: str = "127.0.0.1",
    port: int | None = 0,
    socket_path: Path | None = None,
) -> RunningServer:
    """Serve ``emulator`` in background threads on a TCP port (0 = any free one;
    None = no TCP) and/or a Unix socket. Returns at once, already accepting."""
    handler_cls = type("EmulatorHandler", (_Handler,), {"emulator": emulator})
    running = RunningServer(emulator, None, socket_path)
    if port is not None:
        tcp = _TCPServer((host, port), handler_cls)
        running.url = f"http://{host}:{tcp.server_address[1]}"
        running._servers.append(tcp)
    if socket_path is not None:
        socket_path = Path(socket_path)
        if socket_path.exists():
            socket_path.unlink()
        socket_path.parent.mkdir(parents=True, exist_ok=True)
        unix = _UnixServer(str(socket_path), handler_cls)
        os.chmod(socket_path, 0o666)  # the sandboxed kernel may run as another uid
        running._servers.append(unix)
    if not running._servers:
        raise ValueError("start_server needs a TCP port or a socket path")
    for srv in running._servers:
        t = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True,
                             name=f"google-emulator-{type(srv).__name__}")
        t.start()
        running._threads.append(t)
    return running
