"""``deskact doctor``: what this machine has and lacks, per capability, with the fix."""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
from pathlib import Path

from pydantic import BaseModel

from ..config import Config


class Check(BaseModel):
    capability: str
    item: str
    ok: bool
    detail: str = ""
    fix: str = ""


# (capability, program, apt package)
PROGRAMS = [
    ("virtual display", "Xvfb", "xvfb"),
    ("virtual display", "openbox", "openbox"),
    ("gui toolkit", "xdotool", "xdotool"),
    ("gui toolkit", "wmctrl", "wmctrl"),
    ("gui toolkit", "xclip", "xclip"),
    ("apps", "xterm", "xterm"),
    ("apps", "mousepad", "mousepad"),
    ("apps", "soffice", "libreoffice-calc libreoffice-writer libreoffice-impress"),
    ("apps", "gimp", "gimp"),
    ("watch live", "x11vnc", "x11vnc"),
    ("sandbox", "bwrap", "bubblewrap"),
    ("report tests", "chromium", "chromium chromium-driver"),
]


def run_checks(config: Config) -> list[Check]:
    checks = []
    for capability, program, package in PROGRAMS:
        path = shutil.which(program)
        checks.append(Check(capability=capability, item=program, ok=path is not None, detail=path or "not found",
                            fix="" if path else f"sudo apt-get install -y {package}"))
    checks.append(_sandbox_check())
    checks.append(_kernel_start_check(config))
    checks.extend(world_checks(config))
    checks.extend(model_checks(config))
    checks.append(_ray_check())
    checks.append(_google_check(config))
    return checks


def model_checks(config: Config) -> list[Check]:
    """Per provider with an SDK: is it installed (each is an extra), and is its API key set."""
    from ..agent.models import registry

    rows = []
    for name, provider in registry.registered().items():
        if provider.sdk is None:
            continue
        found = _installed(provider.sdk)
        install = f"pip install 'deskact[{provider.extra}]'" if provider.extra else f"pip install {provider.sdk}"
        rows.append(Check(capability="models", item=f"{name} SDK", ok=found,
                          detail=provider.sdk if found else f"{provider.sdk} not installed",
                          fix="" if found else f"{install} (only needed for {name}/* models)"))
    for name, settings in config.providers.by_name().items():
        var = settings.api_key_env
        if not var:
            continue  # a local server that needs no key
        present = bool(os.environ.get(var))
        rows.append(Check(capability="models", item=f"{name} API key", ok=present,
                          detail=f"${var} {'set' if present else 'not set'}",
                          fix="" if present else f"export {var}=... (only needed for {name}/* models)"))
    return rows


def _ray_check() -> Check:
    found = _installed("ray")
    return Check(capability="distributed", item="ray", ok=found, detail="installed" if found else "not installed",
                 fix="" if found else "pip install 'deskact[ray]' (only needed for --backend ray)")


def _installed(module: str) -> bool:
    """Whether ``module`` can be imported, without importing it (an SDK takes ~0.5 s to import)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package missing, or a stub in sys.modules
        return False


def _sandbox_check() -> Check:
    try:
        from ..world.sandbox import sandbox_status

        ok, detail = sandbox_status()
    except ImportError as exc:
        ok, detail = False, f"sandbox module unavailable: {exc}"
    return Check(capability="sandbox", item="bwrap sandbox works", ok=ok, detail=detail,
                 fix="" if ok else "sudo apt-get install -y bubblewrap (and allow unprivileged user namespaces)")


def _kernel_start_check(config: Config) -> Check:
    """Informational: whether kernels will be forked from a pre-imported one (~50 ms) or exec'd (~170 ms)."""
    from ..world.kernel import why_exec

    reason = why_exec(config)
    detail = "forked from a pre-imported kernel into each sandbox" if reason is None else f"exec'd ({reason})"
    if reason is None and _worlds_used(config):
        detail = "forked from a pre-imported kernel into each task's world"
    return Check(capability="sandbox", item="kernel start", ok=True, detail=detail)


# -- worlds (issue 11): one disposable world per task, and what falls back to what ------------------

NO_WORLDS = "no -> kernel-only bwrap sandbox; apps started by reset steps run on the host"


def world_checks(config: Config) -> list[Check]:
    """One row per feature a world is built from, then the verdict (``item == "worlds"``)."""
    root = os.geteuid() == 0
    needs_root = "not checked: needs root"
    rows = [Check(capability="world", item="root", ok=root,
                  detail="running as root" if root else f"running as uid {os.geteuid()}: no worlds",
                  fix="" if root else "run deskact as root (sudo) for one world per task")]
    max_ns = _read_int("/proc/sys/user/max_user_namespaces")
    rows.append(Check(capability="world", item="user namespaces", ok=bool(max_ns),
                      detail=f"user.max_user_namespaces = {max_ns}" if max_ns is not None
                      else "/proc/sys/user/max_user_namespaces missing (kernel without user namespaces)",
                      fix="" if max_ns else "sudo sysctl -w user.max_user_namespaces=15000"))
    overlay = _has_filesystem("overlay")
    rows.append(Check(capability="world", item="overlayfs", ok=overlay,
                      detail="overlay in /proc/filesystems" if overlay else "overlay not in /proc/filesystems",
                      fix="" if overlay else "sudo modprobe overlay"))
    idmap_ok, idmap_detail = _idmap_probe() if root and max_ns else (False, needs_root if not root else "no user namespaces")
    rows.append(Check(capability="world", item="idmapped mounts", ok=idmap_ok, detail=idmap_detail,
                      fix="" if idmap_ok else "run as root" if not root else "Linux >= 5.12 and host "
                      "filesystems that support idmapping (ext4, xfs, btrfs; tmpfs from 6.3)"))
    rows.append(_cgroup_check(config, root))
    quota_ok, quota_detail = _tmpfs_probe(config) if root else (False, needs_root)
    rows.append(Check(capability="world", item="disk quota", ok=quota_ok,
                      detail=quota_detail if quota_ok else f"{quota_detail} -> the workspace is on the host disk, "
                      "no quota", fix="" if quota_ok else "run as root (tmpfs mounts)"))
    rows.append(_verdict(config))
    return rows


