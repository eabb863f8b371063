"""Worlds whose deskact process died without closing them (SIGKILL, a crash, a power cut of the VM's
guest): their mounts, cgroups and directories are removed by the next deskact process that makes one.

Left alone they pile up: every host mount is copied into each new sandbox, and with ~800 stale
mounts a kernel-only sandbox took 45 ms longer to start. Each world's directory names its owner
(pid and start time, so a reused pid is not mistaken for it); worlds kept with ``--keep-worlds``
are never reaped.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from . import mounts
from .cgroups import WorldCgroup

OWNER_FILE = "owner.json"
KEPT_FILE = "kept"
PREFIX = "deskact-world-"
_LEGACY_AGE = 30 * 60
"""A world dir without an owner file (made before owners were recorded) is stale after this long."""


def mark(directory: Path, workspace: Path | None = None) -> None:
    """Record this process as the owner of a world's (or the world base's) directory."""
    owner = {"pid": os.getpid(), "start": _start_time(os.getpid()), "workspace": str(workspace or "")}
    (directory / OWNER_FILE).write_text(json.dumps(owner))


def _start_time(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def _owner(directory: Path) -> dict[str, object] | None:
    try:
        return json.loads((directory / OWNER_FILE).read_text())
    except (OSError, ValueError):
        return None


def is_stale(directory: Path) -> bool:
    if (directory / KEPT_FILE).exists():
        return False
    owner = _owner(directory)
    if owner is None:
        try:
            return time.time() - directory.stat().st_mtime > _LEGACY_AGE
        except OSError:
            return False
    pid = int(owner.get("pid", 0))  # type: ignore[call-overload]
    return _start_time(pid) is None or _start_time(pid) != owner.get("start")


def _mount_points_under(directory: Path) -> list[str]:
    prefix = str(directory) + "/"
    points = []
    with open("/proc/self/mountinfo") as f:
        for line in f:
            point = line.split()[4].encode().decode("unicode_escape")  # \040 for a space
            if point.startswith(prefix):
                points.append(point)
    return sorted(points, key=len, reverse=True)  # the deepest first


def reap(tmp: Path | None = None) -> int:
    """Remove every stale world under ``tmp`` (the temp dir); how many were removed."""
    removed = 0
    for directory in Path(tmp or tempfile.gettempdir()).glob(PREFIX + "*"):
        if not directory.is_dir() or not is_stale(directory):
            continue
        owner = _owner(directory) or {}
        workspace = str(owner.get("workspace") or "")
        try:
            if workspace and os.path.ismount(workspace):
                mounts.unmount(workspace)
            for point in _mount_points_under(directory):
                mounts.unmount(point)
        except Exception:  # noqa: BLE001, S112 - never delete files under a live mount
            continue  # a later process tries again
        WorldCgroup(directory.name).remove()  # thawed, emptied, removed: as a world's close does
        shutil.rmtree(directory, ignore_errors=True)
        removed += 1
    return removed
