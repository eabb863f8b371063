"""Host-side probes shared by the world boundary tests (test_world.py, test_world_gui.py).

Everything here looks at a world from the host: /proc, the cgroup files, a
TCP listener on the host's loopback. The worlds themselves are made by the
real KernelSession / Worker / TaskEnv in the tests.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import Any

import deskact
import pytest
from deskact.runtime.config import Config
from deskact.runtime.tasks.task import Step, Task
from deskact.runtime.world.base import kernel_side_paths
from deskact.runtime.world.kernel import launch_forked
from deskact.runtime.world.world import ID_COUNT, world_status

CHECKOUT = Path(deskact.__file__).resolve().parent
"""The checkout (the package root): its suites, .git and judges must never show in a world."""
SECRET_NAME, SECRET_VALUE = "DESKACT_TEST_SECRET", "deskact-test-secret-7c1f93"
KERNEL_MODES = ["forked", "exec"]


def require_worlds() -> None:
    ok, why = world_status()
    if not ok:
        pytest.skip(f"this machine cannot make worlds: {why}")


@contextmanager
def secret_in_host_env() -> Iterator[None]:
    """A secret in this process's environment, and a fork server started with it (kernels are forked
    from the server: a secret it inherited must still not reach them)."""
    os.environ[SECRET_NAME] = SECRET_VALUE
    _restart_fork_server()
    try:
        yield
    finally:
        os.environ.pop(SECRET_NAME, None)
        _restart_fork_server()


def _restart_fork_server() -> None:
    with launch_forked._forkserver_lock:
        if launch_forked._forkserver is not None:
            launch_forked._forkserver.close()
            launch_forked._forkserver = None


def world_config(mode: str = "forked", **world: Any) -> Config:
    cfg = Config()
    cfg.world.enabled = "on"  # never a silent fallback to the kernel-only sandbox here
    cfg.kernel.fork_server = mode == "forked"
    cfg.kernel.pool_size = 1
    cfg.display.width, cfg.display.height = 1280, 800
    for name, value in world.items():
        setattr(cfg.world, name, value)
    return cfg


def check_kernel_mode(session: Any, mode: str) -> None:
    """The parametrization means something: the kernel really was forked, or really exec'd."""
    forked = session._kernel is not None and session._kernel.forked is not None
    assert forked == (mode == "forked"), (
        f"wanted a {mode} kernel, got {'forked' if forked else 'exec'}'d ({launch_forked.why_exec(session.config)})")


def kernel_host_pid(session: Any) -> int:
    """The host pid of a session's kernel (forked: what the fork server made; exec'd: the launcher)."""
    k = session._kernel
    if k.forked is not None:
        return int(k.forked.pid)
    pids = [p.host_pid for p in session.world.processes() if "kernel.launcher" in p.cmdline and p.name != "nsenter"]
    assert pids, session.world.processes()
    return pids[-1]


def task(id: str, *, reset: list[tuple[str, dict[str, Any]]] = (), judge: list[tuple[str, dict[str, Any]]] = (),
         cleanup: list[tuple[str, dict[str, Any]]] = (), visual: bool = False) -> Task:
    return Task(
        id=id, instruction="(boundary test)", visual=visual, toolkits=["gui"] if visual else [],
        reset=[Step(name=n, params=p) for n, p in reset], judge=[Step(name=n, params=p) for n, p in judge],
        cleanup=[Step(name=n, params=p) for n, p in cleanup], suite_dir=str(CHECKOUT / "task_suites" / "os"),
    )


# -- processes -----------------------------------------------------------------------------

def status(pid: int) -> dict[str, str]:
    text = Path(f"/proc/{pid}/status").read_text()
    return {k: v.strip() for k, v in (line.split(":", 1) for line in text.splitlines() if ":" in line)}


def host_uids(pid: int) -> list[int]:
    """Real, effective, saved and filesystem uid of a host pid, as the host sees them."""
    return [int(u) for u in status(pid)["Uid"].split()]


def host_environ(pid: int) -> bytes:
    return Path(f"/proc/{pid}/environ").read_bytes()


