"""Reading the accessibility tree of the active window over AT-SPI (pure D-Bus, through jeepney).

The tree is walked breadth-first, each level's questions (role, name, states,
box, children) sent together so a level costs one round trip; objects not
shown on screen are not entered. The result is a flat list of ``Element`` (depth-first, with depth)
that ``render`` turns into the compact text a model reads:

    [3] menu "File" (170,12 32x18)
    [12] text "" focused,editable (4,60 1272x600)

Boxes are in screenshot coordinates when a ``scale`` is given. Used by the
observation (host side, through the world's bus socket), the gui toolkit in
the kernel (``a11y.tree()``, ``a11y.click(role, name)``) and the
``a11y.element`` judge.
"""

from __future__ import annotations

import socket
import struct
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pydantic import BaseModel

ROOT = "/org/a11y/atspi/accessible/root"
# AtspiStateType, in enum order (at-spi2-core atspi-constants.h).
STATES = (
    "invalid", "active", "armed", "busy", "checked", "collapsed", "defunct", "editable", "enabled",
    "expandable", "expanded", "focusable", "focused", "has_tooltip", "horizontal", "iconified", "modal",
    "multi_line", "multiselectable", "opaque", "pressed", "resizable", "selectable", "selected", "sensitive",
    "showing", "single_line", "stale", "transient", "vertical", "visible", "manages_descendants",
    "indeterminate", "required", "truncated", "animated", "invalid_entry", "supports_autocompletion",
    "selectable_text", "is_default", "visited", "checkable", "has_popup", "read_only",
)
# What a model needs to act; the rest (enabled, sensitive, visible, showing...) is implied by being listed.
SHOWN_STATES = ("active", "checked", "pressed", "selected", "expanded", "focused", "editable", "indeterminate",
                "read_only")
WINDOW_ROLES = ("frame", "window", "dialog", "alert", "file chooser")


class Element(BaseModel):
    """One object of the tree. ``box`` is (x, y, width, height) in screen pixels."""

    index: int
    depth: int
    role: str
    name: str
    states: list[str]
    box: tuple[int, int, int, int]
    app: str
    """Bus name and object path, to act on it (click) while the app runs."""
    path: str

    def center(self) -> tuple[int, int]:
        x, y, w, h = self.box
        return x + w // 2, y + h // 2


def _auth_anonymous(sock: socket.socket) -> None:
    sock.sendall(b"\0AUTH ANONYMOUS 6465736b616374\r\n")  # trace: "deskact"
    reply = sock.recv(4096)
    if not reply.startswith(b"OK"):
        raise ConnectionError(f"the accessibility bus refused ANONYMOUS authentication: {reply[:80]!r}")
    sock.sendall(b"BEGIN\r\n")


MAX_BUS_BYTES = 64 << 20
"""Bytes one connection reads from a bus at most (a tree read is well under a megabyte): the bus is
the world's, and a process of the world serving it could send a gigabyte in one message."""


def _bounded_connection(sock: socket.socket, limit: int) -> Any:
    """jeepney's blocking connection, refusing to read more than ``limit`` bytes in all."""
    from jeepney.io.blocking import DBusConnection

    class BoundedConnection(DBusConnection):
        read_bytes = 0
        # jeepney's recv(4096) allocates 4 KB for every read, however little arrived; the parser
        # keeps each read until its message is whole, so a peer trickling a huge message in short
        # reads made the runner hold ~4 KB per few bytes counted (520 MB for a 64 MB limit).
        # Reading into one buffer and keeping exact copies makes the count the memory held.
        def __init__(self, sock: socket.socket) -> None:
            self.scratch = bytearray(1 << 16)  # first: the constructor already reads (its Hello)
            super().__init__(sock)

        def _read_some_data(self, timeout: float | None = None) -> tuple[bytes, list[Any]]:
            for key, _events in self.selector.select(timeout):
                if key == self.select_key:
                    got = self.sock.recv_into(self.scratch)
                    if not got:
                        raise ConnectionResetError("the accessibility bus closed the connection")
                    self.read_bytes += got
                    if self.read_bytes > limit:
                        raise ConnectionError(
                            f"the accessibility bus sent more than {limit >> 20} MB: not reading more")
                    return bytes(self.scratch[:got]), []
            raise TimeoutError("no answer from the accessibility bus")

    return BoundedConnection(sock)


