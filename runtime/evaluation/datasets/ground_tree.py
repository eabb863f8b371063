"""The accessibility tree as ``deskact datasets ground`` reads it: every state, the ancestors' clip.

``runtime/agent/a11y.py`` reads what a model should see (shown states only, a flat list); making
and proving a grounding sample needs more: every state bit (``checkable``, ``selected``,
``manages_descendants``), each element's box clipped by its ancestors' boxes and the screen (a menu
bar of height 0 hides its menus, a scrolled-away paragraph keeps its box), one object's states
again after a click, a table's cell at (row, column), and an object's text. The questions are
the same batched AT-SPI calls ``a11y`` sends (one round trip per tree level).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...agent import a11y

Ref = tuple[str, str]
"""(bus name, object path) of an accessible object."""
Rect = tuple[int, int, int, int]
"""(x0, y0, x1, y1), edges inclusive, in screen pixels."""


@dataclass
class Node:
    """One shown object of a window's tree."""

    ref: Ref
    role: str
    name: str
    states: frozenset[str]
    box: tuple[int, int, int, int]
    """(x, y, width, height) as the app reports it."""
    depth: int
    parent: int | None
    """Index of the parent node (None for the window)."""
    visible: Rect | None
    """The box cut to its ancestors' boxes and the screen, None when nothing of it is left."""
    children: list[Ref] = field(default_factory=list)
    index: int = 0
    locate: Callable[[], Ref | None] | None = None
    """Finds the object again (a spreadsheet cell's object is made afresh each time it is asked for)."""

    def centre(self) -> tuple[int, int]:
        x0, y0, x1, y1 = self.rect()
        return (x0 + x1) // 2, (y0 + y1) // 2

    def rect(self) -> Rect:
        x, y, w, h = self.box
        return x, y, x + w - 1, y + h - 1


def _clip(a: Rect | None, b: Rect) -> Rect | None:
    if a is None:
        return None
    x0, y0, x1, y1 = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    return (x0, y0, x1, y1) if x0 <= x1 and y0 <= y1 else None


NO_CHILDREN_ROLES = ("table", "tree table")
"""Roles whose children are not asked for when they manage their descendants: a spreadsheet's
table answers GetChildren with every cell of the sheet (seconds, megabytes); ``cells`` asks for
the ones wanted."""


def _describe(conn: Any, objects: list[Ref], timeout: float = 10.0) -> list[Any]:
    """``a11y._describe`` without GetChildren for a table that manages its descendants."""
    calls: list[tuple[str, str, str, str, str | None, tuple[Any, ...]]] = []
    for app, path in objects:
        calls += [(app, path, a11y._ACC, "GetRoleName", None, ()),
                  (app, path, "org.freedesktop.DBus.Properties", "Get", "ss", (a11y._ACC, "Name")),
                  (app, path, a11y._ACC, "GetState", None, ()),
                  (app, path, a11y._COMP, "GetExtents", "u", (0,))]
    replies = a11y._batch(conn, calls, timeout)
    out: list[Any] = []
    wants_children = []
    for i in range(len(objects)):
        role, name, state, extents = replies[i * 4:i * 4 + 4]
        if role is None or state is None:
            out.append(None)
            continue
        states = a11y._states(state[0])
        out.append([role[0], name[0][1] if name else "", states, tuple(extents[0]) if extents else (0, 0, 0, 0), []])
        if not (role[0] in NO_CHILDREN_ROLES and "manages_descendants" in states):
            wants_children.append(i)
    kids = a11y._batch(conn, [(*objects[i], a11y._ACC, "GetChildren", None, ()) for i in wants_children], timeout)
    for i, reply in zip(wants_children, kids, strict=True):
        if reply is not None:
            out[i][4] = [a11y._ref(c) for c in reply[0]]
    return [tuple(d) if d is not None else None for d in out]


def _connect(bus: Any) -> Any:
    return a11y.connect(bus.socket, peer_uids=bus.peer_uids)


def windows(bus: Any) -> list[tuple[Ref, str, str, frozenset[str]]]:
    """Every top-level window of every app on the bus: (ref, role, name, states)."""
    with _connect(bus) as conn:
        apps = a11y._call(conn, "org.a11y.atspi.Registry", a11y.ROOT, a11y._ACC, "GetChildren")[0]
        roots = [d for d in _describe(conn, [a11y._ref(x) for x in apps]) if d is not None]
        refs = [w for d in roots for w in d[4]]
        out = []
        for ref, d in zip(refs, _describe(conn, refs), strict=True):
            if d is not None:
                out.append((ref, d[0], d[1], frozenset(d[2])))
        return out


