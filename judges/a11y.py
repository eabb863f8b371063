"""a11y.element: an element of the active window's accessibility tree, by role, name and states.

Read on the host from the task world's accessibility bus (``observation.a11y``
or a task with an ``a11y.*`` judge starts it): the judge only reads the tree
the apps export, it runs none of the agent's code.
"""

from __future__ import annotations

from ..runtime.agent import a11y
from ..runtime.tasks.helpers import clip
from ..runtime.tasks.steps import StepContext, Verdict, judge
from ..runtime.world.a11y_bus import BUS_SOCKET, world_uids


@judge("a11y.element")
def a11y_element(ctx: StepContext, name: str, role: str | None = None, exact: bool = False,
                 states: list[str] | None = None, present: bool = True) -> Verdict:
    """The active window shows an element named ``name`` (contained, or equal with ``exact``) with
    ``role`` and every state in ``states`` (e.g. checked, selected, focused); ``present: false``
    asks that there be none."""
    if ctx.world is None:
        return Verdict(passed=False, feedback="a11y.element needs the task's world (a task with a display)",
                       error=True)
    socket = ctx.world.host_path(BUS_SOCKET)
    if not socket.exists():
        return Verdict(passed=False, error=True,
                       feedback="the task has no accessibility bus (it needs a display and a world)")
    elements = a11y.read_tree(socket, peer_uids=world_uids(ctx.world))
    found = [e for e in a11y.find(elements, role, name, exact) if set(states or []) <= set(e.states)]
    what = f"{role or 'element'} {name!r}" + (f" ({', '.join(states)})" if states else "")
    window = f"in {elements[0].name!r}" if elements else "(no window exports a tree)"
    if bool(found) == present:
        return Verdict.ok(f"{what} is {'shown' if present else 'not shown'} {window}")
    if present:
        near = [f"{e.role} {e.name!r} {','.join(e.states)}".strip() for e in a11y.find(elements, None, name)]
        seen = f"; elements named like it: {clip('; '.join(near), 200)}" if near else ""
        return Verdict.fail(f"{what} should be shown {window} but is not{seen}")
    return Verdict.fail(f"{what} should not be shown {window} but is")
