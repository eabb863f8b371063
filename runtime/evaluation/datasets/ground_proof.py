"""Proving a grounding sample: click the box's centre with real X input, see the element react.

Each target has a ``kind`` that says which reaction proves it (read back through the
accessibility tree, from the app itself):

- ``menu`` / ``submenu``: the menu becomes ``selected`` or ``expanded`` (its popup is open);
  undone with Escape.
- ``toggle`` / ``check``: its ``checked``/``pressed`` state changes; it is clicked again and
  must change back.
- ``tab`` / ``list item`` / ``slide``: it becomes ``selected``.
- ``cell`` / ``paragraph`` / ``field``: it becomes ``focused`` (a spreadsheet cell: ``focused``
  or ``selected``); nothing to undo, the next sample's screenshot is taken afterwards.

Those last kinds must gain the state: an element that has it already is not a sample.

A target that does not react within the timeout is not proven: the click went elsewhere (a box
the app reports wrongly, an element covered by another), and the sample is dropped.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import ground_tree as tree
from .ground_input import XInput, wait_for

REACT_SECONDS = 2.5
"""How long an element has to react to a click (LibreOffice on a loaded box can take a second)."""

CHECK_STATES = ("checked", "pressed")


@dataclass
class Target:
    """An element to ground, as found in the tree, with what proves a click on it."""

    ref: tree.Ref
    kind: str
    role: str
    name: str
    rect: tree.Rect
    """The visible part of its box (x0, y0, x1, y1), screen pixels, edges inclusive: the gold box."""
    instruction: str
    states: frozenset[str] = frozenset()
    locate: Callable[[], tree.Ref | None] | None = field(default=None, repr=False)
    """Finds the element's object again before each look (see ``ground_tree.Node.locate``)."""
    prepare: list[str] = field(default_factory=list)
    """Names of menus to open before (a submenu's parent), found again by name at proof time."""

    def centre(self) -> tuple[int, int]:
        x0, y0, x1, y1 = self.rect
        return (x0 + x1) // 2, (y0 + y1) // 2


@dataclass
class Proof:
    ok: bool
    reason: str = ""
    """Why it is not proven: ``no reaction``, ``gone``, ``already in the state a click gives``."""
    restored: bool = True
    """The element was put back as it was (a proven sample stays proven when it was not)."""
    before: frozenset[str] = frozenset()
    """The element's states right before the click."""
    seconds: float = 0.0


def _checked(states: frozenset[str]) -> bool:
    return any(s in states for s in CHECK_STATES)


def reacted(kind: str, before: frozenset[str], now: frozenset[str] | None) -> bool:
    """Whether ``now`` (states after the click) shows a target of ``kind`` reacting."""
    if now is None:
        return False
    if kind in ("menu", "submenu"):
        return bool({"selected", "expanded"} & now) and not {"selected", "expanded"} <= before
    if kind in ("toggle", "check"):
        return _checked(now) != _checked(before)
    # These must gain the state: one that had it already proves nothing (prove() skips it).
    if kind in ("tab", "list item", "slide"):
        return "selected" in now and "selected" not in before
    if kind == "cell":
        return bool({"focused", "selected"} & now) and not {"focused", "selected"} & before
    if kind in ("paragraph", "field"):
        return "focused" in now and "focused" not in before
    raise ValueError(f"no proof for a target of kind {kind!r}")


class Prover:
    """Clicks and reads back on one task's display and accessibility bus."""

    def __init__(self, bus: Any, xin: XInput) -> None:
        self.bus = bus
        self.xin = xin

    def states(self, ref: tree.Ref, locate: Callable[[], tree.Ref | None] | None = None) -> frozenset[str] | None:
        try:
            if locate is not None:
                found = locate()
                if found is None:
                    return None
                ref = found
            return tree.states(self.bus, ref)
        except Exception:  # noqa: BLE001 - an app busy with the click answers late: asked again
            return None

    def close_popups(self, menu: tree.Ref | None = None, presses: int = 3) -> None:
        """Escape until ``menu`` (if given) is closed."""
        for _ in range(presses):
            self.xin.key("Escape")
            time.sleep(0.1)
            if menu is not None:
                now = self.states(menu)
                if now is not None and not {"selected", "expanded"} & now:
                    return

    def prove(self, target: Target, point: tuple[int, int] | None = None,
              find_again: Callable[[Target], Target | None] | None = None) -> Proof:
        """Click ``point`` (default: the target's centre) and check the target reacted, then undo.
        ``find_again`` re-reads a target whose parent menu had to be opened first."""
        start = time.monotonic()
        before = self.states(target.ref, target.locate)
        if before is None or "showing" not in before:
            return Proof(False, "gone", seconds=time.monotonic() - start)
        if target.kind in ("tab", "list item", "slide", "cell", "paragraph", "field") and \
                reacted(target.kind, frozenset(), before):
            return Proof(False, "already in the state a click gives", seconds=time.monotonic() - start)
        x, y = point or target.centre()
        self.xin.click(x, y)
        now = wait_for(lambda: (s := self.states(target.ref, target.locate)) is not None
                       and reacted(target.kind, before, s) and s,
                       REACT_SECONDS)
        if not now:
            self.close_popups(presses=2)
            return Proof(False, "no reaction", seconds=time.monotonic() - start)
        return Proof(True, restored=self.undo(target, before), before=before, seconds=time.monotonic() - start)

    def undo(self, target: Target, before: frozenset[str]) -> bool:
        """Put the element back as it was before the proof's click."""
        kind = target.kind
        if kind in ("menu", "submenu"):
            self.close_popups(target.ref, presses=2 + len(target.prepare))
            now = self.states(target.ref)
            return now is None or not {"selected", "expanded"} & now or "showing" not in now
        if kind in ("toggle", "check"):
            self.xin.click(*target.centre())
            return bool(wait_for(lambda: (s := self.states(target.ref)) is not None
                                 and _checked(s) == _checked(before), REACT_SECONDS))
        return True
