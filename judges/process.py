"""process.running and process.absent: what runs in the task's world when the judges look.

In a world every process the agent (or a reset step) started is in the world's
PID namespace; deskact's own ones there (the namespace's init, the world's
placeholder, the agent's kernel) never count. Without a world (the kernel-only
sandbox) the host's processes are searched, as before worlds: those on the
task's display when it has one, and ``name`` matches any part of a command line.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..reset_scripts._accounts import user_id, user_name
from ..runtime.tasks.helpers import Regex, clip
from ..runtime.tasks.limits import runner_pid
from ..runtime.tasks.steps import StepContext, Verdict, judge

_SELECTORS = ("name", "cmdline", "cmdline_regex")
# A kernel (forked from the fork server or exec'd through nsenter) keeps this in its command line:
# ``-m deskact.runtime.world.kernel.forkserver`` or ``.kernel.launcher`` (``kernel_*`` before the
# kernel became a package).
_KERNEL_MARK = "-m deskact.runtime.world.kernel"


@dataclass(frozen=True)
class _Proc:
    pid: int
    uid: int | None
    name: str
    cmdline: str


def _alive(host_pid: int) -> bool:
    """Not a zombie: a process killed but not yet reaped by its parent is gone for the agent."""
    try:
        stat = Path(f"/proc/{host_pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[0] not in ("Z", "X")


def _world_processes(ctx: StepContext) -> list[_Proc]:
    world = ctx.world
    return [
        _Proc(p.pid, p.uid, p.name, p.cmdline) for p in world.processes()
        if p.pid != 1 and p.host_pid != world.pid and _KERNEL_MARK not in p.cmdline and _alive(p.host_pid)
    ]


def _host_processes(ctx: StepContext, text: str | None) -> list[_Proc]:
    import psutil

    from ..reset_scripts.apps.launcher import processes_on_display

    me = {os.getpid(), runner_pid()}  # the judge's own process and the runner it was forked from
    if ctx.display:
        procs = processes_on_display(text or "", ctx.display)
    else:
        procs = [p for p in psutil.process_iter() if p.pid not in me]
    found = []
    for proc in procs:
        try:
            if proc.status() == psutil.STATUS_ZOMBIE:
                continue
            found.append(_Proc(proc.pid, proc.uids().real, proc.name(), " ".join(proc.cmdline())))
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return found


def _named(proc: _Proc, name: str) -> bool:
    """As ``pgrep NAME`` (the kernel's 15-character name) or ``ps`` (argv[0], which ``exec -a`` sets)."""
    argv0 = proc.cmdline.split(" ", 1)[0]
    return name in (proc.name, argv0, os.path.basename(argv0)) or (len(proc.name) == 15 and name.startswith(proc.name))


def _find(
    ctx: StepContext, name: str | None, cmdline: str | None, cmdline_regex: str | None, user: str | None,
) -> tuple[list[_Proc], str]:
    """The matching processes and a description of what was looked for."""
    in_world = ctx.world is not None
    procs = _world_processes(ctx) if in_world else _host_processes(ctx, name if name is not None else cmdline)
    if name is not None and in_world:
        what, found = f"named {name!r}", [p for p in procs if _named(p, name)]
    elif name is not None or cmdline is not None:
        text = name if name is not None else cmdline
        what, found = f"with {text!r} in its command line", [p for p in procs if text in p.cmdline]
    else:
        assert cmdline_regex is not None
        what = f"whose command line matches /{cmdline_regex}/"
        found = [p for p in procs if re.search(cmdline_regex, p.cmdline)]
    if user is not None:
        what += f" run by {user}"
        try:
            uid = user_id(ctx, user) if in_world else _host_uid(user)
        except (LookupError, KeyError):
            return [], f"{what} (there is no user {user!r})"
        found = [p for p in found if p.uid == uid]
    return found, what


def _host_uid(user: str) -> int:
    import pwd

    return int(user) if user.isdigit() else pwd.getpwnam(user).pw_uid


def _listing(ctx: StepContext, procs: list[_Proc]) -> str:
    def owner(p: _Proc) -> str:
        return user_name(ctx, p.uid) if ctx.world is not None else str(p.uid)

    return "; ".join(f"pid {p.pid} ({owner(p)}): {clip(p.cmdline or p.name, 100)}" for p in procs[:8]) + (
        f"; and {len(procs) - 8} more" if len(procs) > 8 else "")


def _others(ctx: StepContext, found: list[_Proc]) -> str:
    """What does run instead (in a world: all of it; the host has too many to list)."""
    if ctx.world is None:
        return ""
    rest = [p for p in _world_processes(ctx) if p not in found]
    return f"; running: {_listing(ctx, rest)}" if rest else "; nothing else runs"


@judge("process.running", one_of=_SELECTORS)
def process_running(
    ctx: StepContext, name: str | None = None, cmdline: str | None = None, cmdline_regex: Regex | None = None,
    user: str | None = None, running: bool = True,
) -> Verdict:
    """A process of the task's world is alive: ``name`` is its name (as ``pgrep NAME`` or ``ps``
    show it; ``exec -a NAME`` sets one), ``cmdline`` a text in its command line, ``cmdline_regex``
    a pattern its command line matches; ``user`` (a name or uid) runs it. With running: false,
    none is (as process.absent). The agent's kernel never counts; zombies are not alive.

    Without a world: host processes (on the task display when it has one); ``name`` is then
    any text in the command line.
    """
    if not running:
        return process_absent(ctx, name, cmdline, cmdline_regex, user)
    found, what = _find(ctx, name, cmdline, cmdline_regex, user)
    if found:
        return Verdict.ok(f"a process {what} is running: {_listing(ctx, found)}", pids=[p.pid for p in found])
    return Verdict.fail(f"no process {what} is running{_others(ctx, found)}")


@judge("process.absent", one_of=_SELECTORS)
def process_absent(
    ctx: StepContext, name: str | None = None, cmdline: str | None = None, cmdline_regex: Regex | None = None,
    user: str | None = None,
) -> Verdict:
    """No process of the task's world matches (``name``, ``cmdline``, ``cmdline_regex``, ``user``
    as for process.running): it was stopped, or never started."""
    found, what = _find(ctx, name, cmdline, cmdline_regex, user)
    if found:
        return Verdict.fail(f"no process {what} should be running, but {_listing(ctx, found)}",
                            pids=[p.pid for p in found])
    return Verdict.ok(f"no process {what} is running")