def read_window(bus: Any, screen: tuple[int, int], window: Ref | None = None, max_nodes: int = 3000,
                max_children: int = 400, timeout: float = 20.0) -> list[Node]:
    """The shown objects of ``window`` (default: the active window, else the last shown one),
    depth first. A spreadsheet's table is not entered (``NO_CHILDREN_ROLES``)."""
    with _connect(bus) as conn:
        if window is None:
            apps = a11y._call(conn, "org.a11y.atspi.Registry", a11y.ROOT, a11y._ACC, "GetChildren")[0]
            roots = [d for d in _describe(conn, [a11y._ref(x) for x in apps], timeout) if d is not None]
            refs = [w for d in roots for w in d[4]]
            shown = [(r, d) for r, d in zip(refs, _describe(conn, refs, timeout), strict=True)
                     if d is not None and "showing" in d[2]]
            if not shown:
                return []
            active = [s for s in shown if "active" in s[1][2]]
            window, info = (active or shown)[-1]
        else:
            got = _describe(conn, [window], timeout)[0]
            if got is None:
                return []
            info = got
        described: dict[Ref, Any] = {window: info}
        level = [window]
        while level and len(described) < max_nodes:
            nxt = []
            for ref in level:
                d = described[ref]
                if _hides_children(d):
                    continue
                nxt += [c for c in d[4][:max_children] if c not in described]
            nxt = nxt[: max_nodes - len(described)]
            got_level = _describe(conn, nxt, timeout) if nxt else []
            level = []
            for ref, d in zip(nxt, got_level, strict=True):
                if d is not None and "showing" in d[2]:
                    described[ref] = d
                    level.append(ref)
    screen_rect: Rect = (0, 0, screen[0] - 1, screen[1] - 1)
    out: list[Node] = []

    def visit(ref: Ref, depth: int, parent: int | None, clip: Rect | None) -> None:
        role, name, states, ext, children = described[ref]
        x, y, w, h = (tuple(ext[:4]) + (0, 0, 0, 0))[:4]
        own: Rect | None = (x, y, x + w - 1, y + h - 1) if w > 0 and h > 0 else None
        visible = _clip(clip, own) if own is not None else None
        node = Node(ref=ref, role=role, name=name, states=frozenset(states), box=(x, y, w, h), depth=depth,
                    parent=parent, visible=visible, children=list(children), index=len(out))
        out.append(node)
        # A container with no box of its own (a page tab at -1,-1) does not hide its children, nor
        # does a menu: its items are in a popup outside the menu bar.
        child_clip = screen_rect if role == "menu" else visible if own is not None else clip
        for child in children[:max_children]:
            if child in described:
                visit(child, depth + 1, node.index, child_clip)

    visit(window, 0, None, screen_rect)
    return out


def _hides_children(d: Any) -> bool:
    """Children not worth asking about: a closed menu's items, anything in a box of no size
    (LibreOffice's own unused menu bar holds every menu item of the app: hundreds of questions)."""
    role, _name, states, ext = d[0], d[1], d[2], d[3]
    if role == "menu" and not {"selected", "expanded"} & set(states):
        return True
    return len(ext) >= 4 and (ext[2] == 0 or ext[3] == 0)


def states(bus: Any, ref: Ref) -> frozenset[str] | None:
    """The object's states now (None when it is gone)."""
    with _connect(bus) as conn:
        got = _describe(conn, [ref])[0]
    return frozenset(got[2]) if got is not None else None


def describe(bus: Any, refs: list[Ref]) -> list[tuple[str, str, frozenset[str], tuple[int, ...]] | None]:
    """(role, name, states, extents) of each object now."""
    with _connect(bus) as conn:
        got = _describe(conn, refs)
    return [None if d is None else (d[0], d[1], frozenset(d[2]), tuple(d[3])) for d in got]


def text(bus: Any, ref: Ref, limit: int = 400) -> str:
    """The object's text (AT-SPI Text interface), at most ``limit`` characters."""
    with _connect(bus) as conn:
        try:
            # To the end (-1): LibreOffice answers "" for an end past the text.
            reply = a11y._call(conn, ref[0], ref[1], "org.a11y.atspi.Text", "GetText", "ii", (0, -1))
        except RuntimeError:
            return ""
    return str(reply[0])[:limit]


def cell_at(bus: Any, table: Ref, row: int, column: int) -> Ref | None:
    """The cell of a table at (row, column) (AT-SPI Table interface)."""
    with _connect(bus) as conn:
        try:
            reply = a11y._call(conn, table[0], table[1], "org.a11y.atspi.Table", "GetAccessibleAt", "ii",
                               (row, column))
        except RuntimeError:
            return None
    return a11y._ref(reply[0])


def cells(bus: Any, table: Ref, positions: list[tuple[int, int]]) -> list[Ref | None]:
    """The cells at several (row, column) positions, asked together."""
    with _connect(bus) as conn:
        replies = a11y._batch(conn, [(table[0], table[1], "org.a11y.atspi.Table", "GetAccessibleAt", "ii", pos)
                                     for pos in positions])
    return [a11y._ref(r[0]) if r is not None else None for r in replies]
