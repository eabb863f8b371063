"""vlc.playing: what VLC is playing, read from its web interface's ``/requests/status.xml`` as
OSWorld's ``get_vlc_playing_info`` getter reads it (state, file, fullscreen).

VLC listens on the world's own loopback (``apps.vlc`` with ``http: true``), which the host cannot
reach by address: the connection is made by a short-lived thread that joins the world's network
namespace (``toolkits/browser/cdp.py``'s way), so nothing is exposed outside the world and nothing
runs inside it for the judge; the world is thawed for the question (judges run with it frozen).
Whatever answers there is the agent's: the answer is read up to a
size limit and parsed by expat with no entity expansion beyond its own guards.
"""

from __future__ import annotations

import base64
import xml.etree.ElementTree as ET
from contextlib import nullcontext
from typing import Literal

from ..reset_scripts.apps.vlc import HTTP_PASSWORD, HTTP_PORT
from ..runtime.tasks.steps import StepContext, Verdict, judge
from ..toolkits.browser.cdp import CDPError, _socket_in

MAX_STATUS_BYTES = 1024 * 1024
TIMEOUT_S = 10.0


def fetch_status(netns_pid: int | None, port: int = HTTP_PORT, password: str = HTTP_PASSWORD) -> bytes:
    """The body of VLC's ``/requests/status.xml`` (HTTP basic auth, empty user name)."""
    try:
        sock = _socket_in(netns_pid, port)
    except CDPError as exc:
        raise OSError(str(exc).replace("DevTools", "VLC's web interface")) from exc
    auth = base64.b64encode(f":{password}".encode()).decode()
    try:
        sock.settimeout(TIMEOUT_S)
        sock.sendall(f"GET /requests/status.xml HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n"
                     f"Authorization: Basic {auth}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        while len(data) <= MAX_STATUS_BYTES and (chunk := sock.recv(65536)):
            data += chunk
    finally:
        sock.close()
    if len(data) > MAX_STATUS_BYTES:
        raise OSError(f"VLC's status is over {MAX_STATUS_BYTES} bytes")
    head, _, body = data.partition(b"\r\n\r\n")
    status_line = head.split(b"\r\n", 1)[0].decode(errors="replace")
    if " 200 " not in status_line + " ":
        raise OSError(f"VLC's web interface answered {status_line!r}")
    return body


NAME_FIELDS = ("filename", "title", "uri", "location", "name")
"""The meta fields OSWorld's is_vlc_playing (desktop-env 1.0.2) takes the open file's name from: the
first one present and not empty."""


class PlayingInfo:
    """What status.xml says: ``state`` (playing, paused, stopped), the file's name, fullscreen."""

    def __init__(self, xml: bytes) -> None:
        root = ET.fromstring(xml)
        self.state = (root.findtext("state") or "").strip()
        self.fullscreen = (root.findtext("fullscreen") or "").strip().lower() in ("true", "1")
        self.file = ""
        for category in root.iter("category"):
            if category.get("name") == "meta":
                for info in category.iter("info"):
                    if info.get("name") == "filename":
                        self.file = (info.text or "").strip()
        # As is_vlc_playing reads it: the meta category directly under <information>, text unstripped.
        texts = (root.findtext(f"information/category[@name='meta']/info[@name='{n}']") for n in NAME_FIELDS)
        self.name = next((t for t in texts if t), "")


@judge("vlc.playing")
def vlc_playing(ctx: StepContext, state: Literal["playing", "paused", "stopped"] | None = None,
                file: str | None = None, file_end: str | None = None, fullscreen: bool | None = None) -> Verdict:
    """VLC (started by ``apps.vlc`` with ``http: true``) is in ``state``, has the file named ``file``
    open (its name, as VLC's status shows it) and is fullscreen or not, each when given; read from
    its web interface's status.xml inside the task's world, as OSWorld's VLC playing metrics do.
    ``file_end``: the open item's name ends with it, the name taken as OSWorld's ``is_vlc_playing``
    takes it (the first of the meta fields filename, title, uri, location and name that is there and
    not empty)."""
    if state is None and file is None and file_end is None and fullscreen is None:
        raise ValueError("vlc.playing needs a state, a file, a file_end or fullscreen")
    try:
        # Judges run with the world frozen; VLC answers only while it runs (browser.py's way).
        with ctx.world.thawed() if ctx.world is not None else nullcontext():
            status = fetch_status(ctx.world.pid if ctx.world is not None else None)
        info = PlayingInfo(status)
    except OSError as exc:
        return Verdict.fail(f"VLC's status cannot be read (is VLC running with its web interface?): {exc}")
    except ET.ParseError as exc:
        return Verdict.fail(f"VLC's status is not XML: {exc}")
    wrong = []
    if state is not None and info.state != state:
        wrong.append(f"VLC should be {state} but is {info.state or 'in no state'}")
    if file is not None and info.file != file:
        wrong.append(f"VLC should have {file!r} open but has {info.file or 'nothing'!r}")
    if file_end is not None and not (info.name and info.name.endswith(file_end)):
        wrong.append(f"VLC should have a file whose name ends with {file_end!r} open but has {info.name or 'nothing'!r}")
    if fullscreen is not None and info.fullscreen != fullscreen:
        wrong.append(f"VLC should {'' if fullscreen else 'not '}be fullscreen")
    if wrong:
        return Verdict.fail("; ".join(wrong))
    return Verdict.ok(f"VLC is {info.state}" + (f" with {info.file!r}" if info.file else "")
                      + (", fullscreen" if info.fullscreen else ""))

