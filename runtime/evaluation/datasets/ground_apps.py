"""The apps ``deskact datasets ground`` opens, and the scenes (documents, windows, dialogs) it
grounds in each.

A scene is a task's reset (the same ``apps.*`` / ``office.*`` steps the visual suites use, so the
app opens in a world exactly as for an agent), then optionally clicks through the app's own menus
(``setup``: open Preferences, Format > Character...), so dialogs are grounded too. Contents are
drawn from a seeded generator: each scene shows different text, cells and slides.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ....toolkits.builtin import DESKTOP_TOOLKIT
from . import ground_text as text
from . import ground_tree as tree

WORDS = ("budget", "report", "meeting", "garden", "river", "summer", "invoice", "market", "travel", "coffee",
         "library", "project", "winter", "station", "museum", "harbour", "ticket", "lesson", "kitchen", "planet",
         "orange", "bridge", "forest", "letter", "school", "window", "silver", "castle", "rocket", "mountain")
ITEMS = ("Tea", "Coffee", "Cake", "Bread", "Milk", "Juice", "Apples", "Rice", "Pasta", "Cheese", "Soup", "Eggs")


@dataclass
class Scene:
    """One state of an app to ground in."""

    name: str
    reset: list[tuple[str, dict[str, Any]]]
    window: str
    """A part of the main window's title (the scene is broken when another window is active)."""
    setup: list[tuple[str, str]] = field(default_factory=list)
    """(role, name) elements clicked in order after the reset, found by name in the tree."""
    toolkits: list[str] = field(default_factory=lambda: [DESKTOP_TOOLKIT])


Extras = Callable[[Any, list[tree.Node]], list[tuple[tree.Node, str, str]]]


@dataclass
class AppSpec:
    name: str
    scenes: Callable[[random.Random, int], list[Scene]]
    """``scenes(rng, count)``: that many scenes of the app."""
    extras: Extras | None = None
    platform: str = "desktop"


def _sentence(rng: random.Random, words: int = 8) -> str:
    picked = [rng.choice(WORDS) for _ in range(words)]
    return " ".join(picked).capitalize() + "."


# -- LibreOffice Writer --------------------------------------------------------------------------

WRITER_DIALOGS = [[("menu", "Format"), ("menu item", "Character...")], [("menu", "Format"), ("menu item", "Paragraph...")],
                  [("menu", "Insert"), ("menu item", "Section...")], [("menu", "Format"), ("menu item", "Page Style...")]]


