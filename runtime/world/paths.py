"""Resolve a path the way the world sees it, from the host, without ever leaving the world.

Host code (reset steps, judges) reaches a world's files through
``/proc/PID/root`` of a process inside it. That magic link enters the world's
root, but an absolute symlink met on the way would be resolved against the
*host's* root: an agent's ``answer.txt -> /etc/shadow`` would make a judge
read the host's file. So symlinks are resolved here, one component at a time,
with ``/`` and ``..`` clamped to the world's root.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath

_MAX_LINKS = 40  # as the kernel's ELOOP limit


class WorldPathError(OSError):
    """A path loops through symlinks inside the world."""


def resolve_in_root(root: str, path: str | PurePosixPath) -> PurePosixPath:
    """``path`` (absolute, as the world sees it) with every symlink resolved inside ``root``.

    Components that do not exist are kept as they are (a judge may ask about a
    file the agent never made). The result is a world path; ``root`` + it is
    the host path of the same file.
    """
    pending = list(reversed(PurePosixPath("/", path).parts[1:]))
    resolved: list[str] = []
    links = 0
    while pending:
        part = pending.pop()
        if part in ("", "."):
            continue
        if part == "..":
            if resolved:
                resolved.pop()
            continue
        candidate = os.path.join(root, *resolved, part)
        try:
            mode = os.lstat(candidate).st_mode
        except OSError:
            resolved.append(part)
            continue
        if not stat.S_ISLNK(mode):
            resolved.append(part)
            continue
        links += 1
        if links > _MAX_LINKS:
            raise WorldPathError(f"too many levels of symbolic links in {path}")
        target = PurePosixPath(os.readlink(candidate))
        if target.is_absolute():
            resolved = []
        pending.extend(reversed(target.parts[1:] if target.is_absolute() else target.parts))
    return PurePosixPath("/", *resolved)


def host_path(root: str, path: str | PurePosixPath) -> Path:
    """The host path of world path ``path`` (under ``root``, symlinks resolved inside it)."""
    return Path(root + str(resolve_in_root(root, path)))
