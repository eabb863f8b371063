"""Choosing grounding targets in a window's tree: what a person can click, named so they can ask.

``collect`` turns a window's nodes into :class:`Target` s (kind, gold box, instruction) and counts
what it passes over and why (``unnamed``, ``ambiguous``, ``too small``). Two kinds of fix-ups:

- LibreOffice on GTK 3 reports the boxes of its own (VCL) widgets (tool bars, the document, the
  slide pane) relative to its root pane as if that pane sat where its menu bar starts: 25 pixels
  too high with the default menu bar. Its welded GTK widgets (the sidebar, the insides of combo
  boxes; GTK boxes show as ``filler``) are right. So a VCL node's box is moved by the root pane's
  offset from its parent panel. The proof decides in the end: a box still wrong is not proven.
- Names are cleaned (mnemonics, shortcuts) and an element whose (kind, name) is not unique on the
  screen is left out: "click the Increase button" would be ambiguous.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from . import ground_text as text
from . import ground_tree as tree
from .ground_proof import Target

MIN_SIDE = 6
"""Smallest width and height (screen pixels) of a target's visible box."""

TOGGLE_ROLES = ("toggle button",)
EXTRA_KINDS = ("paragraph", "cell", "slide", "link", "button", "field")
"""Kinds an app's ``extras`` add (found once per scene) rather than ``collect``'s own roles."""


@dataclass
class Found:
    targets: list[Target] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)


def lo_offsets(nodes: list[tree.Node]) -> dict[int, tuple[int, int]]:
    """The box correction of each node of a LibreOffice window (see the module's doc)."""
    out: dict[int, tuple[int, int]] = {}
    for node in nodes:
        parent = nodes[node.parent] if node.parent is not None else None
        if node.role == "root pane" and parent is not None:
            offset = (parent.box[0] - node.box[0], parent.box[1] - node.box[1])
            if offset != (0, 0):
                out[node.index] = offset
        elif parent is not None and parent.index in out and node.role != "filler":
            out[node.index] = out[parent.index]
    return out


def fixed_rect(node: tree.Node, offset: tuple[int, int] | None, screen: tuple[int, int],
               nodes: list[tree.Node]) -> tree.Rect | None:
    """The node's visible box, moved by ``offset`` and cut to its (moved) parents and the screen."""
    if offset is None:
        return node.visible
    dx, dy = offset
    x0, y0, x1, y1 = node.rect()
    rect: tree.Rect | None = (x0 + dx, y0 + dy, x1 + dx, y1 + dy)
    bounds: tree.Rect = (0, 0, screen[0] - 1, screen[1] - 1)
    parent = nodes[node.parent] if node.parent is not None else None
    while parent is not None and rect is not None and parent.role != "root pane":
        px0, py0, px1, py1 = parent.rect()
        if parent.box[2] == 0 or parent.box[3] == 0:
            return None  # a parent of no size hides it (LibreOffice's own, unused menu bar)
        if parent.box[2] > 0 and parent.box[3] > 0:
            rect = tree._clip(rect, (px0 + dx, py0 + dy, px1 + dx, py1 + dy))
        parent = nodes[parent.parent] if parent.parent is not None else None
    return tree._clip(rect, bounds) if rect is not None else None


def _big_enough(rect: tree.Rect | None) -> bool:
    return rect is not None and rect[2] - rect[0] + 1 >= MIN_SIDE and rect[3] - rect[1] + 1 >= MIN_SIDE


def kind_of(node: tree.Node, parent: tree.Node | None) -> str | None:
    """The proof kind of a node, or None when it is not a target."""
    role = node.role
    if role == "menu":
        if parent is not None and parent.role == "menu bar":
            return "menu"
        return "submenu"
    if role in TOGGLE_ROLES or (role == "push button" and "checkable" in node.states):
        return "toggle"
    if role == "check box":
        return "check"
    if role == "page tab":
        return "tab"
    return None


def collect(nodes: list[tree.Node], screen: tuple[int, int], rng: random.Random,
            extra: list[tuple[tree.Node, str, str]] | None = None) -> Found:
    """Targets among ``nodes``: menus, submenus of an open menu, toggles, check boxes, tabs, plus
    ``extra`` (node, kind, name) an app adds (paragraphs, cells, slides)."""
    found = Found()
    offsets = lo_offsets(nodes)
    picked: list[tuple[tree.Node, str, str, tree.Rect, str]] = []
    for node in nodes:
        parent = nodes[node.parent] if node.parent is not None else None
        kind = kind_of(node, parent)
        if kind is None:
            continue
        name = text.clean_name(node.name)
        where = ""
        if not name and kind == "toggle" and parent is not None and parent.role == "tool bar":
            name = text.clean_name(parent.name)  # a sidebar's deck buttons: named by their tool bar
            where = " in the sidebar"
        if kind == "submenu":
            menu = parent
            while menu is not None and menu.role != "menu":
                menu = nodes[menu.parent] if menu.parent is not None else None
            if menu is None or not {"selected", "expanded"} & menu.states:
                continue  # only the items of the menu that is open
            where = text.clean_name(menu.name)
        picked.append((node, kind, name, fixed_rect(node, offsets.get(node.index), screen, nodes) or (0, 0, -1, -1),
                       where))
    for node, kind, name in extra or []:
        # An app's extra node (a cell asked by position) is not in the walk: its parent's offset is its own.
        offset = offsets.get(node.index) if node.index < len(nodes) else \
            offsets.get(node.parent) if node.parent is not None else None
        picked.append((node, kind, name, fixed_rect(node, offset, screen, nodes) or (0, 0, -1, -1), ""))
    names = Counter((kind, name.casefold()) for _node, kind, name, rect, _w in picked if name and _big_enough(rect))
    for node, kind, name, rect, where in picked:
        if not name:
            found.skipped["unnamed"] += 1
            continue
        if not _big_enough(rect):
            found.skipped["hidden or too small"] += 1
            continue
        if names[(kind, name.casefold())] > 1:
            found.skipped["ambiguous name"] += 1
            continue
        if "sensitive" not in node.states and kind not in ("paragraph", "cell", "slide"):
            found.skipped["disabled"] += 1
            continue
        checked = bool({"checked", "pressed"} & node.states)
        if kind == "submenu":
            instruction = text.instruction(kind, name, rng, parent=where)
        else:
            instruction = text.instruction(kind, name, rng, checked=checked, where=where)
        found.targets.append(Target(ref=node.ref, kind=kind, role=node.role, name=name, rect=rect,
                                    instruction=instruction, states=node.states, locate=node.locate,
                                    prepare=[where] if kind == "submenu" else []))
    return found


def key(target: Target) -> tuple[str, str, str]:
    """What makes two targets the same sample in one scene."""
    return target.kind, target.name.casefold(), "/".join(target.prepare)


def node_by_ref(nodes: list[tree.Node], ref: tree.Ref) -> tree.Node | None:
    return next((n for n in nodes if n.ref == ref), None)


def describe_for_log(target: Target) -> dict[str, Any]:
    return {"kind": target.kind, "role": target.role, "name": target.name, "rect": target.rect}
