"""a11y.selectors: CSS selectors or XPath over the whole desktop's accessibility tree, as XML.

The tree is read on the host from the task world's accessibility bus (a task with an ``a11y.*``
judge gets one) and written as the XML OSWorld's desktop server makes of AT-SPI, so selectors
written for that XML select the same objects here: an element per object named by its role
(spaces as ``-``, ``unknown`` for none) under a ``desktop-frame`` root, one ``application`` per
app; attribute ``name``; ``st:<state>="true"`` per state; ``attr:<name>`` per object attribute
(Gecko's ``id``, ``class``, ``tag``...); ``cp:screencoord``/``cp:size`` for objects visible and
showing; the text of a Text object (U+FFFC and U+FFFD removed) as the element's text; ``image``
and ``selection`` flags; ``val:value``/``min``/``max``/``step``; ``act:<action>_desc``/``_kb``.
Every object is read, shown or not, to depth 50 and 1024 children an object (OSWorld's bounds);
a spreadsheet's table gives only its cells on screen (the millions of others are never asked).
The prefixes are OSWorld's namespaces for Ubuntu (``NAMESPACES``).
"""

from __future__ import annotations

import re
import time
from typing import Any

from ..runtime.agent import a11y
from ..runtime.tasks.helpers import clip
from ..runtime.tasks.steps import StepContext, Verdict, judge
from ..runtime.world.a11y_bus import BUS_SOCKET, world_uids

_BASE = "https://accessibility.ubuntu.example.org/ns/"
NAMESPACES = {"st": _BASE + "state", "attr": _BASE + "attributes", "cp": _BASE + "component",
              "doc": _BASE + "document", "docattr": _BASE + "document/attributes", "txt": _BASE + "text",
              "val": _BASE + "value", "act": _BASE + "action"}
"""OSWorld's prefixes (desktop_env's ``_accessibility_ns_map['ubuntu']``)."""
MAX_DEPTH = 50
MAX_WIDTH = 1024
MAX_OBJECTS = 60_000
"""Objects read at most: the tree is the world's, and an app could make it endless."""

_ACC, _PROPS = "org.a11y.atspi.Accessible", "org.freedesktop.DBus.Properties"
_XML_NAME = re.compile(r"[A-Za-z_][\w.-]*\Z")

Call = tuple[str, str, str, str, str | None, tuple[Any, ...]]


def _q(prefix: str, name: str) -> str:
    return f"{{{NAMESPACES[prefix]}}}{name}"


def _prop(app: str, path: str, iface: str, name: str) -> Call:
    return (app, path, _PROPS, "Get", "ss", (f"org.a11y.atspi.{iface}", name))


def _value(reply: Any) -> Any:
    """A property's value (a variant: (signature, value))."""
    return reply[0][1] if reply else None


class _Reader:
    def __init__(self, conn: Any, timeout: float) -> None:
        self.conn, self.timeout, self.count = conn, timeout, 0

    def batch(self, calls: list[Call]) -> list[Any]:
        out: list[Any] = []
        for start in range(0, len(calls), 2000):  # a bounded number of questions in flight
            out += a11y._batch(self.conn, calls[start:start + 2000], self.timeout, complete=True)
        return out

    def describe(self, objects: list[tuple[str, str]]) -> list[dict[str, Any] | None]:
        calls: list[Call] = []
        for app, path in objects:
            calls += [(app, path, _ACC, "GetRoleName", None, ()), _prop(app, path, "Accessible", "Name"),
                      (app, path, _ACC, "GetState", None, ()), (app, path, _ACC, "GetAttributes", None, ()),
                      (app, path, _ACC, "GetInterfaces", None, ()), (app, path, _ACC, "GetChildren", None, ())]
        replies = self.batch(calls)
        found: list[dict[str, Any] | None] = []
        for i in range(len(objects)):
            role, name, state, attrs, ifaces, children = replies[i * 6:i * 6 + 6]
            if role is None or state is None:
                found.append(None)  # gone meanwhile, or not an accessible object
                continue
            found.append({"role": role[0], "name": _value(name) or "", "states": a11y._states(state[0]),
                          "attrs": dict(attrs[0]) if attrs else {},
                          "ifaces": {i.rsplit(".", 1)[-1] for i in ifaces[0]} if ifaces else set(),
                          "children": [(c[0], c[1]) for c in children[0]] if children else []})
        return found

    def details(self, objects: list[tuple[str, str]], infos: list[dict[str, Any]]) -> None:
        """Text, extents, values and actions of the objects that have them."""
        calls: list[Call] = []
        wanted: list[tuple[int, str]] = []
        for n, ((app, path), info) in enumerate(zip(objects, infos, strict=True)):
            ifaces = info["ifaces"]
            if "Text" in ifaces:
                calls.append((app, path, "org.a11y.atspi.Text", "GetText", "ii", (0, -1)))
                wanted.append((n, "text"))
            if "Component" in ifaces and {"visible", "showing"} <= set(info["states"]):
                calls.append((app, path, "org.a11y.atspi.Component", "GetExtents", "u", (0,)))
                wanted.append((n, "extents"))
            if "Value" in ifaces:
                for key, prop in (("value", "CurrentValue"), ("min", "MinimumValue"), ("max", "MaximumValue"),
                                  ("step", "MinimumIncrement")):
                    calls.append(_prop(app, path, "Value", prop))
                    wanted.append((n, "val:" + key))
            if "Action" in ifaces:
                calls.append((app, path, "org.a11y.atspi.Action", "GetActions", None, ()))
                wanted.append((n, "actions"))
        for (n, key), reply in zip(wanted, self.batch(calls), strict=True):
            if reply is not None:
                infos[n][key] = _value(reply) if key.startswith("val:") else reply[0]


