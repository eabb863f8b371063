"""How a kernel process is confined: environment allowlist, rlimits, bubblewrap.

Every mode gets an allowlisted environment (no API keys reach the kernel),
rlimits (address space, file size, open files, CPU) and a workspace that is
both the working directory and HOME. ``bwrap`` mode adds a read-only root, a
private /tmp, no network (only loopback), a PID namespace and a process limit.

The command is a chain of exec's with no lingering wrapper process:
``setpriv`` (parent-death signal) -> ``prlimit`` (rlimits) -> ``bwrap`` ->
[``setpriv`` to a non-root uid] -> the kernel. As root, bwrap runs
privileged (it can bind the interpreter from a home dir it then hides) and
the kernel drops to a private uid inside, because RLIMIT_NPROC is ignored for
root; bwrap sets no_new_privs, so setuid binaries cannot win root back.
Unprivileged, bwrap uses a user namespace and the kernel keeps our uid.
As root, the kernel is by default not exec'd at the end of that chain but
forked into the finished sandbox by ``kernel.forkserver`` (same namespaces,
uid, rlimits and environment, a quarter of the start-up CPU).

Four things make ipykernel work under bwrap (see ARCHITECTURE.md): ipc
transport with the socket dir bound at the same path, no JPY_PARENT_PID (in
a PID namespace the parent poller sees PID 1 and quits), interrupts sent as
messages (a SIGINT to the process group would hit bwrap), and new mount
points created only under a tmpfs.
"""

from __future__ import annotations

import itertools
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Literal

from ..config import Config, SandboxConfig
from ..errors import SandboxError
from .base import PACKAGE_ROOT

Mode = Literal["none", "bwrap"]
OWNER_VAR = "DESKACT_KERNEL_OWNER"

X11_DIR = Path("/tmp/.X11-unix")
# Each bwrap kernel runs as its own unused uid, so RLIMIT_NPROC (counted per
# uid) limits one session's fork bomb without starving parallel sessions.
_UID_BASE = 1_900_000
_UID_SPAN = 50_000
_uid_counter = itertools.count()


@dataclass
class SandboxPlan:
    """Everything needed to launch one confined kernel."""

    mode: Mode
    argv: list[str]
    env: dict[str, str]
    cwd: Path
    uid: int | None = None
    """The uid the kernel runs as (None = ours); the workspace is owned by it."""
    rlimits: dict[str, int] = field(default_factory=dict)
    """What ``prlimit`` in ``argv`` sets (for a kernel forked into the sandbox instead)."""


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise SandboxError(f"sandbox: `{name}` not found on PATH (apt-get install util-linux bubblewrap)")
    return path


BWRAP_MOUNT_RACE = "Unable to apply mount flags"
"""bwrap's error when a mount under a path it binds recursively (``--ro-bind / /``) goes away while it
starts (containers/bubblewrap#650): every world's teardown unmounts ~15, so a kernel-only sandbox or
the probe on the same machine may hit it. Transient: starting again works."""