@contextmanager
def connect(path: str | Path, timeout: float = 5.0, peer_uids: range | None = None,
            limit: int = MAX_BUS_BYTES) -> Iterator[Any]:
    """A D-Bus connection to the bus socket at ``path``; with ``peer_uids``, only if the process
    that serves it runs as one of those host uids (a world's); it reads at most ``limit`` bytes."""
    sock = socket.socket(socket.AF_UNIX)
    sock.settimeout(timeout)
    try:
        sock.connect(str(path))
        if peer_uids is not None:
            _check_peer(sock, path, peer_uids)
        _auth_anonymous(sock)
        sock.settimeout(None)
        conn = _bounded_connection(sock, limit)
    except Exception:
        sock.close()
        raise
    try:
        yield conn
    finally:
        conn.close()


def _check_peer(sock: socket.socket, path: str | Path, uids: range) -> None:
    """The host reaches a world's bus by a path inside the world, which the world's root can swap
    for a symlink to a host socket right before the connect; so the peer (SO_PEERCRED, in host
    uids) must be a process of the world, or nothing is sent to it."""
    fmt = "3i"  # struct ucred: pid, uid, gid
    _pid, uid, _gid = struct.unpack(fmt, sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                                         struct.calcsize(fmt)))
    if uid not in uids:
        raise PermissionError(f"{path}: served by host uid {uid}, not by a process of the task's world "
                              f"(uids {uids.start}-{uids.stop - 1}); not reading it")


def _call(conn: Any, name: str, path: str, iface: str, method: str, sig: str | None = None,
          body: tuple[Any, ...] = (), timeout: float = 5.0) -> tuple[Any, ...]:
    from jeepney import DBusAddress, MessageType, new_method_call

    reply = conn.send_and_get_reply(new_method_call(DBusAddress(path, name, iface), method, sig, body),
                                    timeout=timeout)
    if reply.header.message_type == MessageType.error:
        raise RuntimeError(f"{iface}.{method} on {name}{path}: {reply.body}")
    return reply.body


def has_owner(conn: Any, bus_name: str) -> bool:
    return bool(_call(conn, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                      "NameHasOwner", "s", (bus_name,))[0])


def _states(bits: list[int]) -> list[str]:
    out = []
    for word, value in enumerate(bits):
        for bit in range(32):
            if value & (1 << bit) and word * 32 + bit < len(STATES):
                out.append(STATES[word * 32 + bit])
    return out


class Unanswered(TimeoutError):
    """Questions an app left unanswered for ``timeout`` seconds of silence on the bus."""


def _batch(conn: Any, calls: list[tuple[str, str, str, str, str | None, tuple[Any, ...]]],
           timeout: float = 10.0, complete: bool = False) -> list[Any]:
    """Send every call, then read the replies: one round trip's latency for the lot, not one each.
    A failed call (an object gone meanwhile) gives None. ``timeout`` is the longest silence waited
    through, not a limit on the whole: an app that answers slowly (a loaded box) but steadily is
    waited for. A hung app's unanswered calls give None, or raise Unanswered when ``complete``
    (a judge must not judge a tree with branches silently missing)."""
    import time

    from jeepney import DBusAddress, HeaderFields, MessageType, new_method_call

    serials = []
    for name, path, iface, method, sig, body in calls:
        serial = next(conn.outgoing_serial)
        conn.send(new_method_call(DBusAddress(path, name, iface), method, sig, body), serial=serial)
        serials.append(serial)
    want = {serial: i for i, serial in enumerate(serials)}
    out: list[Any] = [None] * len(calls)
    deadline = time.monotonic() + timeout
    while want:
        try:
            msg = conn.receive(timeout=max(0.01, deadline - time.monotonic()))
        except TimeoutError:  # an app busy or hung: what it did not answer stays None
            if complete:
                raise Unanswered(f"{len(want)} of {len(calls)} accessibility questions had no answer after"
                                 f" {timeout:g} s without any reply (an application hung?)") from None
            break
        i = want.pop(msg.header.fields.get(HeaderFields.reply_serial, -1), None)
        if i is not None:
            deadline = time.monotonic() + timeout  # a reply: the app is answering, keep waiting
            if msg.header.message_type != MessageType.error:
                out[i] = msg.body
    return out


_ACC, _COMP = "org.a11y.atspi.Accessible", "org.a11y.atspi.Component"


ObjectRef = tuple[str, str]
"""An accessible object: (bus name, object path)."""
Described = tuple[str, str, list[str], tuple[int, ...], list[ObjectRef]]
"""(role, name, states, extents, children) of an object."""


def _ref(pair: Any) -> ObjectRef:
    """An object reference as D-Bus sends it (a 2-item struct)."""
    return (pair[0], pair[1])


