"""Every file a suite needs (its YAML, files/ and gold/) is declared package data, so a
non-editable install (`pip install .`) ships it and `deskact run os` works from anywhere.

Matched with the stdlib glob setuptools copies (hidden files excluded, ``**`` recursive);
`include-package-data = false` keeps setuptools from scanning data folders as packages.
"""

from __future__ import annotations

import glob
import tomllib

from deskact.runtime.tasks.task import SUITES_DIR

ROOT = SUITES_DIR.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_every_tracked_suite_file_is_package_data() -> None:
    patterns = PYPROJECT["tool"]["setuptools"]["package-data"]["deskact.task_suites"]
    shipped = {f for p in patterns for f in glob.glob(p, root_dir=SUITES_DIR, recursive=True)}
    data = {
        str(f.relative_to(SUITES_DIR)) for f in SUITES_DIR.rglob("*")
        if f.is_file() and f.suffix not in (".py", ".pyc")
        and not any(part.startswith(".") or part == "__pycache__" for part in f.relative_to(SUITES_DIR).parts)
    }
    assert data, "no suite files tracked?"
    assert {f for f in data if "/gold/" in f} and {f for f in data if "/files/" in f}
    assert data - shipped == set()


def test_data_folders_are_not_scanned_as_packages() -> None:
    assert PYPROJECT["tool"]["setuptools"]["include-package-data"] is False
