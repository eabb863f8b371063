"""A task's world: one disposable sandbox that holds everything the agent can reach.

A world is a set of namespaces (user, mount, PID, IPC, UTS, network) around
a placeholder process, made before the task's reset and thrown away at
cleanup. Inside it:

- ``/`` is an overlay: read-only lower layers are host system directories
  (``/usr``, ``/etc`` minus its secrets, ``/var``, ``/opt``) seen through
  idmapped mounts; writes land in an upper layer on a size-limited tmpfs
  (the disk quota) that teardown discards. Nothing else of the host is there:
  no /root, /home, checkout, suites, gold files or out dir; only the Python
  that runs kernels and deskact's kernel-side code, read-only.
- the agent is root (or, with ``world.user = user``, an account whose sudo reaches
  that root), mapped to an unprivileged host uid range of its own;
- the kernel (forked by the fork server or exec'd through nsenter), every app
  a reset step starts, and all they start, share one PID namespace and one
  cgroup (memory, pids, CPU): killing the namespace's init ends them all;
- the network is loopback only; deskact's services come in as Unix sockets;
  the display is the worker's own X socket, nothing else of /tmp/.X11-unix.

Host code (reset steps, judges) reaches the world through this object:
``spawn``/``run`` a command inside, ``host_path`` for a file at a world path
(symlinks resolved inside the world), ``processes`` it runs, ``frozen`` while
judges look at it. What every world is built on is ``base``; what a dead
process left behind, ``reaper`` removes.
"""

from __future__ import annotations

import itertools
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath

from ..config import Config
from ..errors import SandboxError
from . import host_view, mounts, reaper
from .base import BASE_DIRS, PACKAGE_ROOT, agent_account_id, build_base, etc_hidden_since_base, kernel_side_paths
from .cgroups import Limits, WorldCgroup
from .kernel.forkserver import children, wait_ready
from .paths import host_path, resolve_in_root
from .sandbox import give_to

AGENT_NAME = "agent"
"""The agent's account in a world with ``world.user = user`` (passwordless sudo)."""
ID_COUNT = 65536
"""Ids 0..65535 inside a world map to a private host range (useradd works)."""
_ID_BASE = 100_000_000
_ID_SLOTS = 30_000
_slot_counter = itertools.count()

WORLD_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
# The placeholder is the PID namespace's init (bwrap --as-pid-1): nothing in the world can signal
# it (the kernel drops signals to an init from inside its namespace, and the ones it could catch
# are ignored), so `pkill sleep` or `kill -9 -1` by the agent never takes the world down; it
# reaps the orphans reparented to it (a reset's `server &` once it exits). It waits reading a pipe
# the host never writes (closed at teardown): no child of its own shows in the world's `ps`.
PLACEHOLDER = ["/bin/bash", "-c", "trap '' TERM INT HUP QUIT USR1 USR2; echo ready; while read -r _; do :; done"]
JOIN_CGROUPS = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"'


def agent_id(config: Config) -> int:
    """The agent's uid inside its world: 0 (root) or its account's (see ``agent_account_id``)."""
    return agent_account_id() if config.world.user == "user" else 0


def allocate_ids() -> int:
    """The host uid of a new world's root (its range: this plus ID_COUNT)."""
    slot = (os.getpid() * 7919 + next(_slot_counter)) % _ID_SLOTS
    return _ID_BASE + slot * ID_COUNT


@dataclass(frozen=True)
class WorldProcess:
    pid: int
    """As the world sees it."""
    host_pid: int
    uid: int
    """As the world sees it (0 = the world's root)."""
    name: str
    cmdline: str