def processes_of_uid_range(base: int) -> list[tuple[int, str]]:
    """Live (not zombie) host processes whose uid is in a world's id range: (pid, name)."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            st = status(int(entry.name))
        except (OSError, ValueError):
            continue
        uid = int(st["Uid"].split()[0])
        if base <= uid < base + ID_COUNT and not st["State"].startswith(("Z", "X")):
            found.append((int(entry.name), st["Name"]))
    return found


def pid_namespace_alive(ns: str) -> bool:
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if os.readlink(f"/proc/{entry.name}/ns/pid") == ns and not status(int(entry.name))["State"].startswith("Z"):
                    return True
            except (OSError, KeyError):
                continue
    return False


def wait_until(check: Callable[[], Any], timeout: float, what: str) -> Any:
    """Poll ``check`` until it returns something truthy; fail naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"not within {timeout:g} s: {what}")
        time.sleep(0.02)


def assert_world_gone(base_uid: int, pid_ns: str, cgroup_dirs: list[Path]) -> None:
    """Nothing of a closed world is left: no process of its uid range, no PID namespace, no cgroup."""
    wait_until(lambda: not processes_of_uid_range(base_uid), 10,
               f"processes of the world's uids gone (left: {processes_of_uid_range(base_uid)})")
    wait_until(lambda: not pid_namespace_alive(pid_ns), 10, f"the world's PID namespace {pid_ns} empty")
    left = [d for d in cgroup_dirs if d.exists()]
    assert not left, f"the world's cgroups outlived it: {left}"


# -- the host's own files --------------------------------------------------------------------

def exposed_children(world_dir: str) -> set[str]:
    """Names a world may show in ``world_dir`` because the kernel's interpreter or deskact's kernel-side
    code is bound there (e.g. /root/.pyenv for a pyenv Python, /work/main/runtime)."""
    base = PurePosixPath(world_dir)
    names = set()
    for path in kernel_side_paths():
        p = PurePosixPath(path)
        if base in p.parents:
            names.add(p.relative_to(base).parts[0])
    return names


def real_password_lines(shadow: str) -> list[str]:
    """Lines of a shadow file that hold a password hash (not *, !, !* or empty)."""
    return [line for line in shadow.splitlines()
            if line.count(":") >= 2 and line.split(":")[1] not in ("", "*", "!", "!*", "!!", "x")]


def check_shadow(seen: str) -> None:
    """``seen`` is a world's /etc/shadow: every host account, no host password hash."""
    host = Path("/etc/shadow").read_text()
    for line in real_password_lines(host):
        assert line not in seen, "a host password hash is visible in the world"
    assert not real_password_lines(seen), f"password hashes in the world's shadow: {real_password_lines(seen)}"
    host_names = [line.split(":")[0] for line in host.splitlines() if ":" in line]
    assert [line.split(":")[0] for line in seen.splitlines() if ":" in line] == host_names


# -- the host's network ----------------------------------------------------------------------

class HostListener:
    """A TCP listener on the host's 127.0.0.1 that records every connection it accepts."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = int(self.sock.getsockname()[1])
        self.accepted: list[Any] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, addr = self.sock.accept()
            except OSError:
                return
            self.accepted.append(addr)
            conn.close()

    def reachable_from_host(self) -> bool:
        """The listener works (so 'refused in the world' is about the world, not a dead listener)."""
        before = len(self.accepted)
        with socket.create_connection(("127.0.0.1", self.port), timeout=2):
            pass
        wait_until(lambda: len(self.accepted) > before, 5, "the host listener accepted the host's own connection")
        self.accepted.pop()
        return True

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        self._thread.join(2)


@contextmanager
def host_listener() -> Iterator[HostListener]:
    listener = HostListener()
    try:
        assert listener.reachable_from_host()
        yield listener
    finally:
        listener.close()


def net_probe_shell(port: int) -> str:
    """Shell that tries the outside world and the host's loopback listener, one line each."""
    return "; ".join(
        f"(timeout 5 bash -c 'exec 3<>/dev/tcp/{host}/{p}' && echo CONNECTED {host}:{p} || echo BLOCKED {host}:{p})"
        for host, p in (("1.1.1.1", 80), ("127.0.0.1", port))
    )
