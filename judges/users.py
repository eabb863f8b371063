"""users.exists: an account in the task's world (/etc/passwd, with its groups from /etc/group).

It reads the world's own files through ``ctx.path``, as ``getent`` would inside it;
without a world, the host's.
"""

from __future__ import annotations

from ..reset_scripts._accounts import accounts, groups
from ..runtime.tasks.helpers import clip
from ..runtime.tasks.steps import StepContext, Verdict, judge


@judge("users.exists")
def users_exists(
    ctx: StepContext, name: str, uid: int | None = None, group: str | None = None,
    groups_: list[str] | None = None, home: str | None = None, shell: str | None = None, exists: bool = True,
) -> Verdict:
    """User ``name`` has an account (/etc/passwd) with this ``uid``, primary ``group`` (a name),
    ``home`` and login ``shell``, and belongs to every group of ``groups`` (listed as a member
    in /etc/group, or as its primary group). With exists: false, there is no such account."""
    users = accounts(ctx)
    if not exists:
        if name in users:
            a = users[name]
            return Verdict.fail(f"user {name!r} should not exist but does (uid {a.uid}, home {a.home})")
        return Verdict.ok(f"there is no user {name!r}")
    if name not in users:
        return Verdict.fail(f"there is no user {name!r}; users: {clip(sorted(users), 300)}")
    a = users[name]
    known = groups(ctx)
    primary = next((g.name for g in known.values() if g.gid == a.gid), str(a.gid))
    wrong = []
    if uid is not None and a.uid != uid:
        wrong.append(f"uid should be {uid} but is {a.uid}")
    if group is not None and primary != group:
        wrong.append(f"primary group should be {group} but is {primary}")
    if home is not None and a.home.rstrip("/") != home.rstrip("/"):
        wrong.append(f"home should be {home} but is {a.home}")
    if shell is not None and a.shell != shell:
        wrong.append(f"shell should be {shell} but is {a.shell}")
    member_of = sorted({g.name for g in known.values() if name in g.members} | {primary})
    missing = [g for g in groups_ or [] if g not in member_of]
    if missing:
        wrong.append(f"should be in group{'s' if len(missing) > 1 else ''} {', '.join(missing)}"
                     f" but is in {', '.join(member_of)}")
    if wrong:
        return Verdict.fail(f"user {name!r}: " + "; ".join(wrong))
    return Verdict.ok(f"user {name!r} exists (uid {a.uid}, groups {', '.join(member_of)}, home {a.home},"
                      f" shell {a.shell})")