def writer_scenes(rng: random.Random, count: int) -> list[Scene]:
    scenes = []
    for i in range(count):
        paragraphs: list[Any] = []
        for j in range(rng.randint(6, 14)):
            line = f"{j + 1}. " + _sentence(rng, rng.randint(5, 12))
            paragraphs.append({"text": line, "style": "Heading 1"} if j % 5 == 0 else line)
        setup = WRITER_DIALOGS[(i // 2) % len(WRITER_DIALOGS)] if i % 2 == 1 else []
        scenes.append(Scene(
            name=f"writer-{i}", window="LibreOffice Writer" if not setup else "",
            reset=[("office.docx", {"path": f"${{WORKSPACE}}/notes{i}.docx", "paragraphs": paragraphs}),
                   ("apps.open", {"path": f"${{WORKSPACE}}/notes{i}.docx"})],
            setup=list(setup)))
    return scenes


def writer_extras(bus: Any, nodes: list[tree.Node]) -> list[tuple[tree.Node, str, str]]:
    out = []
    for node in nodes:
        if node.role == "paragraph" and node.parent is not None and nodes[node.parent].role == "document text":
            words = text.first_words(tree.text(bus, node.ref), 5)
            if len(words) > 8:
                out.append((node, "paragraph", words))
    return out


# -- LibreOffice Calc ----------------------------------------------------------------------------

def calc_scenes(rng: random.Random, count: int) -> list[Scene]:
    scenes = []
    for i in range(count):
        rows: list[list[Any]] = [["Item", "Price", "Count", "Total"]]
        for _ in range(rng.randint(4, 18)):
            price, n = round(rng.uniform(1, 20), 2), rng.randint(1, 9)
            rows.append([rng.choice(ITEMS), price, n, round(price * n, 2)])
        setup = [("menu", "Format"), ("menu item", "Cells...")] if i % 3 == 2 else []
        scenes.append(Scene(
            name=f"calc-{i}", window="LibreOffice Calc" if not setup else "",
            reset=[("office.xlsx", {"path": f"${{WORKSPACE}}/sheet{i}.xlsx", "sheets": {f"Data{i}": rows}}),
                   ("apps.open", {"path": f"${{WORKSPACE}}/sheet{i}.xlsx"})],
            setup=setup))
    return scenes


CALC_ROWS, CALC_COLUMNS = 45, 26


def calc_extras(bus: Any, nodes: list[tree.Node]) -> list[tuple[tree.Node, str, str]]:
    table = next((n for n in nodes if n.role == "table" and n.parent is not None
                  and nodes[n.parent].role == "document spreadsheet"), None)
    if table is None or table.visible is None:
        return []
    holder = {"table": table.ref}

    def locate(pos: tuple[int, int]) -> tree.Ref | None:
        # The sheet's table object can be replaced (after a dialog, a toolbar's change): found again.
        ref = tree.cell_at(bus, holder["table"], *pos)
        if ref is None:
            nodes_now = tree.read_window(bus, (1 << 15, 1 << 15))
            found = next((n for n in nodes_now if n.role == "table"), None)
            if found is None:
                return None
            holder["table"] = found.ref
            ref = tree.cell_at(bus, found.ref, *pos)
        return ref

    positions = [(r, c) for r in range(CALC_ROWS) for c in range(CALC_COLUMNS)]
    refs = tree.cells(bus, table.ref, positions)
    pairs = [(pos, ref) for pos, ref in zip(positions, refs, strict=True) if ref is not None]
    described = tree.describe(bus, [ref for _pos, ref in pairs])
    out: list[tuple[tree.Node, str, str]] = []
    for (pos, ref), d in zip(pairs, described, strict=True):
        if d is None or "showing" not in d[2]:
            continue
        role, name, states, ext = d
        x, y, w, h = (tuple(ext[:4]) + (0, 0, 0, 0))[:4]
        expected = f"{text.column_name(pos[1])}{pos[0] + 1}"
        if name and expected not in name.split():
            continue  # the app names the cell otherwise: not the cell we think
        cell = tree.Node(ref=ref, role=role, name=name, states=states, box=(x, y, w, h), depth=table.depth + 1,
                         parent=table.index, visible=tree._clip(table.visible, (x, y, x + w - 1, y + h - 1)),
                         index=len(nodes) + len(out),
                         locate=functools.partial(locate, pos))
        out.append((cell, "cell", expected))
    return out


# -- LibreOffice Impress and Draw ------------------------------------------------------------------

def impress_scenes(rng: random.Random, count: int) -> list[Scene]:
    scenes = []
    for i in range(count):
        titles = rng.sample([w.capitalize() + " " + rng.choice(WORDS) for w in WORDS], rng.randint(3, 7))
        slides = [{"title": t, "body": [_sentence(rng, 4) for _ in range(rng.randint(0, 3))]} for t in titles]
        setup = [("menu", "Format"), ("menu item", "Character...")] if i % 3 == 2 else []
        scenes.append(Scene(
            name=f"impress-{i}", window="LibreOffice Impress" if not setup else "",
            reset=[("office.pptx", {"path": f"${{WORKSPACE}}/deck{i}.pptx", "slides": slides}),
                   ("apps.open", {"path": f"${{WORKSPACE}}/deck{i}.pptx"})],
            setup=setup))
    return scenes


def slide_extras(bus: Any, nodes: list[tree.Node]) -> list[tuple[tree.Node, str, str]]:
    out = []
    for node in nodes:
        if node.role == "panel" and node.name and node.parent is not None and \
                nodes[node.parent].role == "document frame":
            out.append((node, "slide", text.clean_name(node.name)))
    return out


DRAW_DIALOGS = [[("menu", "Format"), ("menu item", "Character...")], [("menu", "Format"), ("menu item", "Paragraph...")]]


def draw_scenes(rng: random.Random, count: int) -> list[Scene]:
    scenes = []
    for i in range(count):
        setup = DRAW_DIALOGS[(i // 2) % len(DRAW_DIALOGS)] if i % 2 == 1 else []
        scenes.append(Scene(name=f"draw-{i}", window="LibreOffice Draw" if not setup else "",
                            reset=[("apps.launch", {"cmd": "libreoffice --draw", "window": "Draw", "timeout": 90})],
                            setup=setup))
    return scenes


# -- mousepad ------------------------------------------------------------------------------------

MOUSEPAD_SETUPS = [[], [("menu", "Edit"), ("menu item", "Preferences...")], [],
                   [("menu", "Search"), ("menu item", "Find and Replace...")]]


def mousepad_scenes(rng: random.Random, count: int) -> list[Scene]:
    scenes = []
    for i in range(count):
        name = f"{rng.choice(WORDS)}-{i}.txt"
        body = "\n".join(_sentence(rng, rng.randint(3, 9)) for _ in range(rng.randint(2, 30))) + "\n"
        setup = MOUSEPAD_SETUPS[i % len(MOUSEPAD_SETUPS)]
        scenes.append(Scene(name=f"mousepad-{i}", window="Mousepad" if not setup else "",
                            reset=[("files.write", {"path": f"${{WORKSPACE}}/{name}", "content": body}),
                                   ("apps.open", {"path": f"${{WORKSPACE}}/{name}"})],
                            setup=list(setup)))
    return scenes


APPS: dict[str, AppSpec] = {
    "writer": AppSpec("writer", writer_scenes, writer_extras),
    "calc": AppSpec("calc", calc_scenes, calc_extras),
    "impress": AppSpec("impress", impress_scenes, slide_extras),
    "draw": AppSpec("draw", draw_scenes, slide_extras),
    "mousepad": AppSpec("mousepad", mousepad_scenes),
}


def _web_scenes(rng: random.Random, count: int) -> list[Scene]:
    from .ground_web import web_scenes

    return web_scenes(rng, count)


APPS["chromium"] = AppSpec("chromium", _web_scenes, platform="web")
