"""xlsx.ranges: cells of a sheet matched against a gold sheet's, or against fixed values, by
OSWorld's ``compare_table`` rules ``sheet_fuzzy`` and ``check_cell`` (their ``value`` checks).

Values are read as OSWorld reads them (``_raw``): numbers as floats, so the text of 3 is "3.0".
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_validator

from ...runtime.tasks.helpers import clip, gold_file
from ...runtime.tasks.steps import StepContext, Verdict, judge
from .._value_rules import known, matches
from ._raw import RawSheet


class RangeRule(BaseModel):
    """One ``sheet_fuzzy`` rule: every cell of ``range`` against the same cell of the gold sheet."""

    model_config = ConfigDict(extra="forbid")
    range: list[str]
    type: Literal["exact_match", "includes", "included_by", "fuzzy_match"]
    """includes: the gold text is in the cell's; included_by: the cell's text is in the gold's."""
    threshold: float = 85.0
    """fuzzy_match: the least similarity (0-100, rapidfuzz's ``fuzz.ratio``) that passes."""
    ignore_case: bool = False
    ignore_chars: str = ""
    trim_leadings: str = ""
    trim_trailings: str = ""
    normalization: list[tuple[str, str]] = []


class CellCheck(BaseModel):
    """One ``check_cell`` value check: the cell's value against ``ref`` by ``method`` (eq, ne, lt,
    le, gt, ge; ``approx:<tolerance>``; ``re`` or ``re.<FLAG>...``: a regex search)."""

    model_config = ConfigDict(extra="forbid")
    coordinate: str
    method: str
    ref: Any

    @field_validator("method")
    @classmethod
    def _known_method(cls, method: str) -> str:
        if not known(method):
            raise ValueError(f"method {method!r} is not one of OSWorld's check_cell methods")
        return method


def similarity(a: str, b: str) -> float:
    """rapidfuzz's ``fuzz.ratio``: 100 * 2 * (longest common subsequence) / (total length)."""
    if not a and not b:
        return 100.0
    previous = [0] * (len(b) + 1)
    for ch in a:
        current = [0]
        for j, other in enumerate(b):
            current.append(previous[j] + 1 if ch == other else max(previous[j + 1], current[j]))
        previous = current
    return 100.0 * 2 * previous[-1] / (len(a) + len(b))


def _prepared(text: str, rule: RangeRule) -> str:
    for old, new in rule.normalization:
        text = text.replace(old, new)
    text = text.lstrip(rule.trim_leadings).rstrip(rule.trim_trailings)
    ignored = set(rule.ignore_chars)
    text = "".join(ch for ch in text if ch not in ignored)
    return text.lower() if rule.ignore_case else text


def _cells(ranges: list[str]) -> list[str]:
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.cell_range import MultiCellRange

    return [f"{get_column_letter(c)}{r}" for rng in MultiCellRange(" ".join(ranges)) for r, c in rng.cells]


def _matches(actual: str, gold: str, rule: RangeRule) -> bool:
    if rule.type == "includes":
        return gold in actual
    if rule.type == "included_by":
        return actual in gold
    if rule.type == "fuzzy_match":
        return similarity(actual, gold) >= rule.threshold
    return actual == gold


def check_value(value: Any, check: CellCheck) -> bool:
    return matches(value, check.method, check.ref)


@judge("xlsx.ranges")
def xlsx_ranges(ctx: StepContext, path: str, sheet: str | int, gold: str | None = None, gold_sheet: str | int | None = None,
                ranges: list[RangeRule] | None = None, checks: list[CellCheck] | None = None) -> Verdict:
    """Cells of ``sheet`` (a name, or a position: 0 is the first sheet) in ``path`` read as OSWorld
    reads them (numbers as floats: 3 is "3.0"):
    each ``ranges`` rule compares the text of every cell in its ranges with the same cell of
    ``gold_sheet`` (default ``sheet``) in the gold workbook ``gold`` — ``exact_match``,
    ``includes``, ``included_by`` or ``fuzzy_match`` (``threshold``), after ``normalization``
    replacements, trimming, ``ignore_chars`` and ``ignore_case``; each of ``checks`` compares one
    cell's value with ``ref`` (``eq``, ``approx:0.01``, ``re``...). Feedback names the first cells
    that do not match."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be a spreadsheet but does not exist")
    actual = RawSheet(p, sheet)
    if not actual.found:
        return Verdict.fail(f"{p.name} has no readable sheet {sheet!r}")
    problems = []
    if ranges:
        if gold is None:
            raise ValueError("xlsx.ranges: ranges need a gold workbook")
        reference = RawSheet(gold_file(ctx, gold), sheet if gold_sheet is None else gold_sheet)
        for rule in ranges:
            for coordinate in _cells(rule.range):
                a, g = _prepared(str(actual.value(coordinate)), rule), _prepared(str(reference.value(coordinate)), rule)
                if not _matches(a, g, rule):
                    problems.append(f"{coordinate} is {clip(a, 40)} (gold: {clip(g, 40)}, {rule.type.replace('_', ' ')})")
    for check in checks or []:
        value = actual.value(check.coordinate)
        if not check_value(value, check):
            problems.append(f"{check.coordinate} is {clip(value, 40)} (should be {check.method} {clip(check.ref, 40)})")
    if problems:
        more = f" and {len(problems) - 6} more" if len(problems) > 6 else ""
        return Verdict.fail(f"{p.name} sheet {sheet}: " + "; ".join(problems[:6]) + more, differences=problems[:50])
    return Verdict.ok(f"{p.name} sheet {sheet}: every cell matches")


@judge("xlsx.contains_in_order")
def xlsx_contains_in_order(ctx: StepContext, path: str, cells: str, expected: list[str | list[str]]) -> Verdict:
    """The cells of the range ``cells`` (one column or row, read in order from the active sheet, as
    openpyxl gives them: a formula as its text) each contain the matching ``expected`` text, or one
    of the matching list of texts: OSWorld's ``compare_conference_city_in_order``."""
    import openpyxl

    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be a spreadsheet but does not exist")
    ws = openpyxl.load_workbook(str(p)).active
    values = [cell.value for row in ws[cells] for cell in row]
    if len(expected) < len(values):
        return Verdict.fail(f"{cells} has {len(values)} cells but only {len(expected)} expected values are given")
    for n, (value, want) in enumerate(zip(values, expected)):
        options = [want] if isinstance(want, str) else want
        if not isinstance(value, str) or not any(option in value for option in options):
            return Verdict.fail(f"{p.name} {ws.title}: cell {n + 1} of {cells} is {clip(value, 60)},"
                                f" which holds none of {clip(options, 80)}")
    return Verdict.ok(f"{p.name} {ws.title}: {cells} holds the expected texts in order")
