"""A display's VNC server shown in a browser: noVNC's page and a WebSocket bridge, by websockify.

x11vnc speaks RFB over TCP; a browser speaks WebSocket. Debian's ``websockify``
bridges the two and, with ``--web``, also serves noVNC's static page (package
``novnc``, in /usr/share/novnc), so one loopback port gives a page that shows
the display with nothing to install in the browser. Both bind 127.0.0.1 only,
and loopback is shared by every local user and every page a browser opens, so:
websockify accepts a WebSocket only from the page it serves (its Origin), and
x11vnc asks for a per-display password, which the printed page address carries
(noVNC's ``password=`` parameter; see docs/viewer.md).
"""

from __future__ import annotations

import shutil
import socket
from pathlib import Path
from urllib.parse import quote

from ..errors import DisplayError

NOVNC_DIRS = (Path("/usr/share/novnc"), Path("/usr/share/webapps/novnc"))
# view_only: a person watching must not type into an agent's run by accident;
# resize=scale: the whole screen fits the browser window.
PAGE = "vnc.html?autoconnect=1&view_only=1&resize=scale&reconnect=1"
# The same page with input: ``deskact record`` (runtime/record/) has a person act on the display.
# x11vnc itself takes input from any client that knows the password; view_only is noVNC's.
INPUT_PAGE = "vnc.html?autoconnect=1&resize=scale&reconnect=1"


def novnc_dir() -> Path:
    for path in NOVNC_DIRS:
        if (path / "vnc.html").is_file():
            return path
    raise DisplayError("watching a display in the browser needs noVNC (apt-get install novnc websockify)")


def page_origins(web_port: int) -> list[str]:
    """The Origins a browser sends from the served page (by address or by name)."""
    return [f"http://127.0.0.1:{web_port}", f"http://localhost:{web_port}"]


def websockify_argv(web_port: int, vnc_port: int) -> list[str]:
    """The command that serves noVNC on 127.0.0.1:web_port and bridges it to 127.0.0.1:vnc_port,
    refusing (403) a WebSocket upgrade from any other page's Origin, or with none."""
    exe = shutil.which("websockify")
    if exe is None:
        raise DisplayError("watching a display in the browser needs websockify (apt-get install websockify)")
    return [exe, "--web", str(novnc_dir()), "--auth-plugin", "ExpectOrigin",
            "--auth-source", " ".join(page_origins(web_port)), f"127.0.0.1:{web_port}", f"127.0.0.1:{vnc_port}"]


def page_url(web_port: int, password: str | None = None, view_only: bool = True) -> str:
    """The noVNC page's address; ``view_only=False`` sends the browser's mouse and keyboard to the display."""
    secret = f"&password={quote(password, safe='')}" if password else ""
    return f"http://127.0.0.1:{web_port}/{PAGE if view_only else INPUT_PAGE}{secret}"


def listening(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0
