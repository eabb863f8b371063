"""OSWorld's Thunderbird metrics -> deskact judges (``THUNDERBIRD``): a profile's prefs.js and
message filters, read by ``thunderbird.prefs`` and ``thunderbird.filters`` as desktop-env reads them."""

from __future__ import annotations

from collections.abc import Callable

from .common import Untranslatable
from .osworld_metrics_env import MetricEnv, Part, escaped, needs_judge, result_file, rules_of


def _rules(part: Part, kind: type) -> tuple[object, object]:
    rules = rules_of(part)
    unread = sorted(set(rules) - {"expect", "unexpect"})
    if unread:
        raise Untranslatable(f"func {part['func']}: rule keys {unread} are not read by OSWorld either; not translated")
    expect, unexpect = rules.get("expect") or kind(), rules.get("unexpect") or kind()
    if not isinstance(expect, kind) or not isinstance(unexpect, kind):
        raise Untranslatable(f"func {part['func']}: expect/unexpect should be a {kind.__name__}")
    return escaped(expect), escaped(unexpect)


def _check_thunderbird_prefs(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "thunderbird.prefs")
    expect, unexpect = _rules(part, dict)
    env.judge("thunderbird.prefs", path=result_file(env, part), expect=expect or None, unexpect=unexpect or None)


def _check_thunderbird_filter(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "thunderbird.filters")
    expect, unexpect = _rules(part, list)
    env.judge("thunderbird.filters", path=result_file(env, part), expect=expect or None, unexpect=unexpect or None)


def _run_sqlite3(env: MetricEnv, part: Part) -> None:
    """The first value of the first row the rule's query returns on the database, read as a number:
    solved at 1 (the metric's score is that number)."""
    needs_judge(part["func"], "sqlite.value")
    rules = rules_of(part)
    if not isinstance(rules.get("sql"), str) or set(rules) - {"sql"}:
        raise Untranslatable("func run_sqlite3: rules other than one sql query")
    env.judge("sqlite.value", path=result_file(env, part), sql=escaped(rules["sql"]))


THUNDERBIRD: dict[str, Callable[[MetricEnv, Part], None]] = {
    "check_thunderbird_prefs": _check_thunderbird_prefs,
    "check_thunderbird_filter": _check_thunderbird_filter,
    "run_sqlite3": _run_sqlite3,
}