def _describe(conn: Any, objects: list[ObjectRef], timeout: float = 10.0) -> list[Described | None]:
    """(role, name, states, extents, children) of each (bus name, path), in a few round trips."""
    calls: list[tuple[str, str, str, str, str | None, tuple[Any, ...]]] = []
    for app, path in objects:
        calls += [(app, path, _ACC, "GetRoleName", None, ()),
                  (app, path, "org.freedesktop.DBus.Properties", "Get", "ss", (_ACC, "Name")),
                  (app, path, _ACC, "GetState", None, ()),
                  (app, path, _COMP, "GetExtents", "u", (0,)),
                  (app, path, _ACC, "GetChildren", None, ())]
    replies = _batch(conn, calls, timeout)
    out: list[Described | None] = []
    for i in range(len(objects)):
        role, name, state, extents, children = replies[i * 5:i * 5 + 5]
        if role is None or state is None:
            out.append(None)
            continue
        out.append((role[0], name[0][1] if name else "", _states(state[0]),
                    tuple(extents[0]) if extents else (0, 0, 0, 0), [_ref(c) for c in children[0]] if children else []))
    return out


def read_tree(bus: str | Path, max_elements: int = 300, max_children: int = 200,
              timeout: float = 10.0, peer_uids: range | None = None) -> list[Element]:
    """The active window's shown elements (depth-first), or [] when no app exports a tree.

    Walked breadth-first with each level's questions sent together; children of an
    object not shown on screen are not visited, nor past ``max_children`` of one
    object (a spreadsheet's table manages millions of cells). An app slower than
    ``timeout`` per level (LibreOffice starting on a loaded box) leaves out what it
    did not answer."""
    with connect(bus, peer_uids=peer_uids) as conn:
        apps = _call(conn, "org.a11y.atspi.Registry", ROOT, _ACC, "GetChildren")[0]
        roots = [d for d in _describe(conn, [_ref(a) for a in apps], timeout) if d is not None]
        windows = [w for d in roots for w in d[4]]
        described = _describe(conn, windows, timeout)
        candidates = [(w, d) for w, d in zip(windows, described, strict=True)
                      if d is not None and "showing" in d[2]]
        if not candidates:
            return []
        active = [c for c in candidates if "active" in c[1][2]]
        window, info = (active or candidates)[-1]
        # Breadth-first with batched questions, then laid out depth-first.
        nodes: dict[ObjectRef, Described] = {window: info}
        level, asked = [window], 1
        # The budget counts objects asked about, not only those shown: hidden ones (a sidebar's
        # closed decks) must not use up the places of shown ones further down (the document).
        while level and len(nodes) < max_elements and asked < 10 * max_elements:
            nxt = [c for obj in level for c in nodes[obj][4][:max_children]]
            nxt = [c for c in nxt if c not in nodes][: 10 * max_elements - asked]
            asked += len(nxt)
            for obj, d in zip(nxt, _describe(conn, nxt, timeout), strict=True):
                if d is not None and "showing" in d[2] and len(nodes) < max_elements:
                    nodes[obj] = d
            level = [c for c in nxt if c in nodes]
        out: list[Element] = []

        def visit(obj: ObjectRef, depth: int) -> None:
            role, name, states, box, children = nodes[obj]
            out.append(Element(index=len(out), depth=depth, role=role, name=name,
                               states=[s for s in states if s in SHOWN_STATES],
                               box=tuple(box[:4]), app=obj[0], path=obj[1]))
            for child in children[:max_children]:
                if child in nodes:
                    visit(child, depth + 1)

        visit(window, 0)
        return out


def render(elements: list[Element], scale: float = 1.0, skip_unnamed: bool = True) -> str:
    """Compact text, one element a line, boxes times ``scale`` (screenshot pixels).

    Unnamed containers (panels, fillers) are left out but their children stay, so
    the text holds what a model can act on."""
    lines = []
    for e in elements:
        if skip_unnamed and not e.name and e.depth > 0 and not e.states:
            continue
        x, y, w, h = (round(v * scale) for v in e.box)
        states = f" {','.join(e.states)}" if e.states else ""
        lines.append(f"{'  ' * min(e.depth, 8)}[{e.index}] {e.role} {e.name!r}{states} ({x},{y} {w}x{h})")
    return "\n".join(lines)


def find(elements: list[Element], role: str | None = None, name: str | None = None,
         exact: bool = False) -> list[Element]:
    """Elements with ``role`` and a name equal to (``exact``) or containing ``name``, case-insensitively."""
    want = (name or "").casefold()
    return [e for e in elements if (role is None or e.role == role)
            and (name is None or (e.name.casefold() == want if exact else want in e.name.casefold()))]