@lru_cache(maxsize=1)
def sandbox_status() -> tuple[bool, str]:
    """Can bwrap confine a process here? (ok, explanation) for ``deskact doctor``."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return False, "bubblewrap is not installed (apt-get install bubblewrap)"
    for tool in ("setpriv", "prlimit"):
        if shutil.which(tool) is None:
            return False, f"`{tool}` is missing (apt-get install util-linux)"
    probe = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
             "--unshare-pid", "--unshare-net", "--die-with-parent", *_drop_to(_probe_uid()), "true"]
    for _ in range(3):  # a failure from the mount race is no answer: auto would silently mean no sandbox
        try:
            out = subprocess.run(probe, capture_output=True, text=True, timeout=10, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return False, f"bwrap probe failed to run: {exc}"
        if BWRAP_MOUNT_RACE not in out.stderr:
            break
    if out.returncode != 0:
        return False, f"bwrap probe failed (exit {out.returncode}): {out.stderr.strip()[:300]}"
    who = "as a non-root uid" if os.geteuid() == 0 else "as the current user"
    return True, f"bubblewrap works ({who}, PID + network namespaces)"


def _probe_uid() -> int | None:
    return _UID_BASE if os.geteuid() == 0 else None


def resolve_mode(config: SandboxConfig, override: str | None = None) -> Mode:
    """``auto`` becomes bwrap when the probe works, else none. An explicit bwrap that cannot work is an error."""
    mode = override or config.mode
    if mode == "none":
        return "none"
    ok, why = sandbox_status()
    if mode == "bwrap" and not ok:
        raise SandboxError(f"sandbox.mode = 'bwrap' but {why}")
    return "bwrap" if ok else "none"


def allocate_uid(mode: Mode) -> int | None:
    """A fresh uid for one bwrap kernel when we are root; None means run as ourselves."""
    if mode != "bwrap" or os.geteuid() != 0:
        return None
    return _UID_BASE + (os.getpid() * 97 + next(_uid_counter)) % _UID_SPAN


def give_to(path: Path, uid: int | None) -> None:
    """Make ``path`` (recursively) owned by the sandbox uid so the kernel can write there."""
    if uid is None:
        return
    os.chown(path, uid, uid)
    # By directory fd, never by path: the sandbox may swap a directory for a symlink to a host
    # directory while we walk (os.walk would then chown host files). fwalk only descends into a
    # directory that is still the one it listed, and each chown is relative to that fd.
    for _root, dirs, files, dir_fd in os.fwalk(path, follow_symlinks=False):
        for name in itertools.chain(dirs, files):
            try:
                os.chown(name, uid, uid, dir_fd=dir_fd, follow_symlinks=False)
            except FileNotFoundError:  # removed while we walked
                pass


def _processes() -> dict[int, tuple[int, int, str]]:
    """pid -> (uid, ppid, state) for every process we can see."""
    table = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                uid = entry.stat().st_uid
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                table[int(entry.name)] = (uid, int(fields[1]), fields[0])
            except (OSError, IndexError, ValueError):
                pass
    return table


def _descendants(table: dict[int, tuple[int, int, str]], root: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for pid, (_, ppid, _) in table.items():
        children.setdefault(ppid, []).append(pid)
    found, todo = {root}, [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _pids_of(uid: int, keep: set[int]) -> list[int]:
    """Live processes of ``uid``. Runs after every kernel, so only their /proc/PID/stat is read."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) in keep:
            continue
        try:
            if entry.stat().st_uid != uid:
                continue
            state = Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        # Zombies hold no slot worth waiting for (their reaper may be a lazy init).
        if state != "Z":
            found.append(int(entry.name))
    return found


def kernel_processes(owner: int | None = None) -> list[int]:
    """PIDs of ipykernel processes started by deskact (by runtime ``owner`` pid if given)."""
    found = []
    own_ns = os.readlink("/proc/self/ns/pid")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if not _is_kernel(entry, own_ns):
                continue
            environ = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        for item in environ:
            if item.startswith(OWNER_VAR.encode() + b"="):
                if owner is None or item.split(b"=", 1)[1] == str(owner).encode():
                    found.append(int(entry.name))
                break
    return found


def _is_kernel(proc_dir: Path, own_pid_ns: str) -> bool:
    cmdline = (proc_dir / "cmdline").read_bytes()
    if b"ipykernel" in cmdline or b"kernel.launcher" in cmdline:
        return True
    # Forked kernels show their fork server's command line; they live in a
    # sandbox's PID namespace, the server in ours.
    return b"kernel.forkserver" in cmdline and os.readlink(proc_dir / "ns" / "pid") != own_pid_ns


def kill_uid(uid: int, wait: float = 3.0, spare: Iterable[int] = ()) -> None:
    """SIGKILL every process of a sandbox uid (unique to one session) and wait until they are gone.

    ``spare``: processes (a standby kernel: bwrap, and the kernel forked into it) whose trees are left alone.
    """
    spare = list(spare)
    table = _processes() if spare else {}
    keep = set().union(*(_descendants(table, pid) for pid in spare))
    deadline = time.monotonic() + wait
    while pids := _pids_of(uid, keep):
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if time.monotonic() > deadline:
            return
        time.sleep(0.002)  # a namespace teardown takes a few ms; each scan costs ~0.2 ms