def world_verdict(checks: list[Check]) -> str:
    """The one line ``deskact doctor`` prints under its table."""
    (verdict,) = [c for c in checks if c.capability == "world" and c.item == "worlds"]
    return f"worlds: {verdict.detail}"


def _verdict(config: Config) -> Check:
    from ..errors import SandboxError
    from ..world.kernel import sandbox_mode_for
    from ..world.world import world_status

    ok, why = world_status()
    fix = "" if ok else "see the world rows above"
    try:
        mode = sandbox_mode_for(config, None)
    except SandboxError as exc:
        return Check(capability="world", item="worlds", ok=False, detail=f"no -> {exc}", fix=fix)
    if mode != "bwrap":
        detail = "no -> no sandbox (sandbox.mode resolves to none): kernels and apps run on the host"
    elif config.world.enabled == "off":
        detail = f"{NO_WORLDS} (world.enabled = off)"
    elif ok:
        detail = f"yes ({why})"
    elif config.world.enabled == "on":
        detail = f"no -> runs fail (world.enabled = on): {why}"
    else:
        detail = f"{NO_WORLDS}: {why}"
    return Check(capability="world", item="worlds", ok=ok, detail=detail, fix=fix)


def _worlds_used(config: Config) -> bool:
    try:
        from ..world.world import world_wanted

        return world_wanted(config, "bwrap")
    except Exception:  # noqa: BLE001 - the verdict row explains
        return False


def _cgroup_check(config: Config, root: bool) -> Check:
    from ..world.cgroups import describe, layout

    kind, _ = layout()
    w = config.world
    if kind != "none":
        return Check(capability="world", item="cgroup limits", ok=True,
                     detail=f"{describe()}; {w.memory_mb} MB, {w.max_processes} processes, {w.cpus:g} CPUs")
    why = "not root" if not root else (
        "cgroup v1 pids/memory/cpu hierarchies not mounted or not writable, and cgroup v2 does not "
        "delegate pids, memory and cpu")
    return Check(capability="world", item="cgroup limits", ok=False,
                 detail=f"{why} -> kernel rlimits only (apps a reset step starts are not limited)",
                 fix="run as root" if not root else
                 "echo '+pids +memory +cpu' | sudo tee /sys/fs/cgroup/cgroup.subtree_control")


def _read_int(path: str) -> int | None:
    try:
        return int(Path(path).read_text().strip())
    except (OSError, ValueError):
        return None


def _has_filesystem(name: str) -> bool:
    try:
        return any(line.split()[-1] == name for line in Path("/proc/filesystems").read_text().splitlines()
                   if line.strip())
    except OSError:
        return False


def _idmap_probe() -> tuple[bool, str]:
    """Idmap-bind each host dir a world's root is built on (and the temp dir of its skeleton), then undo it."""
    from ..errors import SandboxError
    from ..world import mounts
    from ..world.base import BASE_DIRS
    from ..world.world import ID_COUNT, allocate_ids

    sources = [f"/{name}" for name in BASE_DIRS if Path(f"/{name}").is_dir()] + [tempfile.gettempdir()]
    try:
        userns = mounts.user_namespace(allocate_ids(), ID_COUNT)
    except (SandboxError, OSError) as exc:
        return False, f"no user namespace with a private id range: {exc}"
    try:
        with tempfile.TemporaryDirectory(prefix="deskact-doctor-idmap-") as tmp:
            for source in sources:
                target = Path(tmp, source.strip("/").replace("/", "-") or "root")
                target.mkdir()
                try:
                    mounts.idmapped_bind(source, str(target), userns)
                except SandboxError as exc:
                    return False, f"{source}: {exc}"
                mounts.unmount(str(target))
    finally:
        os.close(userns)
    return True, f"{', '.join(sources)} idmapped into a private id range (Linux {os.uname().release})"


def _tmpfs_probe(config: Config) -> tuple[bool, str]:
    """Mount a 1 MB tmpfs and check its size: a world's disk is a tmpfs of ``world.disk_mb``."""
    from ..errors import SandboxError
    from ..world import mounts

    with tempfile.TemporaryDirectory(prefix="deskact-doctor-tmpfs-") as tmp:
        try:
            mounts.tmpfs(tmp, 1)
        except SandboxError as exc:
            return False, str(exc)
        try:
            st = os.statvfs(tmp)
            size = st.f_blocks * st.f_frsize
        finally:
            mounts.unmount(tmp)
    if not 0 < size <= 2 * 1024 * 1024:
        return False, f"tmpfs size= not honoured (a 1 MB tmpfs has {size} bytes)"
    return True, f"size-limited tmpfs: {config.world.disk_mb} MB per world (writable layer + workspace)"


def _google_check(config: Config) -> Check:
    g = config.google
    if g.backend == "emulator":
        return Check(capability="google", item="google backend", ok=True, detail="local emulator (no account needed)")
    files = [f for f in (g.token_file, g.service_account_file) if f]
    present = [f for f in files if Path(f).expanduser().is_file()]
    return Check(capability="google", item="google credentials", ok=bool(present),
                 detail=", ".join(present) or "no token_file or service_account_file found",
                 fix="" if present else "deskact google login (or set google.service_account_file)")
