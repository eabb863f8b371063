"""OSWorld's run_sqlite3 (desktop-env's general.py) and deskact's sqlite.value agree on right and
near-miss databases, with thunderbird-3d1682a7's query on a database shaped as Thunderbird's
global-messages-db.sqlite (its messages and messageAttributes tables)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.conformance

DB = "/home/user/.thunderbird/t5q2a5hp.default-release/global-messages-db.sqlite"
STARRED = ("select sum(1) > 0 from messageAttributes where attributeID = 58 and value = 1 and messageID in"
           " (select id from messages where folderID = 13);")


def _database(path: Path, attributes: list[tuple[int, int, int]], wal: bool = False) -> None:
    """Messages 1-3 in folder 13 (Bills), 4 in folder 7; ``attributes`` are (attributeID, value, messageID)."""
    connection = sqlite3.connect(path)
    if wal:
        connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("create table messages (id integer primary key, folderID integer, subject text)")
    connection.execute("create table messageAttributes (attributeID integer, value numeric, messageID integer)")
    connection.executemany("insert into messages values (?, ?, ?)",
                           [(1, 13, "Gas"), (2, 13, "Water"), (3, 13, "Power"), (4, 7, "Hello")])
    connection.executemany("insert into messageAttributes values (?, ?, ?)", attributes)
    connection.commit()
    connection.close()


CASES = [
    (STARRED, [(58, 1, 1), (58, 1, 2), (58, 1, 3)], True),
    (STARRED, [(58, 1, 2)], True),  # OSWorld's query asks for one starred mail of the folder, not all
    (STARRED, [], False),  # sum over no rows is NULL
    (STARRED, [(58, 0, 1), (58, 0, 2)], False),  # unstarred again
    (STARRED, [(58, 1, 4)], False),  # a star in another folder
    (STARRED, [(57, 1, 1)], False),  # another attribute
    ("select count(*) from messages", [], True),  # 4: a score above 1 is solved too
    ("select 0.5", [], False),
    ("select 'yes'", [], False),  # not a number: the metric raises
    ("select '1'", [], True),  # text that reads as a number
    ("select id from messages where id = 99", [], False),  # no row: the metric raises
    ("select * from nowhere", [], False),  # a failing query
]


@pytest.mark.parametrize(("sql", "attributes", "verdict"), CASES)
def test_run_sqlite3(desktop_env: Any, deskact: Any, sql: str, attributes: list[tuple[int, int, int]],
                     verdict: bool) -> None:
    path = deskact.home_file(DB)
    _database(path, attributes)
    evaluator = {"func": "run_sqlite3", "result": {"type": "vm_file", "path": DB, "dest": "db.sqlite"},
                 "expected": {"type": "rule", "rules": {"sql": sql}}}
    theirs = desktop_env.passes("general", "run_sqlite3", str(path), {"sql": sql})
    ours = deskact.passes(evaluator)
    assert ours == theirs == verdict, f"deskact {ours} ({deskact.feedback}); desktop-env {theirs}"


@pytest.mark.parametrize("kind", ["not a database", "wal"])
def test_run_sqlite3_on_odd_files(desktop_env: Any, deskact: Any, tmp_path: Path, kind: str) -> None:
    """A file that is not a database fails both; a database in WAL mode (Thunderbird's journal mode)
    is read from its main file alone, as OSWorld copies it."""
    path = deskact.home_file(DB)
    if kind == "wal":
        _database(path, [(58, 1, 1)], wal=True)
    else:
        path.write_bytes(b"SQLite format 2\0 garbage" * 10)
    evaluator = {"func": "run_sqlite3", "result": {"type": "vm_file", "path": DB, "dest": "db.sqlite"},
                 "expected": {"type": "rule", "rules": {"sql": STARRED}}}
    copy = tmp_path / "theirs.sqlite"  # OSWorld's getter copies the one file
    copy.write_bytes(path.read_bytes())
    theirs = desktop_env.passes("general", "run_sqlite3", str(copy), {"sql": STARRED})
    ours = deskact.passes(evaluator)
    assert ours == theirs == (kind == "wal"), f"deskact {ours} ({deskact.feedback}); desktop-env {theirs}"
