"""A recorded demonstration as readable gui-toolkit code: the task's ``reference:``.

Each action becomes one call of the gui toolkit (toolkits/gui/api.py), in the
coordinates of the screenshots a model sees (``scale`` times screen pixels):

- a click on an element the accessibility tree names, that no other shown element of the
  same role and name comes before, becomes ``click(name, role, at=(x, y))``: a helper the
  reference defines, which clicks by name with ``a11y.click`` (found again wherever the window
  is) and at the recorded point where the task runs without a tree (``observation.a11y: off``,
  the default) or the tree lacks it; anything else a ``mouse.click(x, y)`` with a comment naming
  what was under the pointer when the tree knew it;
- typed text is one ``keyboard.type(...)``; a lone key ``keyboard.press``; a chord
  ``keyboard.hotkey``; drags and scrolls their ``mouse`` calls;
- ``screen.wait_stable()`` follows an action after which the screen kept changing before the
  person went on (a menu opening, a dialog, a page loading): the replay is faster than a
  person and must wait where they waited.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from ..agent.a11y import Element, find
from ..run.input_actions import TYPE_GAP_S, InputAction

CLICKABLE_ROLES = frozenset((
    "push button", "toggle button", "check box", "radio button", "menu item", "check menu item",
    "radio menu item", "menu", "link", "page tab", "list item", "combo box", "entry", "text",
    "password text", "spin button", "tree item", "icon", "table cell", "tool bar item",
))
"""Roles an ``a11y.click`` by name may stand for (not containers: a panel's centre is anywhere)."""


class Target(BaseModel):
    """What a click hit, as the tree before it saw it."""

    role: str
    name: str
    by_name: bool
    """The name and role find this element first again (``a11y.click`` can stand for the click)."""


def element_at(elements: Sequence[Element], x: int, y: int) -> Element | None:
    """The innermost shown element whose box holds screen point (x, y): deepest, then smallest."""
    inside = [e for e in elements if e.box[2] > 0 and e.box[3] > 0
              and e.box[0] <= x < e.box[0] + e.box[2] and e.box[1] <= y < e.box[1] + e.box[3]]
    if not inside:
        return None
    return max(inside, key=lambda e: (e.depth, -e.box[2] * e.box[3]))


def clicked_by(elements: Sequence[Element], name: str, role: str) -> Element | None:
    """The element ``a11y.click(name, role=role)`` clicks: the first shown one named exactly so,
    else the first shown one whose name contains ``name``."""
    def shown(found: list[Element]) -> list[Element]:
        return [e for e in found if e.box[2] > 0 and e.box[3] > 0]

    matches = shown(find(list(elements), role, name, exact=True)) or shown(find(list(elements), role, name))
    return matches[0] if matches else None


def target_at(elements: Sequence[Element], x: int, y: int) -> Target | None:
    """What a click at (x, y) hit: the innermost element, and the name that finds it again (menu
    items' names end in spaces before the shortcut column: without them when that still finds it)."""
    hit = element_at(elements, x, y)
    if hit is None:
        return None
    if hit.name.strip() and hit.role in CLICKABLE_ROLES:
        for name in dict.fromkeys((hit.name.strip(), hit.name)):
            found = clicked_by(elements, name, hit.role)
            if found is not None and found.index == hit.index:
                return Target(role=hit.role, name=name, by_name=True)
    return Target(role=hit.role, name=hit.name.strip(), by_name=False)


def _describe(target: Target | None) -> str:
    if target is None:
        return ""
    return f"  # {target.role} {target.name!r}" if target.name else f"  # {target.role}"


def action_code(action: InputAction, target: Target | None, scale: float) -> str:
    """The gui-toolkit call for one action (``target``: what the tree had under a click)."""
    if action.kind in ("click", "right_click") and action.clicks == 1 and not action.modifiers \
            and target is not None and target.by_name:
        x, y = round(action.x * scale), round(action.y * scale)
        button = ', button="right"' if action.kind == "right_click" else ""
        return f"click({target.name!r}, {target.role!r}, at=({x}, {y}){button})"
    code = action.code(scale)
    if action.kind in ("click", "double_click", "triple_click", "right_click", "middle_click") and "\n" not in code:
        code += _describe(target)
    return code


def merge_typing(actions: Sequence[InputAction]) -> list[InputAction]:
    """Typed text as one call: a ``type`` and the Enter, Tab and Backspace presses and ``type`` s
    right after it become one text (Backspace takes back what it erased; Enter is ``\\n``)."""
    out: list[InputAction] = []
    for action in actions:
        last = out[-1] if out else None
        if last is not None and last.kind == "type" and action.kind in ("type", "key") \
                and action.t_start - last.t_end <= TYPE_GAP_S:
            text = last.text or ""
            if action.kind == "type":
                text += action.text or ""
            elif action.keys == ["enter"] or action.keys == ["tab"]:
                text += ("\n" if action.keys == ["enter"] else "\t") * action.presses
            elif action.keys == ["backspace"] and action.presses <= len(text):
                text = text[:len(text) - action.presses]
            else:
                out.append(action)
                continue
            out[-1] = last.model_copy(update={"text": text, "t_end": action.t_end})
            if not text:
                out.pop()  # typed and erased: nothing to replay
            continue
        out.append(action)
    return out


class Step(BaseModel):
    """One action with what the reference needs to know about it."""

    action: InputAction
    target: Target | None = None
    wait: bool = False
    """The screen kept changing after it until the person went on: wait for it to settle."""

    def code(self, scale: float) -> str:
        line = action_code(self.action, self.target, scale)
        return line + ("\nscreen.wait_stable()" if self.wait else "")


CLICK_HELPER = '''def click(name, role, at, button="left"):
    """Click the element the accessibility tree names; at the recorded point without a tree."""
    try:
        a11y.click(name, role=role, button=button)
    except (RuntimeError, LookupError):
        mouse.click(*at, button=button)
'''


def reference_code(steps: Sequence[Step], scale: float, header: str = "") -> str:
    """The whole reference: a header comment, the ``click`` helper when a click is by name, one
    call per action (and its wait), a last wait so the final action's effect is on screen before
    the judges look."""
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    codes = [step.code(scale) for step in steps]
    if any(code.startswith("click(") for code in codes):
        lines.append(CLICK_HELPER)
    lines.extend(codes)
    if not (steps and steps[-1].wait):
        lines.append("screen.wait_stable()")
    return "\n".join(lines) + "\n"
