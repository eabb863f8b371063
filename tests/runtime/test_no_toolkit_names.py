"""The runtime asks toolkits what they need (Toolkit.needs_display, kernel_env, step hooks) and
never names one: no "gui"/"browser" string in runtime/'s code, no import of a built-in toolkit.

Docstrings and comments may mention toolkits; strings are read with tokenize, so only code counts.
"""

from __future__ import annotations

import ast
import io
import itertools
import tokenize
from pathlib import Path

from deskact.runtime.world.base import PACKAGE_ROOT

RUNTIME = PACKAGE_ROOT / "runtime"
TOOLKIT_NAMES = {"gui", "browser"}
APP_DRIVERS = {"runtime/evaluation/datasets/ground_web.py"}
"""Modules that drive one app on purpose and may import its toolkit: the grounding set's Chromium
scenes read the page's elements over the browser toolkit's DevTools session."""


def docstring_lines(tree: ast.AST) -> set[int]:
    """First lines of every module, class and function docstring."""
    lines = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                lines.add(body[0].lineno)
    return lines


def toolkit_literals(source: str) -> list[tuple[int, str]]:
    """(line, literal) for each string in code (not a docstring) whose value is a toolkit's name."""
    docs = docstring_lines(ast.parse(source))
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.STRING or token.start[0] in docs:
            continue
        try:
            value = ast.literal_eval(token.string)
        except (ValueError, SyntaxError):  # an f-string: its parts are not names
            continue
        if isinstance(value, str) and value.strip() in TOOLKIT_NAMES:
            found.append((token.start[0], token.string))
    return found


def toolkit_imports(source: str) -> list[tuple[int, str]]:
    """(line, module) for each import of a built-in toolkit's package (relative or absolute)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        modules = []
        if isinstance(node, ast.ImportFrom):
            modules = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        for module in modules:
            parts = module.split(".")
            if any(a == "toolkits" and b in TOOLKIT_NAMES for a, b in itertools.pairwise(parts)):
                found.append((node.lineno, module))
    return found


def runtime_files() -> list[Path]:
    return [p for p in sorted(RUNTIME.rglob("*.py")) if "__pycache__" not in p.parts]


def test_the_checks_see_what_they_look_for() -> None:
    sample = 'def f():\n    """Uses the "gui" toolkit."""\n    # "browser" in a comment\n    return "gui" in x\n'
    assert toolkit_literals(sample) == [(4, '"gui"')]
    assert toolkit_imports("from ...toolkits.browser.session import active_url\n") == [
        (1, "toolkits.browser.session"), (1, "toolkits.browser.session.active_url")]
    assert toolkit_imports("from ...toolkits import gui\n") == [(1, "toolkits.gui")]


def test_no_toolkit_name_in_runtime_code() -> None:
    offenders = []
    for path in runtime_files():
        source = path.read_text(encoding="utf-8")
        where = path.relative_to(PACKAGE_ROOT)
        offenders += [f"{where}:{line}: {text}" for line, text in toolkit_literals(source)]
        if str(where) not in APP_DRIVERS:
            offenders += [f"{where}:{line}: import {module}" for line, module in toolkit_imports(source)]
    assert not offenders, "the runtime names toolkits (declare the need on Toolkit instead):\n" + "\n".join(offenders)
