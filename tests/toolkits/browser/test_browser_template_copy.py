"""A task's profile written from the in-memory template equals the template, owned as asked."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from deskact.toolkits.browser import chromium

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None and not os.path.exists("/usr/lib/chromium/chromium"),
                                reason="Chromium is not installed")


def _tree(root: Path) -> dict[str, tuple[int, bytes | None]]:
    found = {}
    for path in sorted(root.rglob("*")):
        mode = path.lstat().st_mode & 0o7777
        found[str(path.relative_to(root))] = (mode, path.read_bytes() if path.is_file() else None)
    return found


def test_copy_equals_the_template_and_is_owned(tmp_path: Path) -> None:
    template = chromium.template_profile()
    dest = tmp_path / "profile"
    chromium.copy_template(dest, os.getuid())
    assert _tree(dest) == _tree(template)
    assert (dest / "Default" / "Preferences").exists()
    assert all(p.lstat().st_uid == os.getuid() for p in [dest, *dest.rglob("*")])
    # The copy is a task's own: writing to it leaves the template (and the next copy) as it was.
    (dest / "Default" / "Preferences").write_text("{}")
    again = tmp_path / "again"
    chromium.copy_template(again)
    assert _tree(again) == _tree(template)


def test_copy_refuses_a_folder_that_exists(tmp_path: Path) -> None:
    with pytest.raises(FileExistsError):
        chromium.copy_template(tmp_path)
