"""Conditional formatting as desktop-env's ``load_xlsx_styles`` applies it for the ``style`` rule,
for the rules deskact can evaluate without a formula engine.

desktop-env compiles each rule's formulas with the ``formulas`` library; a ``cellIs`` rule compares
every non-empty cell of its ranges (values read as ``read_cell_value`` reads them: ``_raw``) with
the formulas' values and gives the matching cells the rule's differential style. Here a ``cellIs``
rule whose formulas are plain literals (``5``, ``2.5``, ``"text"``) is evaluated the same way:
the comparison operators of ``_process_xlsx_cf_operator``, a number against text failing, any
other operator never matching; after 51 empty cells in a rule, each range stops at its next empty
cell. Rule types desktop-env has no branch for (``top10``, ``duplicateValues``...) reuse the test
of the last rule it did evaluate, as its code does, or match nothing when there was none.

Anything else (``expression`` and the text rules, a formula with a reference or a function) needs
the formula engine: ``NotEvaluated`` is raised and the judge fails, never passing what
desktop-env might fail."""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from typing import Any

from ._raw import RawSheet

_LITERAL = re.compile(r'\d+(\.\d+)?|"[^"]*"')
_NO_BRANCH_TYPES = {"expression", "containsText", "notContainsText", "endsWith", "beginsWith", "containsErrors",
                    "notContainsErrors"}
_COMPARE = {"lessThanOrEqual": operator.le, "lessThan": operator.lt, "equal": operator.eq,
            "greaterThanOrEqual": operator.ge, "notEqual": operator.ne, "greaterThan": operator.gt}


class NotEvaluated(Exception):
    """A conditional format deskact cannot evaluate as desktop-env does."""


def _literal(formula: str) -> Any:
    if not _LITERAL.fullmatch(formula):
        raise NotEvaluated(f"a conditional format's formula {formula!r} needs a formula engine")
    if formula.startswith('"'):
        return formula[1:-1]
    return float(formula) if "." in formula else int(formula)


def _cell_is(op: str, refs: list[Any]) -> Callable[[Any], bool]:
    def test(value: Any) -> bool:
        try:
            if op in _COMPARE:
                return bool(_COMPARE[op](value, refs[0]))
            if op in ("between", "notBetween"):
                low, high = min(refs), max(refs)
                inside = low <= value <= high
                return bool(inside if op == "between" else not inside)
        except (TypeError, IndexError, ValueError):
            return False
        return False  # desktop-env raises for another operator; the cell counts as not matching
    return test


def active_cells(ws: Any, raw: RawSheet) -> list[tuple[Any, Any]]:
    """(cell, the rule's differential style) for every cell a conditional format applies to, in
    the order desktop-env applies them (a later rule's style replaces an earlier one's)."""
    out: list[tuple[Any, Any]] = []
    last: Callable[[Any], bool] | None = None
    for fmt in ws.conditional_formatting:
        for rule in fmt.rules:
            if rule.type in _NO_BRANCH_TYPES:
                raise NotEvaluated(f"a conditional format of type {rule.type} needs a formula engine")
            if rule.type == "cellIs":
                last = _cell_is(rule.operator, [_literal(f) for f in rule.formula])
            elif rule.formula:
                raise NotEvaluated(f"a conditional format of type {rule.type} with formulas needs a formula engine")
            empties = 0
            for rng in fmt.cells:
                for row, col in rng.cells:
                    cell = ws.cell(row=row, column=col)
                    value = raw.value(cell.coordinate)
                    if value is None:
                        empties += 1
                        if empties > 50:
                            break
                        continue
                    if last is not None and last(value):
                        out.append((cell, rule.dxf))
    return out
