"""What the three apps share: the Flask factory, a connection per request, money and time.

Each request opens its own SQLite connection to the app's live file (about 50 us)
and commits when the view returns without error: a reset on the host (SQLite
backup API into that same file) then never races a half-written request.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from flask import Flask, g

HERE = Path(__file__).parent
SEEDS = HERE / "seeds"


@dataclass(frozen=True)
class SiteApp:
    """One offline web app: its name (``shop`` -> http://shop.test/), its tables and how to build it."""

    name: str
    title: str
    """Shown in the page header and in the kernel's ``sites`` docs."""
    register: Callable[[Flask], None]
    """Adds the app's routes to a fresh Flask app."""

    def schema(self) -> str:
        return (SEEDS / f"{self.name}.schema.sql").read_text(encoding="utf-8")

    def seeds(self) -> list[str]:
        """Named seeds: ``seeds/<app>.<seed>.sql`` (``empty`` is the schema alone)."""
        names = sorted(p.name.split(".")[1] for p in SEEDS.glob(f"{self.name}.*.sql"))
        return ["empty", *[n for n in names if n != "schema"]]

    def seed_sql(self, seed: str) -> str:
        if seed == "empty":
            return ""
        path = SEEDS / f"{self.name}.{seed}.sql"
        if seed == "schema" or not path.is_file():
            raise ValueError(f"{self.name} has no seed {seed!r}; seeds: {', '.join(self.seeds())}")
        return path.read_text(encoding="utf-8")

    def create(self, db_path: Path) -> Flask:
        """The WSGI app serving ``db_path``."""
        app = Flask(f"deskact_site_{self.name}", template_folder=str(HERE / "templates"))
        app.config.update(DB_PATH=str(db_path), SITE=self)
        app.jinja_env.globals.update(site=self, money=money)
        app.teardown_appcontext(_close_db)
        self.register(app)
        return app


def connect(path: str | Path, readonly: bool = False) -> sqlite3.Connection:
    uri = f"file:{path}?mode=ro" if readonly else f"file:{path}"
    conn = sqlite3.connect(uri, uri=True, timeout=10, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    # A world's database lives for one task and is rebuilt from its seed: no fsync is worth its
    # milliseconds (a reset is otherwise ~10 ms of syncing on a loaded disk).
    conn.execute("PRAGMA synchronous = OFF")
    return conn


def db() -> sqlite3.Connection:
    """This request's connection (committed by the view with ``db().commit()``)."""
    from flask import current_app

    if "db" not in g:
        g.db = connect(current_app.config["DB_PATH"])
    return g.db


def _close_db(_: BaseException | None) -> None:
    conn = g.pop("db", None)
    if conn is not None:
        conn.close()


def now() -> str:
    """Timestamps in the apps' tables: UTC, to the second, ISO 8601 (sorts as text)."""
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")


def money(cents: int | None) -> str:
    return f"${(cents or 0) / 100:,.2f}"


def form_int(value: Any, default: int, low: int, high: int) -> int:
    """A number typed into a form, clamped; junk gives ``default`` (the page says what it used)."""
    try:
        return max(low, min(high, int(str(value).strip())))
    except (TypeError, ValueError):
        return default
