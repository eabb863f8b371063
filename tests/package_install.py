"""A package written by a test (its files taken from a docs page's fenced blocks), pip-installed
into the venv running the tests, offline, as a user would install it; uninstalled afterwards.

Used by tests/toolkits/test_own_toolkit_package.py and tests/runtime/agent/models/test_model_package.py,
so the docs' worked examples are what is installed and run.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

BIN = Path(sys.executable).parent


def doc_files(doc: Path, section: str, package: str) -> dict[str, str]:
    """path in the package folder -> text, from the fenced blocks of ``section`` (a heading line of
    ``doc``) whose first line is ``# <package>/PATH``."""
    text = doc.read_text(encoding="utf-8").split(section, 1)[1].split("\n## ", 1)[0]
    files = {}
    for block in re.findall(r"```(?:python|toml|yaml)\n(.*?)```", text, re.DOTALL):
        first = block.split("\n", 1)[0]
        assert first.startswith(f"# {package}/"), first
        files[first.removeprefix(f"# {package}/")] = block
    return files


def write_package(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


@contextmanager
def installed(root: Path, distribution: str) -> Iterator[Path]:
    """``root`` pip-installed (not editable) for the test's duration."""
    pip = [str(BIN / "python"), "-m", "pip"]
    # No network: the venv's setuptools builds it; deskact (its dependency) is installed already.
    done = subprocess.run([*pip, "install", "-q", "--no-deps", "--no-build-isolation", "--no-index", str(root)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    try:
        yield root
    finally:
        subprocess.run([*pip, "uninstall", "-y", "-q", distribution], capture_output=True, timeout=300, check=False)
