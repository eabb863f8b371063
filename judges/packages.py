"""packages.installed: a Debian package's state in the task's world, from dpkg's database.

It reads the world's ``/var/lib/dpkg/status`` through ``ctx.path``, as ``dpkg -s``
would inside it; without a world, the host's.
"""

from __future__ import annotations

from ..runtime.tasks.steps import StepContext, Verdict, judge

DPKG_STATUS = "/var/lib/dpkg/status"


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