def kernel_env(
    config: SandboxConfig,
    extra: dict[str, str],
    workspace: Path,
    private_dir: Path,
    display: str | None,
) -> dict[str, str]:
    """The kernel's whole environment: the allowlist, the given env, and where things live."""
    env = {k: os.environ[k] for k in config.env_allow if k in os.environ}
    env.pop("DISPLAY", None)  # only the display we were given, never the host's by accident
    env.setdefault("PATH", os.defpath)
    env.setdefault("LANG", "C.UTF-8")
    env.update(extra)
    env.update(
        {
            "HOME": str(workspace),
            "WORKSPACE": str(workspace),
            # Tool caches and IPython's profile go to a private dir, not the
            # workspace: judges that inspect the workspace should see only the task's files.
            "IPYTHONDIR": str(private_dir / "ipython"),
            "MPLCONFIGDIR": str(private_dir / "mpl"),
            "XDG_CACHE_HOME": str(private_dir / "cache"),
            "PYTHONUNBUFFERED": "1",
            "PYDEVD_DISABLE_FILE_VALIDATION": "1",
            # Not a secret: lets tests and `doctor` find kernels whose runtime is gone.
            OWNER_VAR: str(os.getpid()),
        }
    )
    if display:
        env["DISPLAY"] = display
    return env


def _clamp(limit: int, which: int) -> int:
    """Never ask for more than the hard limit: lowering needs no privilege, raising does."""
    _, hard = resource.getrlimit(which)
    return limit if hard == resource.RLIM_INFINITY else min(limit, hard)


def _own_process_count() -> int:
    uid = str(os.getuid())
    count = 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "status").read_text().split("Uid:\t", 1)[1].split("\t", 1)[0] == uid:
                    count += 1
            except (OSError, IndexError):
                pass
    return count


def rlimits(config: SandboxConfig, mode: Mode, uid: int | None) -> dict[str, int]:
    """The kernel's rlimits, by ``prlimit`` option name (``as`` -> RLIMIT_AS); soft = hard."""
    mib = 1024 * 1024
    limits = {
        "as": _clamp(config.memory_mb * mib, resource.RLIMIT_AS),
        "fsize": _clamp(config.file_size_mb * mib, resource.RLIMIT_FSIZE),
        "nofile": _clamp(config.open_files, resource.RLIMIT_NOFILE),
        "cpu": _clamp(config.cpu_seconds, resource.RLIMIT_CPU),
    }
    if mode == "bwrap":
        # Counted per real uid: with our own uid the limit must leave room for
        # the processes this user already runs (a desktop session has hundreds).
        nproc = config.max_processes if uid is not None else _own_process_count() + config.max_processes
        limits["nproc"] = _clamp(nproc, resource.RLIMIT_NPROC)
    return limits


def die_with_parent(argv: list[str]) -> list[str]:
    return [_tool("setpriv"), "--pdeathsig", "KILL", "--", *argv]


def _drop_to(uid: int | None) -> list[str]:
    """Inside bwrap (run as root): the capabilities to change uid, then the change itself."""
    if uid is None:
        return []
    return ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--",
            _tool("setpriv"), "--reuid", str(uid), "--regid", str(uid), "--clear-groups", "--"]


def _keep_visible() -> list[Path]:
    """Paths the kernel needs even when an ancestor is hidden (the interpreter, deskact itself)."""
    paths = {Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(), PACKAGE_ROOT}
    return sorted(paths)


def _hidden_dirs(config: Config | None) -> list[Path]:
    """Host places with secrets or answers: home dirs and the task suites (gold files)."""
    hidden = [Path("/root"), Path("/home"), PACKAGE_ROOT / "task_suites"]
    if config is not None:
        for name in ("token_file", "client_secrets_file", "service_account_file"):
            value = getattr(config.google, name)
            if value:
                hidden.append(Path(value).expanduser().resolve())
    return [p for p in hidden if p.exists()]


def socket_inside(name: str, private_dir: Path) -> Path:
    """Where the service socket for env var ``name`` is bound in bwrap mode."""
    return private_dir / "sockets" / f"{name}.sock"


def prepare_sockets(sockets: dict[str, Path], mode: Mode, private_dir: Path, uid: int | None) -> dict[str, str]:
    """Env var -> socket path as the kernel sees it; lets the sandbox uid connect."""
    inside = {}
    for name, path in sockets.items():
        path = Path(path).resolve()
        if not path.exists():
            raise SandboxError(f"service socket for {name} does not exist: {path}")
        if uid is not None:
            # Connecting needs write permission on the socket; it is deskact's own service.
            os.chmod(path, path.stat().st_mode | 0o666)
        inside[name] = str(socket_inside(name, private_dir) if mode == "bwrap" else path)
    return inside


def _under(path: Path, base: Path) -> bool:
    return path == base or base in path.parents


