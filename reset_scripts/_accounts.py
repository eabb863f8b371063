"""Users, groups and file owners as a task's world sees them (host side).

A world has its own ``/etc/passwd`` and ``/etc/group`` (read through
``ctx.path``) and its own id range: id N inside is ``world.uid + N`` on the
host. Without a world these are the host's files and ids.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..runtime.tasks.step_paths import StepPath
from ..runtime.tasks.steps import StepContext
from ..runtime.world.world import ID_COUNT


@dataclass(frozen=True)
class Account:
    name: str
    uid: int
    gid: int
    home: str
    shell: str


@dataclass(frozen=True)
class Group:
    name: str
    gid: int
    members: tuple[str, ...]
    """Supplementary members (the fourth field of /etc/group)."""


def _lines(ctx: StepContext, path: str) -> list[list[str]]:
    p = ctx.path(path)
    if not p.is_file():
        raise FileNotFoundError(f"{path} does not exist in the task's {'world' if ctx.world else 'host'}")
    return [line.split(":") for line in p.read_text(encoding="utf-8", errors="replace").splitlines()
            if line.strip() and not line.startswith("#")]


def accounts(ctx: StepContext) -> dict[str, Account]:
    """Every account of /etc/passwd by name (the first line wins, as getpwnam does)."""
    found: dict[str, Account] = {}
    for f in _lines(ctx, "/etc/passwd"):
        if len(f) >= 7 and f[2].isdigit() and f[3].isdigit():
            found.setdefault(f[0], Account(f[0], int(f[2]), int(f[3]), f[5], f[6]))
    return found


def groups(ctx: StepContext) -> dict[str, Group]:
    """Every group of /etc/group by name."""
    found: dict[str, Group] = {}
    for f in _lines(ctx, "/etc/group"):
        if len(f) >= 4 and f[2].isdigit():
            members = tuple(m.strip() for m in f[3].split(",") if m.strip())
            found.setdefault(f[0], Group(f[0], int(f[2]), members))
    return found


def world_id(ctx: StepContext, host_id: int) -> int | None:
    """A host uid/gid as the world sees it; None when the world has no such id (it shows as nobody)."""
    if ctx.world is None:
        return host_id
    inner = host_id - ctx.world.uid
    return inner if 0 <= inner < ID_COUNT else None


def host_id(ctx: StepContext, inner: int) -> int:
    """A world uid/gid as the host stores it on the world's files."""
    return inner if ctx.world is None else ctx.world.uid + inner


def user_id(ctx: StepContext, user: str) -> int:
    """A user name or number (as a string) -> uid in the world; LookupError names what exists."""
    if user.isdigit():
        return int(user)
    known = accounts(ctx)
    if user not in known:
        raise LookupError(f"no user {user!r} in /etc/passwd (users: {', '.join(sorted(known)[:40])})")
    return known[user].uid


def group_id(ctx: StepContext, group: str) -> int:
    """A group name or number (as a string) -> gid in the world; LookupError names what exists."""
    if group.isdigit():
        return int(group)
    known = groups(ctx)
    if group not in known:
        raise LookupError(f"no group {group!r} in /etc/group (groups: {', '.join(sorted(known)[:40])})")
    return known[group].gid


def user_name(ctx: StepContext, uid: int | None) -> str:
    """``alice``, or the number when /etc/passwd has no such uid; ``nobody (unmapped)`` for None."""
    if uid is None:
        return "nobody (an id outside the world)"
    return next((a.name for a in accounts(ctx).values() if a.uid == uid), str(uid))


def group_name(ctx: StepContext, gid: int | None) -> str:
    if gid is None:
        return "nogroup (an id outside the world)"
    return next((g.name for g in groups(ctx).values() if g.gid == gid), str(gid))


def owner(ctx: StepContext, p: StepPath | Path) -> tuple[int | None, int | None]:
    """(uid, gid) of ``p`` (from ``ctx.path``) as the world sees them (the link itself for a symlink)."""
    st = p.lstat()
    return world_id(ctx, st.st_uid), world_id(ctx, st.st_gid)
