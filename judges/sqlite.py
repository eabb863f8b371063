"""sqlite.* judges: a query's answer on an SQLite database the agent's apps left (Thunderbird's
``global-messages-db.sqlite``), as OSWorld's ``run_sqlite3`` reads it.

The database is copied out of the world (bounded, as every judge's read) and the query runs on the
private copy: the file alone, as OSWorld's getter copies it (a ``-wal`` beside it is not read), never
the agent's file in place. The query is the task's, not the agent's.
"""

from __future__ import annotations

import sqlite3

from ..runtime.tasks.helpers import clip, shown
from ..runtime.tasks.steps import StepContext, Verdict, judge


@judge("sqlite.value")
def sqlite_value(ctx: StepContext, path: str, sql: str, at_least: float = 1.0) -> Verdict:
    """The first column of the first row ``sql`` returns on the database at ``path``, read as a number
    (NULL, 0 and an empty text as 0), is at least ``at_least``. No row, a value that is not a number,
    a file that is not a database or a failing query fail, as the metric raises on them."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{shown(ctx, p)} does not exist")
    try:
        with p.host_copy() as copy:
            connection = sqlite3.connect(copy)  # a private copy, opened as OSWorld opens its own
            try:
                connection.execute("PRAGMA trusted_schema = OFF")  # the agent's schema runs no functions
                row = connection.execute(sql).fetchone()
            finally:
                connection.close()
        if row is None:
            return Verdict.fail(f"the query on {shown(ctx, p)} returned no row")
        value = float(row[0] or 0)
    except (sqlite3.Error, ValueError, TypeError, OverflowError) as exc:
        return Verdict.fail(f"the query on {shown(ctx, p)} cannot be answered as OSWorld reads it:"
                            f" {type(exc).__name__}: {clip(str(exc), 200)}")
    if value >= at_least:
        return Verdict.ok(f"the query on {shown(ctx, p)} gives {value:g} (at least {at_least:g})")
    return Verdict.fail(f"the query on {shown(ctx, p)} gives {clip(row[0], 80)}, not at least {at_least:g}",
                        value=value)
