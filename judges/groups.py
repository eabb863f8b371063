"""groups.exists: a group in the task's world (/etc/group, members by primary group too).

It reads the world's own files through ``ctx.path``, as ``getent`` would inside it;
without a world, the host's.
"""

from __future__ import annotations

from ..reset_scripts._accounts import accounts, groups
from ..runtime.tasks.helpers import clip
from ..runtime.tasks.steps import StepContext, Verdict, judge


@judge("groups.exists")
def groups_exists(
    ctx: StepContext, name: str, gid: int | None = None, members: list[str] | None = None, exists: bool = True,
) -> Verdict:
    """Group ``name`` exists (/etc/group) with this ``gid`` and at least these ``members`` (listed
    in /etc/group, or having it as their primary group). With exists: false, it does not."""
    known = groups(ctx)
    if not exists:
        if name in known:
            return Verdict.fail(f"group {name!r} should not exist but does (gid {known[name].gid})")
        return Verdict.ok(f"there is no group {name!r}")
    if name not in known:
        return Verdict.fail(f"there is no group {name!r}; groups: {clip(sorted(known), 300)}")
    g = known[name]
    have = sorted(set(g.members) | {a.name for a in accounts(ctx).values() if a.gid == g.gid})
    wrong = []
    if gid is not None and g.gid != gid:
        wrong.append(f"gid should be {gid} but is {g.gid}")
    missing = [m for m in members or [] if m not in have]
    if missing:
        wrong.append(f"should have member{'s' if len(missing) > 1 else ''} {', '.join(missing)}"
                     f" but has {', '.join(have) or 'none'}")
    if wrong:
        return Verdict.fail(f"group {name!r}: " + "; ".join(wrong))
    return Verdict.ok(f"group {name!r} exists (gid {g.gid}, members {', '.join(have) or 'none'})")