def _element(info: dict[str, Any]) -> Any:
    from lxml import etree

    attrib: dict[str, str] = {"name": info["name"]}
    for state in info["states"]:
        attrib[_q("st", state)] = "true"
    for key, value in info["attrs"].items():
        if key and _XML_NAME.match(key):
            attrib[_q("attr", key)] = value
    if "extents" in info:
        x, y, w, h = info["extents"]
        attrib[_q("cp", "screencoord")] = str((x, y))
        attrib[_q("cp", "size")] = str((w, h))
    if "Image" in info["ifaces"]:
        attrib["image"] = "true"
    if "Selection" in info["ifaces"]:
        attrib["selection"] = "true"
    for key in ("value", "min", "max", "step"):
        if info.get("val:" + key) is not None:
            attrib[_q("val", key)] = str(float(info["val:" + key]))
    for action, desc, keys in info.get("actions") or []:
        name = action.replace(" ", "-")
        if _XML_NAME.match(name):
            attrib[_q("act", name + "_desc")] = desc
            attrib[_q("act", name + "_kb")] = keys
    role = (info["role"].strip() or "unknown").replace(" ", "-")
    node = etree.Element(role if _XML_NAME.match(role) else "unknown", attrib=attrib, nsmap=NAMESPACES)
    text = (info.get("text") or "").replace("\ufffc", "").replace("\ufffd", "")
    if text:
        node.text = text
    return node


def read_desktop(bus: Any, peer_uids: range | None = None, timeout: float = 10.0) -> Any:
    """The whole desktop's tree as an lxml element (``desktop-frame``), read level by level with
    each level's questions sent together. An app that stays silent for ``timeout`` seconds raises
    a11y.Unanswered: a tree with a branch missing could fail a task that did its work."""
    from lxml import etree

    root = etree.Element("desktop-frame", nsmap=NAMESPACES)
    with a11y.connect(bus, peer_uids=peer_uids) as conn:
        reader = _Reader(conn, timeout)
        apps = a11y._call(conn, "org.a11y.atspi.Registry", a11y.ROOT, _ACC, "GetChildren")[0]
        # (object, parent element, depth, under a spreadsheet document)
        level: list[tuple[tuple[str, str], Any, int, bool]] = [((a[0], a[1]), root, 1, False) for a in apps]
        while level:
            reader.count += len(level)
            if reader.count > MAX_OBJECTS:
                raise RuntimeError(f"the accessibility tree has more than {MAX_OBJECTS} objects: not reading more")
            objects = [obj for obj, _, _, _ in level]
            infos = reader.describe(objects)
            kept = [(o, i, p, d, c) for (o, p, d, c), i in zip(level, infos, strict=True) if i is not None]
            reader.details([o for o, *_ in kept], [i for _, i, *_ in kept])
            following: list[tuple[tuple[str, str], Any, int, bool]] = []
            for _obj, info, parent, depth, calc in kept:
                node = _element(info)
                parent.append(node)
                calc = calc or info["role"] == "document spreadsheet"
                if depth == MAX_DEPTH:
                    continue
                children = info["children"][:MAX_WIDTH]
                if calc and info["role"] == "table":
                    node.set("deskact-showing-cells", "true")  # filled below from the cells on screen
                following += [(c, node, depth + 1, calc) for c in children]
            level = following
            # A spreadsheet table's cells: only those on screen (OSWorld walks them by rows and stops
            # where they end; asking millions of cells for their state is not done here either).
            level = _showing_cells_only(reader, level)
    return root


