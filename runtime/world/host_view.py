"""Which of the host's /etc and /var a world sees: what any user of the host could read, minus
the host's own temp, log and mail folders.

A world's root (root in its user namespace, owner of the idmapped lower layers) could read
every root-only file of the host's /etc and /var: a 0600 file in /etc or /var/tmp, a database's
0700 folder. So the world's view is an allowlist by permission: an entry that the host's
"others" may not read (a file without o+r, a folder without o+rx) is hidden by a whiteout, except
the few that the world needs and deskact rewrites or that hold nothing of the host's (``KEPT``).
Of /var only the installed system's state is shown (``VAR_SHOWN``: lib, cache, local, opt); its
temp, log, mail and spool folders and anything else are empty (opaque) folders in every world,
whatever the host puts there later.

The scan runs when a process builds its base (``runtime/world/base.py``) and again for a world
whenever the folders of /etc changed since (a new file changes its folder's mtime): ``etc_changed``.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

KEPT = {"etc": ("sudoers", "shadow", "gshadow", "shadow-", "gshadow-", ".pwd.lock")}
"""Not readable by others but needed by the world: sudo's own rules (the agent's sudo), the
password files (replaced by copies without hashes: base.SANITIZED)."""
VAR_SHOWN = ("lib", "cache", "local", "opt")
"""What of /var comes from the host; every other folder of it is empty in the world."""


def unreadable(top: Path) -> list[Path]:
    """Entries under ``top`` that others may not read (folders: not enter), relative to ``top``."""
    found, stack = [], [top]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                mode = entry.stat(follow_symlinks=False).st_mode
            except OSError:
                continue
            if stat.S_ISLNK(mode):
                continue  # a link is resolved inside the world, to what the world shows
            if stat.S_ISDIR(mode):
                if mode & 0o005 != 0o005:
                    found.append(Path(entry.path).relative_to(top))
                else:
                    stack.append(Path(entry.path))
            elif not mode & 0o004:
                found.append(Path(entry.path).relative_to(top))
    return sorted(found)


def hidden(top: str) -> list[Path]:
    """What of host folder ``/top`` (etc or var) a world must not see, relative to it."""
    root = Path("/", top)
    if top == "var":
        shown = [name for name in VAR_SHOWN if (root / name).is_dir() and not (root / name).is_symlink()]
        return [Path(name) / rel for name in shown for rel in unreadable(root / name)]
    kept = {Path(name) for name in KEPT.get(top, ())}
    return [rel for rel in unreadable(root) if rel not in kept]


def emptied_var() -> list[Path]:
    """The folders of /var shown empty (opaque) in a world: all but ``VAR_SHOWN`` (links stay)."""
    try:
        entries = list(os.scandir("/var"))
    except OSError:
        return []
    return sorted(Path(e.name) for e in entries if e.is_dir(follow_symlinks=False) and e.name not in VAR_SHOWN)


def whiteout(layer: Path, rel: Path) -> None:
    """Hide ``rel`` of the layer below (a 0/0 character device is overlayfs' whiteout)."""
    target = layer / rel
    for above in reversed(rel.parents[:-1]):  # hidden already with a folder above it
        if (layer / above).exists() and stat.S_ISCHR((layer / above).lstat().st_mode):
            return
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.exists() and not target.is_symlink():
        os.mknod(target, 0o600 | stat.S_IFCHR, os.makedev(0, 0))


def opaque_dir(layer: Path, rel: Path, like: Path) -> None:
    """An empty folder hiding everything below it, with the host folder's owner and mode."""
    target = layer / rel
    target.mkdir(parents=True, exist_ok=True)
    st = like.stat()
    os.chown(target, st.st_uid, st.st_gid)
    target.chmod(stat.S_IMODE(st.st_mode))
    os.setxattr(target, "trusted.overlay.opaque", b"y")


def folder_times(top: str) -> dict[str, int]:
    """Every folder of ``/top`` and its mtime: a file added anywhere changes one of them."""
    times, stack = {}, [Path("/", top)]
    while stack:
        folder = stack.pop()
        try:
            times[str(folder)] = os.stat(folder).st_mtime_ns
            entries = list(os.scandir(folder))
        except OSError:
            continue
        stack += [Path(e.path) for e in entries if e.is_dir(follow_symlinks=False)]
    return times
