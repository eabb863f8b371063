"""A small host-side DevTools client for judges and reset steps.

The world's Chromium listens on the world's loopback, which the host cannot
reach by address. A socket made by a thread that first joins the world's
network namespace (``setns``) stays in that namespace after the thread is gone,
so the host connects with it: nothing is exposed outside the world, and no
forwarder runs inside it.

Judges need a handful of calls (targets, cookies, one expression on a page), so
this speaks the protocol directly over ``websockets`` instead of starting a
Playwright driver per judge.
"""

from __future__ import annotations

import ctypes
import itertools
import json
import os
import socket
import threading
from typing import Any

from websockets.sync.client import ClientConnection, connect

CLONE_NEWNET = 0x40000000
TIMEOUT = 30.0
"""Seconds any one DevTools exchange may take before the judge fails instead of hanging."""


class CDPError(RuntimeError):
    """DevTools answered with an error or could not be reached."""


def _socket_in(netns_pid: int | None, port: int) -> socket.socket:
    """A TCP connection to 127.0.0.1:``port`` of process ``netns_pid``'s network namespace (ours if None)."""
    if netns_pid is None:
        return socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
    result: dict[str, Any] = {}

    def join_and_connect() -> None:
        # Network namespaces are per thread: only this short-lived thread joins the world's.
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            fd = os.open(f"/proc/{netns_pid}/ns/net", os.O_RDONLY)
            try:
                if libc.setns(fd, CLONE_NEWNET) != 0:
                    err = ctypes.get_errno()
                    raise OSError(err, f"setns into the world's network: {os.strerror(err)}")
            finally:
                os.close(fd)
            result["sock"] = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        except OSError as exc:
            result["error"] = exc

    thread = threading.Thread(target=join_and_connect, name="deskact-cdp-netns")
    thread.start()
    thread.join()
    if "error" in result:
        raise CDPError(f"cannot reach DevTools on the world's port {port}: {result['error']}")
    return result["sock"]


class DevTools:
    """One Chromium's DevTools endpoint: ``targets()`` over HTTP, ``call()`` over the browser's websocket."""

    def __init__(self, port: int, netns_pid: int | None = None) -> None:
        self.port = port
        self.netns_pid = netns_pid
        self._ws: ClientConnection | None = None
        self._ids = itertools.count(1)

    def http(self, path: str) -> Any:
        """GET ``path`` of the DevTools HTTP API (``/json/list``, ``/json/version``) as JSON."""
        sock = _socket_in(self.netns_pid, self.port)
        try:
            # Chromium answers HTTP/1.1 only, to a Host that is an IP address or localhost, and keeps
            # the connection open: the body is read up to its Content-Length.
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n\r\n".encode())
            data = b""
            while b"\r\n\r\n" not in data and (chunk := sock.recv(65536)):
                data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            fields = dict(line.split(b":", 1) for line in head.split(b"\r\n")[1:] if b":" in line)
            length = int(fields.get(b"Content-Length", b"0").strip() or 0)
            while len(body) < length and (chunk := sock.recv(65536)):
                body += chunk
        except (OSError, ValueError) as exc:
            raise CDPError(f"DevTools {path}: {exc}") from exc
        finally:
            sock.close()
        status = head.split(b"\r\n", 1)[0].decode(errors="replace")
        if " 200 " not in status:
            raise CDPError(f"DevTools {path}: {status or 'no answer'}")
        return json.loads(body)

    def targets(self) -> list[dict[str, Any]]:
        """Open tabs (``type == "page"``) in the order Chromium lists them (most recently active first)."""
        return [t for t in self.http("/json/list") if t.get("type") == "page"]

    def _connection(self) -> ClientConnection:
        if self._ws is None:
            ws_url = self.http("/json/version")["webSocketDebuggerUrl"]
            sock = _socket_in(self.netns_pid, self.port)
            try:
                self._ws = connect(ws_url, sock=sock, open_timeout=TIMEOUT, max_size=64 * 2**20).__enter__()
            except Exception as exc:  # any handshake failure means unreachable
                sock.close()
                raise CDPError(f"DevTools websocket: {exc}") from exc
        return self._ws

    def call(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> Any:
        """Send one command (to the browser, or to an attached target's ``session``) and return its result."""
        ws = self._connection()
        msg_id = next(self._ids)
        msg: dict[str, Any] = {"id": msg_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        ws.send(json.dumps(msg))
        while True:
            try:
                reply = json.loads(ws.recv(timeout=TIMEOUT))
            except TimeoutError:
                raise CDPError(f"DevTools {method}: no answer within {TIMEOUT:g} s") from None
            if reply.get("id") == msg_id:
                if "error" in reply:
                    raise CDPError(f"DevTools {method}: {reply['error'].get('message', reply['error'])}")
                return reply.get("result", {})

    def evaluate(self, target_id: str, expression: str) -> Any:
        """The JSON value of ``expression`` evaluated in tab ``target_id``."""
        session = self.call("Target.attachToTarget", {"targetId": target_id, "flatten": True})["sessionId"]
        try:
            result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                    "awaitPromise": True}, session=session)
        finally:
            self.call("Target.detachFromTarget", {"sessionId": session})
        if "exceptionDetails" in result:
            detail = result["exceptionDetails"]
            raise CDPError(f"page script failed: {detail.get('exception', {}).get('description') or detail.get('text')}")
        return result.get("result", {}).get("value")

    def close(self) -> None:
        if self._ws is not None:
            self._ws.close()
            self._ws = None

    def __enter__(self) -> DevTools:  # noqa: PYI034 - a plain class, not subclassed
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