def _showing_cells_only(reader: _Reader, level: list[tuple[tuple[str, str], Any, int, bool]]
                        ) -> list[tuple[tuple[str, str], Any, int, bool]]:
    cells = [item for item in level if item[1].get("deskact-showing-cells")]
    if not cells:
        return level
    states = reader.batch([(o[0], o[1], _ACC, "GetState", None, ()) for o, *_ in cells])
    shown = {id(item) for item, s in zip(cells, states, strict=True) if s and "showing" in a11y._states(s[0])}
    for item in cells:
        item[1].attrib.pop("deskact-showing-cells", None)
    return [item for item in level if not item[1].get("deskact-showing-cells") and
            (item not in cells or id(item) in shown)]


def select(tree: Any, selectors: list[str] | None, xpath: str | None) -> list[Any]:
    """The elements a rule selects: its XPath, else its CSS selectors joined by ", " (as OSWorld)."""
    if xpath is not None:
        found = tree.xpath(xpath, namespaces=NAMESPACES)
        return found if isinstance(found, list) else []
    from lxml.cssselect import CSSSelector

    return list(CSSSelector(", ".join(selectors or []), namespaces=NAMESPACES)(tree))


def match_rules(tree: Any, rules: list[dict[str, Any]]) -> Verdict:
    """Every rule selects at least one element."""
    for n, rule in enumerate(rules, 1):
        found = select(tree, rule.get("selectors"), rule.get("xpath"))
        what = rule.get("xpath") or ", ".join(rule.get("selectors") or [])
        if not found:
            return Verdict.fail(f"rule {n}: nothing on the desktop matches {clip(what, 200)}")
    return Verdict.ok(f"each of the {len(rules)} rules matches an element of the desktop's accessibility tree")


CATCH_UP_S = 10.0
"""How long a failing tree is read again: OSWorld waits 10 s before reading it (its evaluators'
postconfig sleep), and an app's tree lags what it shows (Thunderbird's address pills, Impress's
panes) by seconds on a loaded box."""


@judge("a11y.selectors")
def a11y_selectors(ctx: StepContext, rules: list[dict[str, Any]], wait: float = CATCH_UP_S) -> Verdict:
    """The whole desktop's accessibility tree (every app's objects, shown or not), written as OSWorld's
    XML, has for each of ``rules`` an element its ``selectors`` (CSS, joined by ", ") or ``xpath``
    select: an element per object named by its role (``page-tab``, ``push-button``), attribute
    ``name``, ``st:<state>``, ``attr:<attribute>`` (Gecko's ``id``, ``class``), the object's text as
    the element's text (prefixes: OSWorld's Ubuntu namespaces). A tree that fails is read again, about
    once a second for ``wait`` seconds, with the apps running: the verdict is the last read's."""
    for rule in rules:
        if set(rule) - {"selectors", "xpath"} or not (rule.get("selectors") or rule.get("xpath")):
            raise ValueError(f"a11y.selectors: a rule is selectors (a list) or xpath, got {sorted(rule)}")
    if ctx.world is None:
        return Verdict(passed=False, error=True, feedback="a11y.selectors needs the task's world (a task with a display)")
    socket = ctx.world.host_path(BUS_SOCKET)
    if not socket.exists():
        return Verdict(passed=False, error=True,
                       feedback="the task has no accessibility bus (it needs a display and a world)")
    peer_uids, give_up = world_uids(ctx.world), time.monotonic() + max(0.0, wait)
    try:
        with ctx.world.thawed():  # judges run with the world frozen; frozen apps answer nothing
            while True:
                verdict = match_rules(read_desktop(socket, peer_uids=peer_uids), rules)
                if verdict.passed or time.monotonic() >= give_up:
                    return verdict
                time.sleep(1.0)  # the app's tree catching up with its window, not a wait for an event
    except a11y.Unanswered as exc:
        return Verdict(passed=False, error=True, feedback=f"the accessibility tree could not be read whole: {exc}")