class World:
    """One task's world. ``start()`` builds it; ``close()`` throws it away (idempotent)."""

    def __init__(
        self,
        config: Config,
        *,
        workspace: Path,
        private_dir: Path,
        display: str | None = None,
        sockets: dict[Path, Path] | None = None,
        base_uid: int | None = None,
        popen: Callable[..., subprocess.Popen[bytes]] = subprocess.Popen,
        import_paths: list[Path] | None = None,
    ) -> None:
        self.config = config
        self.import_paths = [Path(p).resolve() for p in import_paths or [] if Path(p).is_dir()]
        """Where the kernel imports a user's toolkit from (its PYTHONPATH): shown read-only."""
        self.workspace = Path(workspace)
        self.private_dir = Path(private_dir)
        self.display = display
        self.sockets = dict(sockets or {})
        """Host socket -> where it appears in the world."""
        self.uid = base_uid if base_uid is not None else allocate_ids()
        # bwrap dies with the *thread* that started it (--die-with-parent): callers on short-lived
        # threads (a pool's filler) pass a Popen that runs on a long-lived one.
        self._popen = popen
        self.dir = Path(tempfile.mkdtemp(prefix="deskact-world-"))
        reaper.own(self.dir)  # found after a kill -9 whatever the next process's TMPDIR
        self.dir.chmod(0o711)  # traversable by the world's bwrap (an unmapped owner's 0700 would stop it)
        reaper.mark(self.dir, self.workspace)
        self.name = self.dir.name
        self.proc: subprocess.Popen[bytes] | None = None
        self.pid = 0
        """The placeholder's host pid: the handle for nsenter, the fork server and /proc/PID/root."""
        self.cgroup: WorldCgroup | None = None
        self._userns = -1
        self._mounted: list[str] = []
        self._workspace_mounted = False
        self._closed = False
        self.agent_id = agent_id(config)
        """The agent's uid in the world (its kernel and apps); reset and judge commands run as 0."""
        self.keep = config.world.keep
        """Keep the layers at close (``--keep-worlds``); a pool's unused spare is not kept."""

    # -- building and throwing away -----------------------------------------------

    def start(self, timeout: float = 20.0) -> World:
        try:
            self._build_layers()
            self._launch(timeout)
        except BaseException:
            self.close()
            raise
        return self

    def _build_layers(self) -> None:
        base = build_base()
        wc = self.config.world
        self._userns = mounts.user_namespace(self.uid, ID_COUNT)
        disk = self.dir / "disk"
        disk.mkdir()
        mounts.tmpfs(str(disk), wc.disk_mb)
        self._mounted.append(str(disk))
        os.chown(disk, self.uid, self.uid)
        for name in ("root", *BASE_DIRS):
            lowers = [self._idmapped(str(base / "root") if name == "root" else f"/{name}", f"low-{name}")]
            mask = base / f"mask-{name}"
            if mask.is_dir() and any(mask.iterdir()):
                lowers.insert(0, self._idmapped(str(mask), f"low-mask-{name}"))
            if name == "etc" and (late := etc_hidden_since_base()):
                own = self.dir / "mask-etc-now"  # a root-only file put in /etc since the base was built
                for rel in late:
                    host_view.whiteout(own, rel)
                lowers.insert(0, self._idmapped(str(own), "low-mask-etc-now"))
            upper, work, merged = disk / "upper" / name, disk / "work" / name, self.dir / "merged" / name
            for d in (upper, work, merged):
                d.mkdir(parents=True)
            for d in (upper, upper.parent, work, work.parent):
                os.chown(d, self.uid, self.uid)  # the world's root owns what it writes
            mounts.overlay(lowers, str(upper), str(work), str(merged))
            self._mounted.append(str(merged))
        # The workspace lives on the world's disk too (same quota), seen by the host at its usual path.
        inner = disk / "workspace"
        inner.mkdir()
        for item in self.workspace.iterdir():  # what was there already (normally nothing)
            shutil.move(str(item), inner / item.name)
        os.chown(inner, self.uid + self.agent_id, self.uid + self.agent_id)
        # /dev/shm on the same disk: filling it fails with ENOSPC, where a tmpfs of its own (half the
        # host's memory) filled the world's memory cgroup and got the whole world killed.
        shm = disk / "shm"
        shm.mkdir()
        os.chown(shm, self.uid, self.uid)
        shm.chmod(0o1777)
        subprocess.run(["mount", "--bind", str(inner), str(self.workspace)], check=True, capture_output=True)
        self._workspace_mounted = True
        self._make_bind_parents(self.dir / "merged" / "root")
        if self.agent_id:
            self._add_agent(self.dir / "merged")
        self.cgroup = WorldCgroup(self.name, Limits(wc.memory_mb, wc.max_processes, wc.cpus))

    def _shown(self) -> list[Path]:
        """Host paths shown read-only: what kernels run on, plus the kernel's own import paths
        (those inside the base dirs are there already)."""
        checkout = PACKAGE_ROOT
        # Never a folder that holds the checkout (its suites, gold files and .git), whoever asks.
        extra = [p for p in self.import_paths if p.parts[1:2] and not _in_base(p)
                 and not (p == checkout or p in checkout.parents or checkout in p.parents)]
        return sorted(set(kernel_side_paths()) | set(extra))

    def _make_bind_parents(self, root: Path) -> None:
        """The parents of what bwrap binds in, made traversable (bwrap would make them 0700: a
        non-root agent could not reach its own interpreter or workspace)."""
        for target in [*self._shown(), self.private_dir, self.workspace]:
            for parent in reversed(target.parents[:-1]):  # outermost first, / excluded
                if parent.parts[1] in BASE_DIRS:
                    break  # inside a base overlay: the host's own directories
                made = root / parent.relative_to("/")
                if not made.is_dir():
                    made.mkdir(mode=0o755)
                    os.chown(made, self.uid, self.uid)

    def _add_agent(self, merged: Path) -> None:
        """The agent's account: a line in passwd, group and shadow, sudo without a password, a home."""
        etc, n, i = merged / "etc", AGENT_NAME, self.agent_id
        for name, line in (("passwd", f"{n}:x:{i}:{i}:deskact agent:/home/{n}:/bin/bash"),
                           ("group", f"{n}:x:{i}:"), ("shadow", f"{n}:*:19000:0:99999:7:::")):
            path = etc / name
            if path.exists():  # appending copies the file up; it keeps its owner (the world's root)
                text = path.read_text()
                path.write_text(text + ("" if text.endswith("\n") or not text else "\n") + line + "\n")
        hosts = etc / "hosts"  # sudo looks its host name up ("deskact", bwrap --hostname)
        if hosts.exists() and "deskact" not in hosts.read_text():
            hosts.write_text(hosts.read_text().rstrip("\n") + "\n127.0.1.1\tdeskact\n")
        sudoers = etc / "sudoers.d"
        sudoers.mkdir(exist_ok=True)
        rule = sudoers / "deskact-agent"
        rule.write_text(f"{n} ALL=(ALL:ALL) NOPASSWD: ALL\n")
        rule.chmod(0o440)
        home = merged / "root" / "home" / n
        home.mkdir(parents=True, exist_ok=True)
        for path, owner in ((sudoers, self.uid), (rule, self.uid), (home, self.uid + i)):
            os.chown(path, owner, owner)  # never an unmapped owner: sudo refuses those rules

    def _idmapped(self, source: str, name: str) -> str:
        target = self.dir / name
        target.mkdir()
        mounts.idmapped_bind(source, str(target), self._userns)
        self._mounted.append(str(target))
        return str(target)

    def _expose(self, source: Path) -> str:
        """A host path the world's bwrap can reach: bound into our own dir (its host parents may be 0700)."""
        target = self.dir / f"show-{len(self._mounted)}"
        if source.is_dir():
            target.mkdir()
        else:
            target.touch()
        mounts.bind(str(source), str(target))
        self._mounted.append(str(target))
        return str(target)

    def _bwrap_args(self) -> list[str]:
        merged = self.dir / "merged"
        args = [shutil.which("bwrap") or "bwrap", "--bind", str(merged / "root"), "/"]
        for name in BASE_DIRS:
            args += ["--bind", str(merged / name), f"/{name}"]
        args += ["--dev", "/dev", "--proc", "/proc", "--ro-bind", "/sys", "/sys",
                 "--bind", str(self.dir / "disk" / "shm"), "/dev/shm"]
        for path in self._shown():
            args += ["--ro-bind", self._expose(path), str(path)]
        args += ["--bind", self._expose(self.private_dir), str(self.private_dir),
                 "--bind", self._expose(self.workspace), str(self.workspace)]
        if self.display:
            socket = Path("/tmp/.X11-unix") / f"X{self.display.lstrip(':').split('.')[0]}"
            if socket.exists():
                args += ["--perms", "1777", "--dir", "/tmp/.X11-unix", "--ro-bind", str(socket), str(socket)]
        for host, inside in sorted(self.sockets.items()):
            args += ["--ro-bind", self._expose(host), str(inside)]
        args += ["--unshare-pid", "--as-pid-1", "--unshare-ipc", "--unshare-uts", "--hostname", "deskact",
                 "--die-with-parent", "--unsetenv", "JPY_PARENT_PID", "--chdir", str(self.workspace)]
        if not self.config.sandbox.network:
            args.append("--unshare-net")
        return args

    def _launch(self, timeout: float) -> None:
        assert self.cgroup is not None
        argv = [*self._cgroup_prefix(), "nsenter", f"--user=/proc/self/fd/{self._userns}", "-S", "0", "-G", "0",
                "--", *self._bwrap_args(), "--", *PLACEHOLDER]
        log = open(self.dir / "bwrap.log", "wb")  # noqa: SIM115 - handed to the child
        try:
            self.proc = self._popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, pass_fds=(self._userns,),
                # The world's PID 1 inherits this (its /proc/1/environ): the world's, not the host's PATH.
                env={"PATH": WORLD_PATH, "LANG": "C.UTF-8"}, start_new_session=True,
            )
        finally:
            log.close()
        assert self.proc.stdout is not None
        if not wait_ready(self.proc.stdout, timeout):
            tail = (self.dir / "bwrap.log").read_text(errors="replace")[-1500:].strip()
            raise SandboxError(f"the world did not start (bwrap exit {self.proc.poll()}): {tail}")
        inits = children(self.proc.pid)
        if not inits:
            raise SandboxError(f"the world's placeholder is gone (bwrap exit {self.proc.poll()})")
        self.pid = inits[0]
        if self.agent_id:
            # bwrap binds everything nosuid; the agent's sudo needs setuid on /usr (it reaches the
            # world's root, no further: setuid follows the user namespace's mapping).
            done = self.run(["mount", "-o", "remount,bind,nodev,suid", "/usr"], timeout=timeout)
            if done.returncode != 0:
                raise SandboxError(f"world.user = user: cannot allow setuid on /usr: {done.stderr.strip()}")

    def _cgroup_prefix(self) -> list[str]:
        if self.cgroup is None or not self.cgroup.procs_files:
            return []
        return ["/bin/sh", "-c", JOIN_CGROUPS, "deskact-world", *self.cgroup.procs_files, "--"]

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    @contextmanager
    def frozen(self) -> Iterator[bool]:
        """Every process of the world stopped for the block (yields whether it could be)."""
        cgroup = self.cgroup
        if cgroup is None or self._closed:
            yield False
            return
        try:
            yield cgroup.freeze()
        finally:
            cgroup.thaw()

    @contextmanager
    def thawed(self) -> Iterator[None]:
        """Running again for the block, if frozen: a judge's own command may look at live behaviour
        (a server that answers, a heartbeat that moves). No host read of the world's files happens
        meanwhile; it is frozen again after."""
        cgroup = self.cgroup
        if cgroup is None or not cgroup.frozen:
            yield
            return
        cgroup.thaw()
        try:
            yield
        finally:
            cgroup.freeze()

    def close(self) -> None:
        """Kill everything in the world, then drop its layers (kept with ``world.keep``)."""
        if self._closed:
            return
        self._closed = True
        self._kill_all()
        keep = self.keep
        if self._workspace_mounted:
            if keep or self.config.runner.keep_workspace:
                _copy_out(self.workspace)
            mounts.unmount(str(self.workspace))
        for target in reversed(self._mounted):
            if keep and target == str(self.dir / "disk"):
                continue  # the upper layers stay readable at <dir>/disk/upper
            mounts.unmount(target)
        if self._userns >= 0:
            os.close(self._userns)
        if keep:
            (self.dir / reaper.KEPT_FILE).touch()  # for you to look at, never for the reaper
        else:
            shutil.rmtree(self.dir, ignore_errors=True)
        reaper.disown(self.dir)

    def _kill_all(self) -> None:
        if self.cgroup is not None:
            self.cgroup.thaw()  # a frozen task cannot die
        if self.proc is not None:
            # The PID namespace's init: the kernel then kills every process in it at once, a fork
            # bomb included. bwrap reaps it and exits (killed first, it would leave init a zombie
            # of the host's init); then anything still in the cgroup goes (nsenter parents).
            for init in children(self.proc.pid):
                _sigkill(init)
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                _sigkill(self.proc.pid)
                self.proc.wait()
            for pipe in (self.proc.stdin, self.proc.stdout):
                if pipe is not None:
                    pipe.close()
        if self.cgroup is not None:
            self.cgroup.remove()

    # -- acting in the world (host code: reset steps, judges) --------------------------

    def enter(self, argv: list[str], cwd: str | Path | None = None, user: int = 0) -> list[str]:
        """``argv`` run in the world as ``user`` (its root by default), in its cgroup (a new process in
        its PID namespace)."""
        if not self.pid:
            raise SandboxError("the world is not started")
        if cwd is not None:  # nsenter would open a --wd dir on the host's side of the mount namespace
            argv = ["/bin/sh", "-c", 'cd "$0" && exec "$@"', str(cwd), *argv]
        return [*self._cgroup_prefix(), "nsenter", "-t", str(self.pid), "-U", "-m", "-p", "-n", "-i", "-u",
                "-S", str(user), "-G", str(user), "-r", "-w", "--", *argv]

    def env(self, extra: dict[str, str] | None = None, user: int = 0) -> dict[str, str]:
        """The environment of processes started in the world: the allowlist, never the runner's secrets."""
        name = "root" if user == 0 else AGENT_NAME if user == self.agent_id else str(user)
        allow = set(self.config.sandbox.env_allow) - {"DISPLAY", "PATH"}  # the host's PATH names host dirs
        env = {k: os.environ[k] for k in allow if k in os.environ}
        env["PATH"] = WORLD_PATH
        env.setdefault("LANG", "C.UTF-8")
        env.update({"HOME": str(self.workspace), "WORKSPACE": str(self.workspace), "USER": name,
                    "LOGNAME": name})
        if self.display:
            env["DISPLAY"] = self.display
        env.update(extra or {})
        return env

    def spawn(self, argv: list[str], *, env: dict[str, str] | None = None, cwd: str | Path | None = None,
              user: int = 0, **popen: object) -> subprocess.Popen[bytes]:
        """Start ``argv`` in the world as ``user`` (detached in its own session); ``env`` on top of
        ``self.env()``. Apps for the agent pass ``user=world.agent_id``."""
        popen.setdefault("stdin", subprocess.DEVNULL)
        popen.setdefault("start_new_session", True)
        # Files the host's reset steps wrote are root's on the host, nobody's in the world: an app
        # could not save them. They become the world root's, as before the kernel's first step.
        give_to(self.workspace, self.uid + self.agent_id)
        return subprocess.Popen(self.enter(argv, cwd, user), env=self.env(env, user), **popen)  # type: ignore[call-overload]

    def run(self, argv: list[str], *, timeout: float = 60, env: dict[str, str] | None = None,
            cwd: str | Path | None = None, user: int = 0) -> subprocess.CompletedProcess[str]:
        """Run ``argv`` in the world and wait; a timeout kills it and raises ``subprocess.TimeoutExpired``."""
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            proc = self.spawn(argv, env=env, cwd=cwd, user=user, stdout=out, stderr=err)
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                _killpg(proc.pid)
                proc.wait()
                raise
            out.seek(0)
            err.seek(0)
            return subprocess.CompletedProcess(argv, proc.returncode, out.read().decode("utf-8", "replace"),
                                               err.read().decode("utf-8", "replace"))

    @property
    def root(self) -> str:
        """The world's ``/`` as a host path (valid while the world lives)."""
        return f"/proc/{self.pid}/root"

    def resolve(self, path: str | PurePosixPath) -> PurePosixPath:
        """``path`` as the world sees it, symlinks resolved inside the world."""
        return resolve_in_root(self.root, PurePosixPath(self.workspace, path))

    def host_path(self, path: str | PurePosixPath) -> Path:
        """The host path of world path ``path`` (relative: in the workspace); never outside the world.

        Files in the workspace keep their usual host path (it is the same file)."""
        resolved = self.resolve(path)
        for shared in (self.workspace, self.private_dir):
            if resolved == PurePosixPath(shared) or PurePosixPath(shared) in resolved.parents:
                return Path(resolved)
        return host_path(self.root, resolved)

    def host_folder(self, name: str) -> Path:
        """A host-only folder on the world's disk: what the world writes there (a terminal's
        transcript) counts in its quota (``world.disk_mb``); the world never sees it, and it goes
        with the world."""
        folder = self.dir / "disk" / "host" / name
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        return folder

    def chown_to_root(self, path: Path) -> None:
        """Make a file the host wrote into the world belong to the world's root (not to an unmapped uid)."""
        os.lchown(path, self.uid, self.uid)

    def chown_to_agent(self, path: Path) -> None:
        """Make a file the host wrote into the world belong to the agent (root, or its ``agent`` account)."""
        os.lchown(path, self.uid + self.agent_id, self.uid + self.agent_id)

    def processes(self) -> list[WorldProcess]:
        """Every process in the world (deskact's placeholder and init included)."""
        try:
            ns = os.readlink(f"/proc/{self.pid}/ns/pid")
        except OSError:
            return []
        found = []
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                if os.readlink(f"{entry.path}/ns/pid") != ns:
                    continue
                status = Path(entry.path, "status").read_text()
                cmdline = Path(entry.path, "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            fields = dict(line.split(":\t", 1) for line in status.splitlines() if ":\t" in line)
            found.append(WorldProcess(
                pid=int(fields.get("NSpid", entry.name).split()[-1]), host_pid=int(entry.name),
                uid=int(fields.get("Uid", "0").split()[0]) - self.uid, name=fields.get("Name", "").strip(),
                cmdline=cmdline.strip(),
            ))
        return found


def _copy_out(workspace: Path) -> None:
    """Before the world's disk goes: copy the workspace to the directory under its mount."""
    keep = Path(tempfile.mkdtemp(prefix=".keep-", dir=workspace.parent))
    shutil.copytree(workspace, keep, symlinks=True, dirs_exist_ok=True)
    mounts.unmount(str(workspace))
    for item in keep.iterdir():
        shutil.move(str(item), workspace / item.name)
    keep.rmdir()


def _sigkill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _killpg(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@lru_cache(maxsize=1)
def world_status() -> tuple[bool, str]:
    """Can this machine make worlds? (ok, explanation) - by making one, once per process."""
    if os.geteuid() != 0:
        return False, "worlds need root (idmapped mounts, user namespaces with a private id range)"
    for tool in ("bwrap", "nsenter", "unshare"):
        if shutil.which(tool) is None:
            return False, f"`{tool}` is missing (apt-get install bubblewrap util-linux)"
    with tempfile.TemporaryDirectory(prefix="deskact-world-probe-") as tmp:
        workspace, private = Path(tmp, "ws"), Path(tmp, "private")
        workspace.mkdir()
        private.mkdir()
        world = World(Config(), workspace=workspace, private_dir=private)
        os.chown(private, world.uid, world.uid)
        try:
            world.start(timeout=10)
            probe = world.run(["/bin/sh", "-c", "mkdir /probe && echo x > /etc/probe && id -u"], timeout=10)
        except Exception as exc:  # noqa: BLE001 - the reason is the answer
            return False, f"a world could not be made here: {exc}"
        finally:
            world.close()
    if probe.returncode != 0 or probe.stdout.strip() != "0":
        return False, f"a world was made but its root cannot write: {probe.stderr.strip()[:300]}"
    from .cgroups import describe

    return True, f"overlay root over idmapped host dirs, user namespace (root inside), {describe()}"


def world_wanted(config: Config, mode: str) -> bool:
    """Do kernels of this config live in a world? ``world.enabled = on`` where it cannot is an error."""
    if mode != "bwrap" or config.world.enabled == "off":
        return False
    ok, why = world_status()
    if config.world.enabled == "on" and not ok:
        raise SandboxError(f"world.enabled = 'on' but {why}")
    return ok


def _in_base(path: Path) -> bool:
    """Whether a host path shows through the world's base overlay as it is on the host: under a
    base dir, and for /var only under the folders of it a world sees (/var/tmp is emptied)."""
    parts = path.parts
    if len(parts) < 2 or parts[1] not in BASE_DIRS:
        return False
    return parts[1] != "var" or (len(parts) > 2 and parts[2] in host_view.VAR_SHOWN)
