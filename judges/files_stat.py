"""files.stat: a file's size, mode, owner and whether it changed after the reset, in one judge.

Size bounds catch a truncated download or an empty export that still "exists";
``modified`` tells a file the agent wrote from one the reset left there (or the
reverse: a file the task said to leave alone).
"""

from __future__ import annotations

import stat
from datetime import datetime

from ..reset_scripts._common import FileMode, shown
from ..runtime.tasks.steps import StepContext, Verdict, judge
from .files import files_owner


@judge("files.stat")
def files_stat(ctx: StepContext, path: str, size: int | None = None, min_size: int | None = None,
               max_size: int | None = None, mode: FileMode | None = None, owner: str | None = None,
               group: str | None = None, modified: bool | None = None) -> Verdict:
    """``path`` exists and has every property given: ``size`` (bytes, exact) or ``min_size``/``max_size``,
    ``mode`` ("0644"), ``owner``/``group`` (names in the task's world), and ``modified``: true = its
    content changed after the reset ended (the agent wrote it), false = not since."""
    p = ctx.path(path)
    if not (p.exists() or p.is_symlink()):
        return Verdict.fail(f"{shown(ctx, p)} does not exist")
    st = p.lstat()
    problems = []
    if size is not None and st.st_size != size:
        problems.append(f"is {st.st_size} bytes, not {size}")
    if min_size is not None and st.st_size < min_size:
        problems.append(f"is {st.st_size} bytes, less than {min_size}")
    if max_size is not None and st.st_size > max_size:
        problems.append(f"is {st.st_size} bytes, more than {max_size}")
    if mode is not None and stat.S_IMODE(st.st_mode) != mode:
        problems.append(f"has mode {stat.S_IMODE(st.st_mode):04o}, not {mode:04o}")
    if owner is not None:
        verdict = files_owner(ctx, path, owner, group)
        if not verdict.passed:
            problems.append(verdict.feedback.split(" should ", 1)[-1].replace("belong", "should belong", 1))
    if modified is not None:
        if ctx.reset_at is None:
            raise RuntimeError("files.stat `modified` needs the reset's end time, which this context lacks")
        changed = st.st_mtime > ctx.reset_at
        when = datetime.fromtimestamp(st.st_mtime).isoformat(timespec="seconds")
        if changed != modified:
            problems.append(f"was last modified {when}, {'before' if modified else 'after'} the reset ended")
    if problems:
        return Verdict.fail(f"{shown(ctx, p)} " + "; ".join(problems), size=st.st_size)
    return Verdict.ok(f"{shown(ctx, p)} has the expected properties", size=st.st_size)
