"""Worlds whose deskact process died without closing them (SIGKILL, a crash, a power cut of the VM's
guest): their mounts, cgroups and directories are removed by the next deskact process that makes one.

Left alone they pile up: every host mount is copied into each new sandbox, and with ~800 stale
mounts a kernel-only sandbox took 45 ms longer to start. Each world's directory names its owner
(pid and start time, so a reused pid is not mistaken for it); worlds kept with ``--keep-worlds``
are never reaped.

What deskact makes outside its temp dir, or in a temp dir the next process may not share (another
``TMPDIR``), is also listed in an owner file per process (``own``) in a folder that does not depend
on ``TMPDIR`` (``/run/deskact`` as root): worlds, workers' folders, framebuffer files in /dev/shm,
terminal transcripts. ``reap_dead_owners`` (run when any deskact command starts) removes what dead
processes listed: their mounts first, then their cgroups and files.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
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


# -- owner files: what each process made, wherever it made it ---------------------------------------

_own_lock = threading.Lock()


def registry_dir() -> Path:
    """Where owner files live: the same folder for every deskact process of this user, whatever its
    ``TMPDIR`` (``/run/deskact`` as root; the user's runtime or cache folder otherwise)."""
    if os.geteuid() == 0:
        return Path("/run/deskact")
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    return Path(runtime) / "deskact" if runtime else Path.home() / ".cache" / "deskact" / "owners"


def _owner_file() -> Path:
    return registry_dir() / f"{os.getpid()}-{_start_time(os.getpid())}.paths"


def _note(line: str) -> None:
    try:
        with _own_lock:
            folder = registry_dir()
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            with open(_owner_file(), "a", encoding="utf-8") as f:
                f.write(line + "\n")
    except OSError:
        pass  # nowhere to note it (a read-only home): the temp-dir reaper still finds worlds


def own(path: Path | str) -> None:
    """Note that this process made ``path`` (a file or folder): removed if the process dies before
    it does (``disown``)."""
    _note("+" + str(path))


def disown(path: Path | str) -> None:
    """``path`` was removed (or handed over) normally: nothing to reap."""
    _note("-" + str(path))


def _owned(owner_file: Path) -> list[str]:
    paths: dict[str, None] = {}
    for line in owner_file.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("+"):
            paths[line[1:]] = None
        elif line.startswith("-"):
            paths.pop(line[1:], None)
    return list(paths)


def _alive(owner_file: Path) -> bool:
    pid, _, start = owner_file.stem.partition("-")
    return pid.isdigit() and _start_time(int(pid)) == start


def remove_made(path: Path) -> None:
    """Remove what a dead process made at ``path``: its mounts (a world's workspace mount included),
    a world's cgroup, then the files. A world kept with ``--keep-worlds`` stays."""
    if path.is_dir() and not path.is_symlink():
        if (path / KEPT_FILE).exists():
            return
        owner = _owner(path) or {}
        workspace = str(owner.get("workspace") or "")
        if workspace and os.path.ismount(workspace):
            mounts.unmount(workspace)
        for point in _mount_points_under(path):
            mounts.unmount(point)
        if os.path.ismount(path):
            mounts.unmount(str(path))
        if path.name.startswith(PREFIX):
            WorldCgroup(path.name).remove()
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def reap_dead_owners() -> int:
    """Remove everything that dead deskact processes noted as theirs; how many paths were removed."""
    try:
        owner_files = list(registry_dir().glob("*.paths"))
    except OSError:
        return 0
    removed = 0
    for owner_file in owner_files:
        if _alive(owner_file):
            continue
        try:
            paths = _owned(owner_file)
        except OSError:
            continue
        failed = False
        for path in reversed(paths):  # what was made last (inside what was made first) goes first
            try:
                remove_made(Path(path))
                removed += 1
            except Exception:  # noqa: BLE001 - never delete files under a live mount; a later process retries
                failed = True
        if not failed:
            owner_file.unlink(missing_ok=True)
    return removed


def reap_all() -> int:
    """Both reapers: owner files, then stale worlds in this process's temp dir."""
    return reap_dead_owners() + reap()
