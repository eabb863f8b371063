"""site.state: what the agent left in an offline web app's database (SQL on the host's copy).

The database is the app's live SQLite file in the worker's host folder, opened
read-only; the agent can change it only through the app's pages and forms.
"""

from __future__ import annotations

import re
from typing import Any

from ..reset_scripts.site import App, site
from ..runtime.tasks.steps import StepContext, StepFailed, Verdict, judge

_READ_ONLY = re.compile(r"^\s*(SELECT|WITH)\b", re.IGNORECASE)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def normalize(rows: list[tuple]) -> Any:
    """No rows -> None; one row of one column -> that value; one column -> a list of values;
    otherwise a list of rows (lists)."""
    if not rows:
        return None
    if all(len(r) == 1 for r in rows):
        return rows[0][0] if len(rows) == 1 else [r[0] for r in rows]
    return [list(r) for r in rows]


def _where(where: dict[str, Any]) -> tuple[str, list[Any]]:
    """``{col: value}`` is equality (``null`` is IS NULL); ``{col: {contains: text}}`` a case-insensitive
    substring; ``{col: {not: value}}`` inequality; ``{col: {gt|lt: n}}`` comparisons."""
    parts, args = [], []
    ops = {"gt": ">", "lt": "<", "ge": ">=", "le": "<=", "not": "IS NOT"}
    for col, value in where.items():
        if isinstance(value, dict):
            if len(value) != 1 or next(iter(value)) not in {*ops, "contains"}:
                raise StepFailed(f"site.state: where.{col} = {value!r}: use one of contains, not, gt, lt, ge, le")
            op, operand = next(iter(value.items()))
            if op == "contains":
                parts.append(f'instr(lower("{col}"), lower(?)) > 0')
            else:
                parts.append(f'"{col}" {ops[op]} ?')
            args.append(operand)
        else:
            parts.append(f'"{col}" IS ?')
            args.append(value)
    return " AND ".join(parts) or "1 = 1", args


def _show(where: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in where.items()) or "any"


@judge("site.state", one_of=("query", "table"))
def site_state(ctx: StepContext, app: App, query: str | None = None, expect: Any = None,
               table: str | None = None, where: dict[str, Any] | None = None, count: int | None = None) -> Verdict:
    """The app's database holds what the task asked for. Either ``query`` (one SELECT) whose result
    equals ``expect`` (no rows -> null, one value -> that value, one column -> a list, else a list
    of rows), or rows of ``table`` matching ``where`` (``{col: value}``, or ``{col: {contains: text}}``,
    ``{not: v}``, ``{gt: n}``, ``{lt: n}``): exactly ``count`` of them, or at least one."""
    from ..toolkits.web.db import SiteDBError

    db = site(ctx, app).db
    try:
        if query is not None:
            if not _READ_ONLY.match(query) or ";" in query.strip().rstrip(";"):
                raise StepFailed(f"site.state: query must be a single SELECT, got {clip(query, 80)!r}")
            got = normalize(db.query(query))
            if got == expect:
                return Verdict.ok(f"{app}: {clip(query, 60)} -> {clip(repr(got), 80)}")
            return Verdict.fail(f"{app}: {clip(query, 80)} gave {clip(repr(got), 160)}, expected {clip(repr(expect), 160)}")
        assert table is not None
        columns = db.columns(table)
        where = where or {}
        unknown = [c for c in where if c not in columns]
        if unknown:
            raise StepFailed(f"site.state: {app} table {table!r} has no column {unknown[0]!r}; columns: {', '.join(columns)}")
        clause, args = _where(where)
        n = db.query(f'SELECT COUNT(*) FROM "{table}" WHERE {clause}', tuple(args))[0][0]
        wanted = f"exactly {count}" if count is not None else "at least one"
        if (n == count) if count is not None else n > 0:
            return Verdict.ok(f"{app}: {n} row(s) of {table} where {_show(where)}")
        shown = list(where) or list(columns)[:4]
        latest = db.query(f'SELECT {", ".join(f"{chr(34)}{c}{chr(34)}" for c in shown)} FROM "{table}" '
                          f"ORDER BY rowid DESC LIMIT 3")
        seen = "; ".join(", ".join(f"{c}={v!r}" for c, v in zip(shown, r, strict=True)) for r in latest) or "none"
        return Verdict.fail(f"{app}: {table} has {n} row(s) where {_show(where)}, expected {wanted}; "
                            f"latest rows: {clip(seen, 300)}")
    except SiteDBError as exc:
        raise StepFailed(f"site.state: {exc}") from None
