"""OSWorld's check_moved_jpgs (desktop-env's basic_os.py) on its list_directory getter and
deskact's files.names agree on right and near-miss folders, with os-23393935's rule.

The getter's tree is built here as OSWorld's server builds it (``/list_directory``: os.listdir of
the folder, a folder entry recursed into, ``{"error": ...}`` for a folder it cannot list), from
the same folder the judge reads."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.conformance

FOLDER = "/home/user/Desktop/cpjpg"
EXPECTED = ["emnlp2023.jpg", "hk_group_photo.jpg", "hong-kong-china.jpg",
            "monk252520thailand252520wat252520arun252520scaled25255B225255D.jpg"]


def _tree(folder: Path) -> dict[str, Any]:
    """OSWorld's server's directory tree of ``folder``."""
    try:
        children: list[dict[str, Any]] = []
        for entry in os.listdir(folder):
            path = folder / entry
            children.append(_tree(path) if path.is_dir() else {"type": "file", "name": entry})
        return {"type": "directory", "name": folder.name, "children": children}
    except OSError as exc:
        return {"error": str(exc)}


def _make(root: Path, entries: list[str]) -> None:
    for entry in entries:
        path = root / entry
        path.parent.mkdir(parents=True, exist_ok=True)
        if entry.endswith("/"):
            path.mkdir(exist_ok=True)
        else:
            path.write_bytes(b"\xff\xd8\xff\xe0 jpeg")


CASES = [
    (EXPECTED, EXPECTED, True),
    (EXPECTED, list(reversed(EXPECTED)), True),  # listing order does not matter
    (EXPECTED, EXPECTED[:3], False),  # one missing
    (EXPECTED, [*EXPECTED, "us_3.png"], False),  # a png copied too
    (EXPECTED, [*EXPECTED[:3], "vacation/"], False),  # a folder in place of a file
    (EXPECTED, [*EXPECTED, ".hidden.jpg"], False),  # hidden entries count
    (EXPECTED, [*EXPECTED[:3], "Monk252520thailand252520wat252520arun252520scaled25255B225255D.jpg"], False),
    (EXPECTED, [*EXPECTED[:3], "hk/monk252520thailand252520wat252520arun252520scaled25255B225255D.jpg"], False),
    (EXPECTED, [*EXPECTED, "vacation/"], False),  # the tree copied: a folder beside the files
    (["a.jpg", "a.jpg"], ["a.jpg", "b.jpg"], False),  # a name expected twice
    (["a.jpg", "b.jpg"], ["a.jpg", "b.jpg", "sub/a.jpg"], False),
    ([], [], True),
]


@pytest.mark.parametrize(("expected", "entries", "verdict"), CASES)
def test_check_moved_jpgs(desktop_env: Any, deskact: Any, expected: list[str], entries: list[str],
                          verdict: bool) -> None:
    folder = deskact.home_file(FOLDER + "/x").parent
    folder.mkdir(exist_ok=True)
    _make(folder, entries)
    evaluator = {"func": "check_moved_jpgs", "result": {"type": "list_directory", "path": FOLDER},
                 "expected": {"type": "rule", "rules": {"expected": expected}}}
    theirs = desktop_env.passes("basic_os", "check_moved_jpgs", _tree(folder), {"expected": expected})
    ours = deskact.passes(evaluator)
    assert ours == theirs == verdict, f"deskact {ours} ({deskact.feedback}); desktop-env {theirs}"


@pytest.mark.parametrize("kind", ["missing", "file"])
def test_check_moved_jpgs_without_the_folder(desktop_env: Any, deskact: Any, kind: str) -> None:
    """No folder (or a file in its place): the server answers an error, the metric raises."""
    path = deskact.home_file(FOLDER)
    if kind == "file":
        path.write_text("not a folder")
    evaluator = {"func": "check_moved_jpgs", "result": {"type": "list_directory", "path": FOLDER},
                 "expected": {"type": "rule", "rules": {"expected": EXPECTED}}}
    theirs = desktop_env.passes("basic_os", "check_moved_jpgs", _tree(path), {"expected": EXPECTED})
    ours = deskact.passes(evaluator)
    assert ours is theirs is False
