"""users.exists, groups.exists, packages.installed: the system state of the task's world.

They read the world's own files through ``ctx.path`` (``/etc/passwd``,
``/etc/group``, ``/var/lib/dpkg/status``), as ``getent`` and ``dpkg -s`` would
inside it; without a world, the host's.
"""

from __future__ import annotations

from ..reset_scripts._accounts import accounts, groups
from ..reset_scripts._common import clip
from ..runtime.tasks.steps import StepContext, Verdict, judge

DPKG_STATUS = "/var/lib/dpkg/status"


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


def _dpkg_status(ctx: StepContext) -> dict[str, dict[str, str]]:
    """Package name -> its stanza's fields, from dpkg's database (the world's)."""
    p = ctx.path(DPKG_STATUS)
    if not p.is_file():
        raise FileNotFoundError(f"{DPKG_STATUS} does not exist: not a Debian-based system?")
    found: dict[str, dict[str, str]] = {}
    for stanza in p.read_text(encoding="utf-8", errors="replace").split("\n\n"):
        fields: dict[str, str] = {}
        for line in stanza.splitlines():
            if line[:1] not in (" ", "\t") and ":" in line:
                key, value = line.split(":", 1)
                fields[key] = value.strip()
        if "Package" in fields:
            found.setdefault(fields["Package"], fields)  # one architecture is enough
    return found


@judge("packages.installed")
def packages_installed(ctx: StepContext, name: str, installed: bool = True, version: str | None = None) -> Verdict:
    """Debian package ``name`` is installed (dpkg's database says "install ok installed"), in
    ``version`` when given; with installed: false, it is not (removed, purged or never there)."""
    pkg = name.split(":", 1)[0]  # "curl:amd64"
    fields = _dpkg_status(ctx).get(pkg)
    status = fields.get("Status", "") if fields else ""
    is_installed = status.endswith(" installed")
    state = (f"{status} ({fields.get('Version', '?')})" if fields else "not in dpkg's database")
    if not installed:
        if is_installed:
            return Verdict.fail(f"package {pkg} should not be installed but is: {state}")
        return Verdict.ok(f"package {pkg} is not installed ({state})")
    if not is_installed:
        return Verdict.fail(f"package {pkg} should be installed but is {state}")
    if version is not None and fields.get("Version") != version:
        return Verdict.fail(f"package {pkg} should be installed in version {version} but is in {fields.get('Version')}")
    return Verdict.ok(f"package {pkg} is installed ({fields.get('Version', '?')})")
