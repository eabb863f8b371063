"""``a11y``: the accessibility tree of the active window, and clicking an element by its name.

Apps export their widgets over AT-SPI on the task's accessibility bus (started
in the task's world when ``observation.a11y`` is on). Boxes and clicks are in
the coordinates of the screenshots you see, like the rest of the toolkit.
"""

from __future__ import annotations

from ...runtime.agent import a11y as tree_reader
from ...runtime.world.a11y_bus import BUS_SOCKET
from .coordinates import _from_screen, _scale


class Accessibility:
    """The accessibility tree of the active window (role, name, states, box of each element)."""

    def _elements(self) -> list[tree_reader.Element]:
        import os

        if not os.path.exists(BUS_SOCKET):
            raise RuntimeError("the accessibility tree is off for this task (observation.a11y: off)")
        return tree_reader.read_tree(BUS_SOCKET)

    def tree(self) -> str:
        """The active window's elements, one a line: `[index] role 'name' states (x,y wxh)` with
        boxes in screenshot coordinates; unnamed containers are left out."""
        return tree_reader.render(self._elements(), scale=_scale())

    def find(self, name: str | None = None, role: str | None = None) -> list[dict[str, object]]:
        """Elements whose name contains `name` (case-insensitive) and whose role is `role`
        (e.g. 'push button', 'menu', 'menu item', 'text', 'check box'), each as a dict with
        role, name, states and box (x, y, width, height in screenshot coordinates)."""
        scale = _scale()
        return [{"role": e.role, "name": e.name, "states": e.states,
                 "box": tuple(round(v * scale) for v in e.box)}
                for e in tree_reader.find(self._elements(), role, name)]

    def click(self, name: str, role: str | None = None, button: str = "left") -> tuple[int, int]:
        """Click the centre of the element named `name` (an exact name wins over one that only
        contains it) with `role` if given; returns the point clicked in screenshot coordinates."""
        from .api import mouse  # api imports this module for its export

        elements = self._elements()
        matches = tree_reader.find(elements, role, name, exact=True) or tree_reader.find(elements, role, name)
        shown = [e for e in matches if e.box[2] > 0 and e.box[3] > 0]
        if not shown:
            what = f"{role} {name!r}" if role else repr(name)
            raise LookupError(f"no element {what} is shown in the active window; see a11y.tree()")
        x, y = _from_screen(*shown[0].center())
        mouse.click(x, y, button=button)
        return x, y


a11y = Accessibility()
