"""xlsx.validation_rules: a sheet's data validations against rules, as OSWorld's ``compare_table``
``data_validation`` rule reads them with openpyxl: there are at least as many validations as rule
sets, and every validation satisfies some rule set (each of its attributes, such as ``type``,
``formula1`` or ``ranges``, against a value by OSWorld's methods)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

from ...runtime.tasks.helpers import clip
from ...runtime.tasks.steps import StepContext, Verdict, judge
from .._value_rules import known, matches
from .view import _sheet


class AttributeRule(BaseModel):
    """One attribute of a data validation against ``ref`` by ``method``."""

    model_config = ConfigDict(extra="forbid")
    method: str
    ref: Any = None

    @field_validator("method")
    @classmethod
    def _known_method(cls, method: str) -> str:
        if not known(method):
            raise ValueError(f"method {method!r} is not one of OSWorld's")
        return method


def _satisfies(validation: Any, rule_set: dict[str, AttributeRule]) -> bool:
    return all(matches(getattr(validation, attribute, None), rule.method, rule.ref)
               for attribute, rule in rule_set.items())


@judge("xlsx.validation_rules")
def xlsx_validation_rules(ctx: StepContext, path: str, rules: list[dict[str, AttributeRule]],
                          sheet: str | int = 0) -> Verdict:
    """The data validations of ``sheet`` (a name, or a position: 0 is the first) in ``path``: at
    least as many as ``rules``, and each one satisfies some rule set (attribute -> ``{method,
    ref}``: ``type`` ``eq`` ``list``, ``formula1`` ``str_set_eq`` [...], ``ranges``
    ``spreadsheet_range`` [within, at most]...). Feedback names a validation that fits none."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be a spreadsheet but does not exist")
    ws = _sheet(p, sheet)
    if ws is None:
        return Verdict.fail(f"{p.name} has no sheet {sheet!r}")
    validations = list(ws.data_validations.dataValidation)
    if len(validations) < len(rules):
        return Verdict.fail(f"{p.name} sheet {ws.title} has {len(validations)} data validations, fewer than {len(rules)}")
    for validation in validations:
        if not any(_satisfies(validation, rule_set) for rule_set in rules):
            shown = {k: str(getattr(validation, k, None)) for k in sorted({k for r in rules for k in r})}
            return Verdict.fail(f"{p.name} sheet {ws.title}: the data validation {clip(shown, 160)} fits none of the"
                                " expected ones")
    return Verdict.ok(f"{p.name} sheet {ws.title}: {len(validations)} data validation(s) as expected")
