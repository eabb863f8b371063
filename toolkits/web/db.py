"""One app's SQLite state for one worker: seeded templates in memory, a live file the app serves.

A reset copies a seeded template into the live file with SQLite's backup API
(about a millisecond for these databases): the file keeps its inode, so the
app's next request simply sees the new state, and a request in flight holds a
lock the backup waits for. Templates are built once per worker from
``seeds/<app>.schema.sql`` + ``seeds/<app>.<seed>.sql``.

Per-task changes on top of a seed (``rows``) are validated against the live
schema so a typo in a task names the table and column it got wrong.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

from .apps.common import SiteApp, connect


class SiteDBError(ValueError):
    """A seed, table or column that the app's database does not have."""


class SiteDB:
    def __init__(self, app: SiteApp, path: Path) -> None:
        self.app = app
        self.path = Path(path)
        self._templates: dict[str, sqlite3.Connection] = {}
        self._lock = threading.Lock()

    def template(self, seed: str) -> sqlite3.Connection:
        with self._lock:
            if seed not in self._templates:
                try:
                    seed_sql = self.app.seed_sql(seed)
                except ValueError as exc:
                    raise SiteDBError(str(exc)) from None
                conn = sqlite3.connect(":memory:", check_same_thread=False)
                conn.executescript(self.app.schema() + "\n" + seed_sql)
                conn.commit()
                self._templates[seed] = conn
            return self._templates[seed]

    def reset(self, seed: str = "default", rows: dict[str, list[dict[str, Any]]] | None = None,
              sql: list[str] | None = None) -> None:
        """Make the live file hold exactly ``seed``, then apply ``rows`` (upserts by ``id`` or
        primary key) and ``sql`` statements, in one transaction after the copy."""
        template = self.template(seed)
        live = connect(self.path)
        try:
            with self._lock:
                template.backup(live)
            with live:
                for table, items in (rows or {}).items():
                    for row in items:
                        _upsert(live, table, row, self.app.name)
                for statement in sql or []:
                    live.execute(statement)
        except sqlite3.Error as exc:
            raise SiteDBError(f"{self.app.name}: {exc}") from exc
        finally:
            live.close()

    def query(self, sql: str, params: tuple | dict = ()) -> list[tuple]:
        """Rows of a read-only query on the live file (judges)."""
        conn = connect(self.path, readonly=True)
        try:
            return [tuple(r) for r in conn.execute(sql, params).fetchall()]
        finally:
            conn.close()

    def dump(self) -> str:
        """The whole state as SQL text (equal dumps = equal states)."""
        conn = connect(self.path, readonly=True)
        try:
            return "\n".join(conn.iterdump())
        finally:
            conn.close()

    def columns(self, table: str) -> dict[str, bool]:
        """Column name -> is part of the primary key; raises for an unknown table."""
        conn = connect(self.path, readonly=True)
        try:
            return table_columns(conn, table, self.app.name)
        finally:
            conn.close()

    def close(self) -> None:
        for conn in self._templates.values():
            conn.close()
        self._templates.clear()


def table_columns(conn: sqlite3.Connection, table: str, app: str) -> dict[str, bool]:
    info = conn.execute("SELECT name, pk FROM pragma_table_info(?)", (table,)).fetchall()
    if not info:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY 1")]
        raise SiteDBError(f"{app} has no table {table!r}; tables: {', '.join(tables)}")
    return {name: bool(pk) for name, pk in info}


def _upsert(conn: sqlite3.Connection, table: str, row: dict[str, Any], app: str) -> None:
    """Update the row with the same primary key if there is one (only the given columns), else insert."""
    columns = table_columns(conn, table, app)
    unknown = [c for c in row if c not in columns]
    if unknown:
        raise SiteDBError(f"{app} table {table!r} has no column {unknown[0]!r}; columns: {', '.join(columns)}")
    keys = [c for c, pk in columns.items() if pk]
    names = ", ".join(f'"{c}"' for c in row)
    if keys and all(k in row for k in keys):
        where = " AND ".join(f'"{k}" = ?' for k in keys)
        sets = ", ".join(f'"{c}" = ?' for c in row if c not in keys)
        exists = conn.execute(f'SELECT 1 FROM "{table}" WHERE {where}', [row[k] for k in keys]).fetchone()
        if exists:
            if sets:
                conn.execute(f'UPDATE "{table}" SET {sets} WHERE {where}',
                             [*(v for c, v in row.items() if c not in keys), *(row[k] for k in keys)])
            return
    conn.execute(f'INSERT INTO "{table}" ({names}) VALUES ({", ".join("?" * len(row))})', list(row.values()))
