"""A display shown in the browser: x11vnc + websockify + noVNC on loopback, checked in headless Chromium."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Callable
from typing import Any

import pytest
from deskact.runtime.world.display import Display

pytestmark = pytest.mark.display
WAIT_S = 60.0


def _until(what: str, check: Callable[[], Any], timeout: float = WAIT_S) -> Any:
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        last = check()
        if last:
            return last
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what} (last: {last!r})")


def test_novnc_page_shows_the_display(requires_xvfb: None, chromium: Any, novnc: Any) -> None:
    if shutil.which("websockify") is None or shutil.which("x11vnc") is None:
        pytest.skip("needs x11vnc, websockify and novnc (scripts/setup.sh installs them)")
    with Display(width=640, height=480, vnc_web=True) as display:
        assert display.web_url and display.web_url.startswith(f"http://127.0.0.1:{display.web_port}/vnc.html?")
        assert display.vnc_url == f"vnc://127.0.0.1:{display.vnc_port}"  # vnc_web implies the VNC server
        # Something red on the screen, to find again in the browser's canvas.
        xterm = subprocess.Popen(["xterm", "-geometry", "40x10+0+0", "-bg", "red", "-T", "red"],
                                 env={**display.env(), "PATH": "/usr/bin:/bin"})
        try:
            chromium.get(display.web_url)
            _until("noVNC connected", novnc.connected)
            _until("the red window on the canvas",
                   lambda: any(r > 200 and g < 60 and b < 60 for r, g, b in novnc.colours()))
        finally:
            xterm.kill()
            xterm.wait()
        port, pids = display.web_port, display.pids
        assert {"web", "vnc", "xvfb"} <= set(pids)
    with socket.socket() as sock:  # stopped with the display
        assert sock.connect_ex(("127.0.0.1", port)) != 0


def test_web_view_binds_only_loopback(requires_xvfb: None) -> None:
    if shutil.which("websockify") is None or shutil.which("x11vnc") is None:
        pytest.skip("needs x11vnc, websockify and novnc (scripts/setup.sh installs them)")
    import psutil

    with Display(width=320, height=240, vnc_web=True) as display:
        listening = [c.laddr for c in psutil.net_connections("tcp")
                     if c.status == psutil.CONN_LISTEN and c.laddr.port in (display.web_port, display.vnc_port)]
        assert listening and all(addr.ip in ("127.0.0.1", "::1") for addr in listening), listening


def test_display_up_web_prints_the_browser_address(requires_xvfb: None) -> None:
    if shutil.which("websockify") is None or shutil.which("x11vnc") is None:
        pytest.skip("needs x11vnc, websockify and novnc (scripts/setup.sh installs them)")
    import sys
    import urllib.request
    from pathlib import Path

    deskact = Path(sys.executable).parent / "deskact"
    proc = subprocess.Popen([str(deskact), "display", "up", "--web", "--width", "640", "--height", "480"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        url = None
        for line in proc.stderr:
            if line.startswith("watch in a browser: "):
                url = line.split(": ", 1)[1].strip()
                break
        assert url and url.startswith("http://127.0.0.1:"), url
        page = urllib.request.urlopen(url, timeout=30).read().decode()
        assert "noVNC" in page
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    port = int(url.split(":")[2].split("/")[0])
    def closed() -> bool:
        with socket.socket() as sock:
            return sock.connect_ex(("127.0.0.1", port)) != 0

    _until("the page server gone", closed)


def _handshake(port: int, origin: str | None) -> str:
    """The status line websockify answers a WebSocket upgrade with."""
    head = (f"GET /websockify HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            + (f"Origin: {origin}\r\n" if origin else "") + "\r\n")
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(head.encode())
        return sock.recv(4096).decode("latin-1").split("\r\n")[0]


def test_websockify_accepts_only_the_served_pages_origin(requires_xvfb: None) -> None:
    if shutil.which("websockify") is None or shutil.which("x11vnc") is None:
        pytest.skip("needs x11vnc, websockify and novnc (scripts/setup.sh installs them)")
    with Display(width=320, height=240, vnc_web=True) as display:
        port = display.web_port
        assert port is not None
        for foreign in ("http://evil.example", f"http://127.0.0.1:{port + 1}", None):
            assert " 403 " in _handshake(port, foreign) + " ", foreign
        assert " 101 " in _handshake(port, f"http://127.0.0.1:{port}")
        assert " 101 " in _handshake(port, f"http://localhost:{port}")


def _rfb_security_types(port: int) -> list[int]:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        version = sock.recv(12)
        assert version.startswith(b"RFB "), version
        sock.sendall(b"RFB 003.008\n")
        count = sock.recv(1)[0]
        return list(sock.recv(count)) if count else []


def test_the_vnc_server_asks_for_the_password_in_the_page_address(requires_xvfb: None) -> None:
    if shutil.which("websockify") is None or shutil.which("x11vnc") is None:
        pytest.skip("needs x11vnc, websockify and novnc (scripts/setup.sh installs them)")
    with Display(width=320, height=240, vnc_web=True) as display, \
            Display(width=320, height=240, vnc_web=True) as other:
        assert display.vnc_port is not None and display.web_url
        assert _rfb_security_types(display.vnc_port) == [2]  # VNC authentication only: no "None" (1)
        assert f"password={display.vnc_password}" in display.web_url
        assert display.vnc_password != other.vnc_password  # one per display
        assert len(display.vnc_password) == 8
