"""windows.title: a window on the task's display has a title containing some text."""

from __future__ import annotations

from ..reset_scripts._common import clip
from ..reset_scripts._x11 import list_windows
from ..runtime.tasks.steps import StepContext, Verdict, judge


@judge("windows.title")
def windows_title(ctx: StepContext, contains: str, present: bool = True) -> Verdict:
    """Some window's title contains ``contains`` (case-insensitive); with present: false, none does."""
    if not ctx.display:
        raise RuntimeError(f"windows.title needs a display, but task {ctx.task_id or '?'} has none (set visual: true)")
    titles = [w.title for w in list_windows(ctx.display)]
    hits = [t for t in titles if contains.casefold() in t.casefold()]
    if present and hits:
        return Verdict.ok(f"window {clip(hits[0], 100)} is open")
    if not present and not hits:
        return Verdict.ok(f"no window title contains {contains!r}")
    if present:
        return Verdict.fail(f"no window title contains {contains!r}; open windows: {clip(titles, 240) if titles else 'none'}")
    return Verdict.fail(f"a window titled {clip(hits[0], 100)} should be closed but is open")
