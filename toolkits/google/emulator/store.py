"""Emulator state: one SQLite database per emulator instance.

Resources are JSON documents addressed by ``(kind, scope, id)``: ``kind`` is a
service-qualified type (``"calendar.event"``, ``"gmail.message"``,
``"drive.file"``), ``scope`` the parent (a calendar id, ``""`` for top-level).
List order is insertion order (a replaced document keeps its place). Binary
content (file bodies, attachments) lives in ``blobs``; monotonic counters
(Gmail historyId, sequence numbers) in ``counters``. Given ``files_dir``, content
of ``FILE_BLOB_BYTES`` or more lives there instead, one immutable file per
content (named by its SHA-256; ``blob_files`` maps keys to them): large uploads
then cost disk, not the memory of the process the emulator runs in, and
snapshots, which copy the database, stay cheap and still see the same content.

Snapshots use SQLite's online backup API (page copy, well under a millisecond
for small databases): in memory by name, and also as files under
``<state_dir>/snapshots/`` when the emulator has a state directory, so named
snapshots survive a restart.

Thread safety: one connection shared by the server threads; the framework
holds :attr:`Store.lock` around each request so every request is atomic.
"""

from __future__ import annotations

import builtins
import hashlib
import json
import os
import re
import secrets
import shutil
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS docs (
    seq   INTEGER PRIMARY KEY AUTOINCREMENT,
    kind  TEXT NOT NULL,
    scope TEXT NOT NULL,
    id    TEXT NOT NULL,
    body  TEXT NOT NULL,
    UNIQUE (kind, scope, id)
);
CREATE INDEX IF NOT EXISTS docs_id ON docs (kind, id);
CREATE TABLE IF NOT EXISTS blobs (key TEXT PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS blob_files (key TEXT PRIMARY KEY, sha256 TEXT NOT NULL, size INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
"""

FILE_BLOB_BYTES = 256 * 1024
"""Content this large or larger goes to ``files_dir`` (smaller stays in the database)."""
_SNAPSHOT_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,100}$")


class SnapshotError(ValueError):
    """Unknown or badly named snapshot."""


class Store:
    """Typed-free document store over SQLite. See the module docstring."""

    def __init__(self, state_dir: Path | None = None, files_dir: Path | None = None) -> None:
        self.state_dir = state_dir
        self.files_dir = files_dir
        if files_dir is not None:
            files_dir.mkdir(parents=True, exist_ok=True)
        if state_dir is not None:
            state_dir.mkdir(parents=True, exist_ok=True)
            target = str(state_dir / "state.sqlite")
        else:
            target = ":memory:"
        self.conn = sqlite3.connect(target, check_same_thread=False, isolation_level=None)
        # An emulator does not need durability across power loss; it needs speed.
        self.conn.execute("PRAGMA synchronous=OFF")
        self.conn.execute("PRAGMA journal_mode=MEMORY")
        self.conn.executescript(_SCHEMA)
        self.lock = threading.RLock()
        self._snapshots: dict[str, sqlite3.Connection] = {}

    # ---- documents -------------------------------------------------------
    def get(self, kind: str, id: str, scope: str = "") -> dict[str, Any] | None:
        row = self.conn.execute(
            "SELECT body FROM docs WHERE kind=? AND scope=? AND id=?", (kind, scope, id)
        ).fetchone()
        return json.loads(row[0]) if row else None

    def find(self, kind: str, id: str) -> tuple[str, dict[str, Any]] | None:
        """A document by id in any scope: (scope, doc)."""
        row = self.conn.execute("SELECT scope, body FROM docs WHERE kind=? AND id=?", (kind, id)).fetchone()
        return (row[0], json.loads(row[1])) if row else None

    def exists(self, kind: str, id: str, scope: str = "") -> bool:
        return self.conn.execute(
            "SELECT 1 FROM docs WHERE kind=? AND scope=? AND id=?", (kind, scope, id)
        ).fetchone() is not None

    def put(self, kind: str, id: str, doc: dict[str, Any], scope: str = "") -> None:
        """Insert or replace (a replaced document keeps its list position)."""
        self.conn.execute(
            "INSERT INTO docs (kind, scope, id, body) VALUES (?,?,?,?) "
            "ON CONFLICT(kind, scope, id) DO UPDATE SET body=excluded.body",
            (kind, scope, id, json.dumps(doc, separators=(",", ":"))),
        )

    def insert(self, kind: str, id: str, doc: dict[str, Any], scope: str = "") -> bool:
        """Insert only if absent; False when the id is taken (the caller answers 409)."""
        cur = self.conn.execute(
            "INSERT OR IGNORE INTO docs (kind, scope, id, body) VALUES (?,?,?,?)",
            (kind, scope, id, json.dumps(doc, separators=(",", ":"))),
        )
        return cur.rowcount == 1

    def delete(self, kind: str, id: str, scope: str = "") -> bool:
        cur = self.conn.execute("DELETE FROM docs WHERE kind=? AND scope=? AND id=?", (kind, scope, id))
        return cur.rowcount == 1

    def delete_scope(self, kind: str, scope: str) -> int:
        return self.conn.execute("DELETE FROM docs WHERE kind=? AND scope=?", (kind, scope)).rowcount

    def list(self, kind: str, scope: str | None = "") -> list[dict[str, Any]]:
        """All documents of ``kind`` in ``scope`` (``None`` = every scope), insertion order."""
        return [doc for _, doc in self.items(kind, scope)]

    def items(self, kind: str, scope: str | None = "") -> Iterator[tuple[str, dict[str, Any]]]:
        """(scope, doc) pairs in insertion order."""
        if scope is None:
            rows = self.conn.execute("SELECT scope, body FROM docs WHERE kind=? ORDER BY seq", (kind,))
        else:
            rows = self.conn.execute(
                "SELECT scope, body FROM docs WHERE kind=? AND scope=? ORDER BY seq", (kind, scope)
            )
        for s, body in rows.fetchall():
            yield s, json.loads(body)

    # ---- blobs and counters ---------------------------------------------
    def put_blob(self, key: str, data: bytes) -> None:
        if self.files_dir is not None and len(data) >= FILE_BLOB_BYTES:
            digest = hashlib.sha256(data).hexdigest()
            target = self.files_dir / digest
            if not target.exists():
                partial = self.files_dir / f".{digest}.{secrets.token_hex(4)}"
                partial.write_bytes(data)
                os.replace(partial, target)
            self._link_file(key, digest, len(data))
            return
        self.conn.execute("DELETE FROM blob_files WHERE key=?", (key,))
        self.conn.execute("INSERT OR REPLACE INTO blobs (key, data) VALUES (?,?)", (key, data))

    def put_blob_file(self, key: str, path: Path, sha256: str) -> None:
        """Store the content of ``path`` (moved, not copied, when it can be); ``sha256`` is its hash."""
        size = path.stat().st_size
        if self.files_dir is None or size < FILE_BLOB_BYTES:
            self.put_blob(key, path.read_bytes())
            path.unlink()
            return
        target = self.files_dir / sha256
        if target.exists():
            path.unlink()
        else:
            shutil.move(path, target)
        self._link_file(key, sha256, size)

    def _link_file(self, key: str, digest: str, size: int) -> None:
        self.conn.execute("DELETE FROM blobs WHERE key=?", (key,))
        self.conn.execute("INSERT OR REPLACE INTO blob_files (key, sha256, size) VALUES (?,?,?)",
                          (key, digest, size))

    def blob_file(self, key: str) -> Path | None:
        """The file holding a large blob's content (None: absent or kept in the database)."""
        row = self.conn.execute("SELECT sha256 FROM blob_files WHERE key=?", (key,)).fetchone()
        return self.files_dir / row[0] if row and self.files_dir is not None else None

    def collect_files(self) -> int:
        """Delete content files neither the state nor any snapshot names; how many went."""
        if self.files_dir is None:
            return 0
        with self.lock:
            named: set[str] = set()
            for conn in [self.conn, *self._snapshots.values()]:
                named |= _file_names(conn)
            folder = self.state_dir / "snapshots" if self.state_dir else None
            for path in sorted(folder.glob("*.sqlite")) if folder and folder.is_dir() else []:
                disk = sqlite3.connect(str(path))
                try:
                    named |= _file_names(disk)
                finally:
                    disk.close()
            gone = 0
            for path in self.files_dir.iterdir():
                if path.name not in named and not path.name.startswith("."):
                    path.unlink(missing_ok=True)
                    gone += 1
            return gone

    def get_blob(self, key: str) -> bytes | None:
        path = self.blob_file(key)
        if path is not None:
            return path.read_bytes()
        row = self.conn.execute("SELECT data FROM blobs WHERE key=?", (key,)).fetchone()
        return bytes(row[0]) if row else None

    def delete_blob(self, key: str) -> None:
        # The file stays: a snapshot may still name it (files_dir goes with the emulator).
        self.conn.execute("DELETE FROM blobs WHERE key=?", (key,))
        self.conn.execute("DELETE FROM blob_files WHERE key=?", (key,))

    def next_counter(self, name: str, start: int = 1) -> int:
        """Increment and return a named counter (first value = ``start``)."""
        self.conn.execute(
            "INSERT INTO counters (name, value) VALUES (?, ?) "
            "ON CONFLICT(name) DO UPDATE SET value = value + 1",
            (name, start),
        )
        return int(self.conn.execute("SELECT value FROM counters WHERE name=?", (name,)).fetchone()[0])

    def counter(self, name: str, default: int = 0) -> int:
        row = self.conn.execute("SELECT value FROM counters WHERE name=?", (name,)).fetchone()
        return int(row[0]) if row else default

    @staticmethod
    def new_id(length: int = 16, alphabet: str = "0123456789abcdefghijklmnopqrstuv") -> str:
        """A random id (base32hex alphabet by default: valid for Calendar event ids too)."""
        return "".join(secrets.choice(alphabet) for _ in range(length))

    # ---- snapshots ------------------------------------------------------
    def _snapshot_file(self, name: str) -> Path | None:
        return self.state_dir / "snapshots" / f"{name}.sqlite" if self.state_dir else None

    def save_snapshot(self, name: str) -> None:
        if not _SNAPSHOT_NAME.match(name):
            raise SnapshotError(f"snapshot name {name!r}: use letters, digits, '_', '.', '-' (max 100)")
        with self.lock:
            snap = self._snapshots.get(name) or sqlite3.connect(":memory:", check_same_thread=False)
            self.conn.backup(snap)
            self._snapshots[name] = snap
            path = self._snapshot_file(name)
            if path is not None and not name.startswith("__"):
                path.parent.mkdir(parents=True, exist_ok=True)
                disk = sqlite3.connect(str(path))
                try:
                    self.conn.backup(disk)
                finally:
                    disk.close()

    def restore_snapshot(self, name: str) -> None:
        with self.lock:
            snap = self._snapshots.get(name)
            if snap is None:
                path = self._snapshot_file(name)
                if path is None or not path.exists():
                    raise SnapshotError(f"snapshot {name!r} does not exist (known: {self.snapshot_names()})")
                snap = sqlite3.connect(":memory:", check_same_thread=False)
                disk = sqlite3.connect(str(path))
                try:
                    disk.backup(snap)
                finally:
                    disk.close()
                self._snapshots[name] = snap
            snap.backup(self.conn)

    def delete_snapshot(self, name: str) -> bool:
        with self.lock:
            snap = self._snapshots.pop(name, None)
            if snap is not None:
                snap.close()
            path = self._snapshot_file(name)
            on_disk = path is not None and path.exists()
            if on_disk:
                path.unlink()  # type: ignore[union-attr]
            return snap is not None or on_disk

    def snapshot_names(self) -> builtins.list[str]:  # `list` here is the method above
        names = {n for n in self._snapshots if not n.startswith("__")}
        if self.state_dir and (self.state_dir / "snapshots").is_dir():
            names |= {p.stem for p in (self.state_dir / "snapshots").glob("*.sqlite")}
        return sorted(names)

    def close(self) -> None:
        for snap in self._snapshots.values():
            snap.close()
        self.conn.close()


def _file_names(conn: sqlite3.Connection) -> set[str]:
    try:
        return {row[0] for row in conn.execute("SELECT sha256 FROM blob_files")}
    except sqlite3.OperationalError:  # a snapshot saved before blob_files existed
        return set()