def bwrap_args(
    config: SandboxConfig,
    workspace: Path,
    private_dir: Path,
    display: str | None,
    sockets: dict[str, Path],
    full_config: Config | None = None,
    uid: int | None = None,
) -> list[str]:
    args = [
        _tool("bwrap"),
        "--ro-bind", "/", "/",
        "--dev", "/dev",
        "--proc", "/proc",
        "--perms", "1777", "--tmpfs", "/tmp",  # writable by the kernel's uid, like a real /tmp
        "--perms", "1777", "--tmpfs", "/dev/shm",
        "--unshare-pid", "--unshare-ipc", "--unshare-uts",
        "--die-with-parent",
        "--new-session",
        "--unsetenv", "JPY_PARENT_PID",
    ]
    if not config.network:
        args.append("--unshare-net")
    keep = _keep_visible()
    # A venv or checkout under /tmp (CI clones, say) vanished under the tmpfs: show it again,
    # read-only, before the hidden dirs (task_suites) are masked inside it.
    in_tmp = [k for k in keep if _under(k, Path("/tmp")) and k != Path("/tmp")]
    for parent in _parents_in_tmpfs(in_tmp):
        args += ["--perms", "0755", "--dir", str(parent)]
    for k in in_tmp:
        args += ["--ro-bind", str(k), str(k)]
    for path in _hidden_dirs(full_config):
        if any(_under(k, path) for k in keep):
            # The interpreter lives under it (e.g. /root/.pyenv): hide the rest, re-show what is needed.
            if path.is_dir():
                args += ["--tmpfs", str(path)]
                inside = [k for k in keep if _under(k, path)]
                # Without this, bwrap makes the parents root-only: the interpreter would not
                # find its own stdlib as the kernel's uid (and fall back to another Python's).
                for parent in _parents_below(path, inside):
                    args += ["--perms", "0755", "--dir", str(parent)]
                for k in inside:
                    args += ["--ro-bind", str(k), str(k)]
        elif path.is_dir():
            args += ["--tmpfs", str(path)]
        else:
            args += ["--ro-bind", "/dev/null", str(path)]
    # Binds come after the tmpfs mounts: a new mount point can only be created inside a tmpfs.
    # Parents bwrap creates for a nested bind would be root-only (0700): the kernel's
    # uid could not reach its own workspace. Create them world-traversable first.
    for parent in _parents_in_tmpfs([private_dir, workspace]):
        args += ["--perms", "0755", "--dir", str(parent)]
    args += ["--bind", str(private_dir), str(private_dir)]
    args += ["--bind", str(workspace), str(workspace)]
    if display and X11_DIR.is_dir():
        args += ["--ro-bind", str(X11_DIR), str(X11_DIR)]
    # Each service socket appears inside the private dir (owned by the kernel's
    # uid), so its own directory's permissions do not matter.
    for name, host_path in sorted(sockets.items()):
        args += ["--ro-bind", str(Path(host_path).resolve()), str(socket_inside(name, private_dir))]
    args += ["--chdir", str(workspace)]
    return args + _drop_to(uid)


def _parents_in_tmpfs(paths: list[Path]) -> list[Path]:
    """Ancestors of ``paths`` strictly below /tmp, outermost first, without duplicates."""
    return _parents_below(Path("/tmp"), paths)


def _parents_below(base: Path, paths: list[Path]) -> list[Path]:
    """Ancestors of ``paths`` strictly below ``base``, outermost first, without duplicates."""
    out: list[Path] = []
    for path in paths:
        for parent in reversed(Path(path).parents):
            if parent != base and _under(parent, base) and parent not in out:
                out.append(parent)
    return out


def plan(
    inner: list[str],
    *,
    mode: Mode,
    config: Config,
    workspace: Path,
    private_dir: Path,
    env: dict[str, str],
    display: str | None,
    sockets: dict[str, Path],
    uid: int | None,
) -> SandboxPlan:
    """Wrap the kernel command ``inner`` for ``mode``."""
    sb = config.sandbox
    full_env = kernel_env(sb, env, workspace, private_dir, display)
    limits = rlimits(sb, mode, uid)
    argv = [_tool("prlimit"), *(f"--{name}={value}" for name, value in limits.items()), "--"]
    if mode == "bwrap":
        argv += bwrap_args(sb, workspace, private_dir, display, sockets, config, uid)
    argv += inner
    return SandboxPlan(mode=mode, argv=die_with_parent(argv), env=full_env, cwd=workspace, uid=uid, rlimits=limits)


def private_tmp_root() -> Path:
    """Where per-kernel private dirs (ipc sockets, IPython profile) are made."""
    return Path(tempfile.gettempdir())
