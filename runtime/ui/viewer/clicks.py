"""Where a step's code pointed the mouse: points parsed from its source, for drawing on screenshots.

The code is parsed, never run: only calls with literal coordinates are found
(``mouse.click(120, 45)``, ``pyautogui.moveTo((300, 200))``, ``mouse.drag((1, 2), (3, 4))``);
a click at a computed position (``mouse.click(*box.center)``) is left out rather than guessed.

Two coordinate spaces: the gui toolkit's ``mouse`` works in the pixels of the
screenshot the model saw, raw ``pyautogui`` in real screen pixels, which
``to_image`` scales into the screenshot when the screen size is known.
"""

from __future__ import annotations

import ast
from typing import Literal

from pydantic import BaseModel

Space = Literal["image", "screen"]

# Method name -> the kind of action drawn. Both the gui toolkit's and pyautogui's spellings.
_ACTIONS: dict[str, str] = {
    "click": "click", "leftClick": "click", "double_click": "double", "doubleClick": "double",
    "tripleClick": "double", "right_click": "right", "rightClick": "right", "middleClick": "click",
    "move": "move", "moveTo": "move", "down": "down", "mouseDown": "down", "up": "up", "mouseUp": "up",
    "drag": "drag", "dragTo": "drag", "scroll": "scroll", "hscroll": "scroll", "vscroll": "scroll",
}

# pyautogui.move(dx, dy) and drag(dx, dy) are relative, unlike the gui toolkit's mouse.move/drag.
_PYAUTOGUI_RELATIVE = {"move", "drag", "moveRel", "dragRel"}


class Point(BaseModel):
    """One pointer action found in a step's code."""

    action: str
    """click, double, right, move, down, up, drag (the drag's end; its start is ``start``), scroll."""
    x: float
    y: float
    space: Space
    start: tuple[float, float] | None = None
    """Where a drag began."""
    line: int
    """Line of the call in the step's code (1-based)."""


_ARITH = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
          ast.Div: lambda a, b: a / b, ast.FloorDiv: lambda a, b: a // b}


MAX_EXPRESSION_NODES = 64
"""A coordinate is a short expression; a longer one (agent code can hold thousands of terms)
is left out before any recursion over it."""
MAX_CODE_CHARS = 200_000
"""Code longer than this is not parsed at all (the step's page shows it without marks)."""


def _small(node: ast.expr) -> bool:
    """At most MAX_EXPRESSION_NODES nodes, counted without recursion."""
    seen = 0
    todo: list[ast.AST] = [node]
    while todo:
        seen += 1
        if seen > MAX_EXPRESSION_NODES:
            return False
        todo.extend(ast.iter_child_nodes(todo.pop()))
    return True


def _number(node: ast.expr) -> float | None:
    """A literal number, or plain arithmetic on literals (``640 + 20``, ``1280 / 2``); else None."""
    return _evaluate(node) if _small(node) else None


def _evaluate(node: ast.expr) -> float | None:
    if isinstance(node, ast.Constant):
        value = node.value
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _evaluate(node.operand)
        return None if inner is None else (-inner if isinstance(node.op, ast.USub) else inner)
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITH:
        left, right = _evaluate(node.left), _evaluate(node.right)
        if left is None or right is None:
            return None
        try:
            return float(_ARITH[type(node.op)](left, right))
        except ZeroDivisionError:
            return None
    return None


def _pair(node: ast.expr) -> tuple[float, float] | None:
    if isinstance(node, (ast.Tuple, ast.List)) and len(node.elts) == 2:
        x, y = _number(node.elts[0]), _number(node.elts[1])
        if x is not None and y is not None:
            return x, y
    return None


def _receiver(node: ast.expr) -> str:
    """``pyautogui`` for ``pyautogui.click``, ``mouse`` for ``gui.mouse.click``, '' for others."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def _xy(call: ast.Call, first: int = 0) -> tuple[float, float] | None:
    """x, y from positional args (two numbers or one pair) or the x=/y= keywords."""
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    args = call.args[first:]
    if args:
        pair = _pair(args[0])
        if pair is not None:
            return pair
    xn = args[0] if args else kw.get("x")
    yn = args[1] if len(args) > 1 else kw.get("y")
    if xn is None or yn is None:
        return None
    x, y = _number(xn), _number(yn)
    return (x, y) if x is not None and y is not None else None


def _point(call: ast.Call, action: str, space: Space) -> Point | None:
    if action == "drag" and space == "image":  # mouse.drag(start, end)
        ends = [_pair(a) for a in call.args[:2]]
        if len(ends) == 2 and ends[0] is not None and ends[1] is not None:
            return Point(action="drag", x=ends[1][0], y=ends[1][1], space=space, start=ends[0], line=call.lineno)
        return None
    # mouse.scroll(dx, dy, x, y) takes the position third; pyautogui.scroll(clicks, x, y) second.
    first = (2 if space == "image" else 1) if action == "scroll" else 0
    xy = _xy(call, first)
    if xy is None:
        return None
    return Point(action=action, x=xy[0], y=xy[1], space=space, line=call.lineno)


def find_points(code: str | None) -> list[Point]:
    """Pointer actions with literal coordinates in ``code``, in source order; [] if it does not parse."""
    if not code or len(code) > MAX_CODE_CHARS:
        return []
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        # IPython syntax (!cmd, %magic), a broken block, or nesting past the parser's own
        # limits: nothing to draw
        return []
    points = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        action = _ACTIONS.get(node.func.attr)
        owner = _receiver(node.func.value)
        if action is None or owner not in ("mouse", "pyautogui", "pag"):
            continue
        space: Space = "image" if owner == "mouse" else "screen"
        if space == "screen" and node.func.attr in _PYAUTOGUI_RELATIVE:
            continue  # offsets from wherever the pointer was: no point to draw
        point = _point(node, action, space)
        if point is not None:
            points.append(point)
    return sorted(points, key=lambda p: p.line)


def to_image(points: list[Point], image_size: tuple[int, int] | None,
             screen_size: tuple[int, int] | None) -> list[Point]:
    """The points in screenshot pixels: screen-space ones scaled by image/screen width."""
    out = []
    for p in points:
        if p.space == "screen":
            if image_size is None or screen_size is None or not screen_size[0]:
                continue  # unknown scale: better no mark than a wrong one
            f = image_size[0] / screen_size[0]
            start = (p.start[0] * f, p.start[1] * f) if p.start else None
            p = p.model_copy(update={"x": p.x * f, "y": p.y * f, "start": start, "space": "image"})
        out.append(p)
    return out
