"""thunderbird.* judges: a Thunderbird profile's files, read as OSWorld's metrics read them.

``thunderbird.prefs`` reads ``prefs.js`` (``user_pref("key", value);`` lines, values as JSON) and
checks rules on preferences; ``thunderbird.filters`` reads a ``msgFilterRules.dat`` and checks
that some filter matches each expected record. Both keep the reading of desktop-env's
``check_thunderbird_prefs`` and ``check_thunderbird_filter`` where it decides verdicts: the last
line of a key wins, a key both expected and unexpected is only expected, a filter is complete at
its ``condition=`` line, and values are cut at fixed offsets (a line must end in ``"``).
"""

from __future__ import annotations

import io
import json
import re
from typing import Any

from ..runtime.tasks.helpers import clip, shown
from ..runtime.tasks.steps import StepContext, Verdict, judge
from . import _value_rules

_PREF = re.compile(r'^user_pref\("(?P<key>(?:[^"]|\\")+)\", (?P<val>.+)\);$')
_CONDITION = re.compile(r'\b(?:AND|OR) \((?:[\w ]+),(?:[\w \']+),(?:"(?:(?:[^"]|\")+)"|(?:[^)]+))\)|\bALL\b')


def _rule_ok(rules: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    for key, rule in rules.items():
        if not isinstance(rule, dict) or not _value_rules.known(str(rule.get("method", ""))) or "ref" not in rule:
            raise ValueError(f"rule for {key!r} needs a known method ({', '.join(_value_rules.METHODS)}) and a ref")
    return rules


@judge("thunderbird.prefs")
def thunderbird_prefs(ctx: StepContext, path: str, expect: dict[str, dict[str, Any]] | None = None,
                      unexpect: dict[str, dict[str, Any]] | None = None) -> Verdict:
    """Every ``expect`` preference of the prefs.js at ``path`` is set and matches its rule
    (``{method, ref}``, OSWorld's methods) and no ``unexpect`` one matches its rule. A preference
    Thunderbird does not write (left at its default) is not in the file: an expected one fails."""
    expect, unexpect = _rule_ok(expect or {}), _rule_ok(unexpect or {})
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{shown(ctx, p)} does not exist (Thunderbird writes it when it saves preferences)")
    found: dict[str, bool] = dict.fromkeys(expect, False)
    values: dict[str, Any] = {}
    unwanted: list[str] = []
    try:
        for line in io.StringIO(p.read_text()):  # lines as a file in text mode gives them
            m = _PREF.match(line.strip())
            if m is None:
                continue
            key = m.group("key")
            if key in expect:
                values[key] = json.loads(m.group("val"))
                found[key] = _value_rules.match(values[key], expect[key]["method"], expect[key]["ref"])
            elif key in unexpect:
                value = json.loads(m.group("val"))
                if _value_rules.match(value, unexpect[key]["method"], unexpect[key]["ref"]):
                    unwanted.append(f"{key} = {clip(value, 80)}")
    except (ValueError, TypeError, re.error) as exc:  # the metric raises on these: it scores 0
        return Verdict.fail(f"{shown(ctx, p)} cannot be checked as OSWorld reads it: {type(exc).__name__}: {exc}")
    wrong = [f"{k} is {clip(values[k], 80) if k in values else 'not set'} (wanted {expect[k]['method']}"
             f" {clip(expect[k]['ref'], 80)})" for k, ok in found.items() if not ok]
    wrong += [f"{u} should not be (it matches its unexpected rule)" for u in unwanted]
    if wrong:
        return Verdict.fail(f"{shown(ctx, p)}: " + "; ".join(wrong))
    return Verdict.ok(f"{shown(ctx, p)}: {len(expect)} preference(s) as expected, {len(unexpect)} unexpected absent")


def _unescape(value: str) -> str:
    return value.replace('\\"', '"').replace("\\\\", "\\")


def read_filters(text: str) -> list[dict[str, Any]]:
    """The filters of a msgFilterRules.dat as OSWorld reads them (``key="value"`` lines, the value
    cut at fixed offsets; a filter counts once its ``condition=`` line is read). A line before the
    first ``name=`` raises, as it does there."""
    filters: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for line in io.StringIO(text):
        for key in ("name", "enabled", "type", "action", "actionValue"):
            if line.startswith(key + "="):
                if key == "name":
                    current = {}
                if current is None:
                    raise ValueError(f"{key}= before any name=")
                current[key] = _unescape(line[len(key) + 2:-2])
                break
        else:
            if line.startswith("condition="):
                if current is None:
                    raise ValueError("condition= before any name=")
                current["condition"] = _CONDITION.findall(_unescape(line[11:-2]))
                filters.append(current)
    return filters


def _matches(pattern: dict[str, Any], item: dict[str, Any]) -> bool:
    return all(k in item and item[k] == v for k, v in pattern.items())


@judge("thunderbird.filters")
def thunderbird_filters(ctx: StepContext, path: str, expect: list[dict[str, Any]] | None = None,
                        unexpect: list[dict[str, Any]] | None = None) -> Verdict:
    """Each ``expect`` record (``name``, ``enabled``, ``type``, ``action``, ``actionValue``,
    ``condition``: a list of its terms such as ``AND (subject,contains,discount)`` or ``ALL``) is
    matched by some filter of the msgFilterRules.dat at ``path``, and no filter matches an
    ``unexpect`` record. A filter with several actions is read with its last one."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{shown(ctx, p)} does not exist (the account has no filters)")
    try:
        filters = read_filters(p.read_text())
    except (ValueError, UnicodeDecodeError) as exc:  # the metric raises: it scores 0
        return Verdict.fail(f"{shown(ctx, p)} cannot be read as OSWorld reads it: {exc}")
    missing = [r for r in expect or [] if not any(_matches(r, f) for f in filters)]
    unwanted = [f for f in filters if any(_matches(r, f) for r in unexpect or [])]
    if missing or unwanted:
        said = [f"no filter matches {clip(r, 200)}" for r in missing]
        said += [f"filter {clip(f.get('name'), 80)} should not be there" for f in unwanted]
        names = [f.get("name") for f in filters]
        return Verdict.fail(f"{shown(ctx, p)}: " + "; ".join(said) + f" (filters: {clip(names, 200)})")
    return Verdict.ok(f"{shown(ctx, p)}: {len(expect or [])} expected filter(s) found, none unexpected")
