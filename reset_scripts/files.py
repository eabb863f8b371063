"""files.* reset steps: build the workspace a task starts from.

Relative paths are taken against the task's workspace; ``src`` params against
the suite's fixture folder (``${FILES}``).
"""

from __future__ import annotations

import os
import shutil
import zipfile
from datetime import datetime
from pathlib import Path

from ..runtime.run.steps import StepContext, StepFailed, reset_step
from ._common import FileMode, fixture


@reset_step("files.mkdir")
def files_mkdir(ctx: StepContext, path: str) -> None:
    """Create a directory and its parents (fine if it exists)."""
    p = ctx.path(path)
    if p.exists() and not p.is_dir():
        raise StepFailed(f"files.mkdir: {p} exists and is not a directory")
    p.mkdir(parents=True, exist_ok=True)


@reset_step("files.write")
def files_write(ctx: StepContext, path: str, content: str = "", mode: FileMode | None = None) -> None:
    """Write a UTF-8 text file (parents created), optionally chmod it."""
    p = ctx.path(path)
    if p.is_dir():
        raise StepFailed(f"files.write: {p} is a directory")
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(content, encoding="utf-8")
    if mode is not None:
        p.chmod(mode)


@reset_step("files.copy")
def files_copy(ctx: StepContext, src: str, dst: str) -> None:
    """Copy a fixture file or folder (``src`` relative to ${FILES}) to ``dst``.

    If ``dst`` is an existing directory, or ends with "/", the source is copied into it.
    """
    source = fixture(ctx, src)
    target = ctx.path(dst)
    if dst.endswith("/"):
        target.mkdir(parents=True, exist_ok=True)
    if target.is_dir():
        target = target / source.name
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.is_dir():
        shutil.copytree(source, target, dirs_exist_ok=True)
    else:
        shutil.copy2(source, target)
    # Fixtures may be read-only in the package; the agent must be able to edit its copy.
    _make_writable(target)


def _make_writable(p: Path) -> None:
    paths = [p] + (list(p.rglob("*")) if p.is_dir() else [])
    for q in paths:
        if not q.is_symlink():
            q.chmod(q.stat().st_mode | 0o200)


@reset_step("files.remove")
def files_remove(ctx: StepContext, path: str) -> None:
    """Remove a file, symlink or whole folder; a missing path is fine."""
    p = ctx.path(path)
    if p.is_symlink() or p.is_file():
        p.unlink()
    elif p.is_dir():
        # Agents may leave read-only files behind; make them deletable first.
        def _retry(func, target, _exc):  # type: ignore[no-untyped-def]
            os.chmod(os.path.dirname(target), 0o700)
            func(target)

        shutil.rmtree(p, onerror=_retry)


@reset_step("files.chmod")
def files_chmod(ctx: StepContext, path: str, mode: FileMode) -> None:
    """Set permission bits, e.g. ``mode: "0600"``."""
    p = ctx.path(path)
    if not p.exists():
        raise StepFailed(f"files.chmod: {p} does not exist")
    p.chmod(mode)


@reset_step("files.touch")
def files_touch(ctx: StepContext, path: str, mtime: float | datetime | str | None = None) -> None:
    """Create an empty file if missing and set its modification time.

    ``mtime``: epoch seconds, an ISO date/time ("2024-03-01T12:00:00"), or
    a relative age like "-3d", "-2h", "-30m" (before now). Default: now.
    """
    p = ctx.path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.touch()
    stamp = _parse_time(mtime)
    os.utime(p, (stamp, stamp))


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def _parse_time(value: float | datetime | str | None) -> float:
    now = datetime.now().timestamp()
    if value is None:
        return now
    if isinstance(value, datetime):
        return value.timestamp()
    if isinstance(value, (int, float)):
        return float(value)
    text = value.strip()
    if text[:1] in "+-" and text[-1:] in _UNITS:
        try:
            return now + float(text[:-1]) * _UNITS[text[-1]]
        except ValueError:
            pass
    try:
        return datetime.fromisoformat(text).timestamp()
    except ValueError:
        raise StepFailed(f"files.touch: mtime {value!r} is not epoch seconds, ISO time or like '-3d'") from None


@reset_step("files.unzip")
def files_unzip(ctx: StepContext, src: str, dst: str) -> None:
    """Extract a fixture zip archive (``src`` relative to ${FILES}) into folder ``dst``."""
    source = fixture(ctx, src)
    target = ctx.path(dst)
    target.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(source) as zf:
        root = target.resolve()
        for name in zf.namelist():
            dest = (root / name).resolve()
            if dest != root and root not in dest.parents:
                raise StepFailed(f"files.unzip: {src} member {name!r} would land outside {root}")
        zf.extractall(target)
