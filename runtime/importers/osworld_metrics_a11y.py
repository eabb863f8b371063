"""OSWorld's metrics on the desktop's accessibility tree (the ``accessibility_tree`` getter: the
XML of every app's AT-SPI objects) -> ``a11y.selectors`` (``A11Y``), which reads the same tree of
the task's world and writes it as the same XML (judges/a11y_tree.py).

``check_accessibility_tree`` is translated for rules that only select (CSS selectors or XPath): a
rule with ``text`` scores a similarity, and another ``osname`` reads another desktop's XML.
``check_left_panel`` (desktop-env 1.0.2: a ``document-frame`` named "Slides View", Impress's
slide pane, anywhere in the tree) is its XPath.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .common import Untranslatable
from .osworld_metrics_env import MetricEnv, Part, escaped, needs_judge

SLIDES_VIEW = "//document-frame[@name='Slides View']"
"""check_left_panel's test: ElementTree's ``root.iter('document-frame')`` with that name (the root
itself included, which a desktop-frame never is)."""


def _tree_getter(part: Part) -> None:
    result = part.get("result") or {}
    if result.get("type") != "accessibility_tree":
        raise Untranslatable(f"result type {result.get('type')}: {part['func']} is translated for accessibility_tree")
    needs_judge(part["func"], "a11y.selectors")


def _rule(rule: Any) -> dict[str, Any]:
    if not isinstance(rule, dict):
        raise Untranslatable(f"check_accessibility_tree: rule {str(rule)[:60]!r} is not an object")
    if "text" in rule or set(rule) - {"selectors", "xpath"}:
        raise Untranslatable(f"check_accessibility_tree: rule keys {sorted(rule)}: only rules that select"
                             " (selectors, xpath) are translated; text scores a similarity")
    if "xpath" in rule:  # the metric's xpath takes the priority over selectors
        if not isinstance(rule["xpath"], str):
            raise Untranslatable("check_accessibility_tree: xpath is not a string")
        return {"xpath": escaped(rule["xpath"])}
    selectors = rule.get("selectors")
    if not isinstance(selectors, list) or not selectors or not all(isinstance(s, str) for s in selectors):
        raise Untranslatable("check_accessibility_tree: selectors is not a list of CSS selectors")
    return {"selectors": escaped(selectors)}


def _check_accessibility_tree(env: MetricEnv, part: Part) -> None:
    _tree_getter(part)
    expected = part.get("expected") or {}
    rules = expected.get("rules")
    if expected.get("type") != "rule" or not isinstance(rules, list) or not rules:
        raise Untranslatable("check_accessibility_tree: expected is not a rule with a list of rules")
    options = part.get("options") or {}
    if options.get("osname", "ubuntu") != "ubuntu" or set(options) - {"osname"}:
        raise Untranslatable(f"check_accessibility_tree: options {options}: only Ubuntu's tree is translated")
    env.judge("a11y.selectors", rules=[_rule(r) for r in rules])


def _check_left_panel(env: MetricEnv, part: Part) -> None:
    _tree_getter(part)
    if part.get("expected") or part.get("options"):
        raise Untranslatable("check_left_panel: takes only the tree; expected or options given")
    env.judge("a11y.selectors", rules=[{"xpath": SLIDES_VIEW}])


A11Y: dict[str, Callable[[MetricEnv, Part], None]] = {
    "check_accessibility_tree": _check_accessibility_tree, "check_left_panel": _check_left_panel}
