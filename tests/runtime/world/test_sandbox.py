"""The sandbox: what code in the kernel can and cannot reach, in bwrap and none modes."""

from __future__ import annotations

import os
import resource
from collections.abc import Iterator
from pathlib import Path

import pytest
from deskact.runtime.config import Config
from deskact.runtime.world.kernel import KernelSession
from deskact.runtime.world.sandbox import X11_DIR, sandbox_status

BWRAP_OK, BWRAP_WHY = sandbox_status()
MiB = 1024 * 1024


def make_config() -> Config:
    """The kernel-only sandbox (what runs where worlds cannot: not root); worlds are tested in test_world.py."""
    cfg = Config()
    cfg.world.enabled = "off"
    cfg.kernel.interrupt_grace = 0.5
    cfg.sandbox.max_processes = 64
    cfg.sandbox.file_size_mb = 1
    return cfg


@pytest.fixture(scope="module", params=["forked", "exec"])
def jail(request: pytest.FixtureRequest) -> Iterator[KernelSession]:
    """A bwrap kernel made both ways: forked into the sandbox (as root) and exec'd in it."""
    if not BWRAP_OK:
        pytest.skip(f"bwrap unavailable: {BWRAP_WHY}")
    if request.param == "forked" and os.geteuid() != 0:
        pytest.skip("kernels are forked into sandboxes only as root")
    cfg = make_config()
    cfg.kernel.fork_server = request.param == "forked"
    with KernelSession(cfg, sandbox="bwrap") as s:
        yield s


@pytest.fixture(scope="module")
def plain() -> Iterator[KernelSession]:
    os.environ["TEST_SANDBOX_SECRET_TOKEN"] = "s3cret"
    try:
        with KernelSession(make_config(), sandbox="none") as s:
            yield s
    finally:
        os.environ.pop("TEST_SANDBOX_SECRET_TOKEN", None)


def test_sandbox_status_explains_itself() -> None:
    ok, why = sandbox_status()
    assert isinstance(ok, bool) and why


# -- every mode ------------------------------------------------------------------------

def check_rlimits(s: KernelSession) -> None:
    code = ("import resource as r\n"
            "print([r.getrlimit(x)[0] for x in (r.RLIMIT_AS, r.RLIMIT_FSIZE, r.RLIMIT_NOFILE, r.RLIMIT_CPU)])")
    sb = s.config.sandbox
    expect = [sb.memory_mb * MiB, sb.file_size_mb * MiB, sb.open_files, sb.cpu_seconds]
    hard = [resource.getrlimit(x)[1] for x in (resource.RLIMIT_AS, resource.RLIMIT_FSIZE,
                                                resource.RLIMIT_NOFILE, resource.RLIMIT_CPU)]
    expect = [e if h == resource.RLIM_INFINITY else min(e, h) for e, h in zip(expect, hard)]
    r = s.execute(code, timeout=10)
    assert (r.status, r.stdout) == ("ok", f"{expect}\n")


def check_file_size_limit(s: KernelSession) -> None:
    r = s.execute("open('big.bin', 'wb').write(b'0' * 2 * 1024 * 1024)", timeout=10)
    assert r.status == "error" and r.error is not None
    assert (r.error.ename, "File too large" in r.error.evalue) == ("OSError", True)
    assert (s.workspace / "big.bin").stat().st_size == 1 * MiB


def test_rlimits_are_applied(plain: KernelSession) -> None:
    check_rlimits(plain)


def test_rlimits_are_applied_in_the_jail(jail: KernelSession) -> None:
    check_rlimits(jail)


def test_file_size_limit(plain: KernelSession) -> None:
    check_file_size_limit(plain)


def test_file_size_limit_in_the_jail(jail: KernelSession) -> None:
    check_file_size_limit(jail)


def test_none_mode_environment_is_an_allowlist(plain: KernelSession) -> None:
    r = plain.execute("import os\nprint(os.environ.get('TEST_SANDBOX_SECRET_TOKEN'), os.getcwd())", timeout=10)
    assert (r.status, r.stdout) == ("ok", f"None {plain.workspace}\n")


# -- bwrap -----------------------------------------------------------------------------

def test_workspace_is_writable_and_shared_with_the_host(jail: KernelSession) -> None:
    r = jail.execute("open('note.txt', 'w').write('from the kernel')", timeout=10)
    assert r.status == "ok"
    assert (jail.workspace / "note.txt").read_text() == "from the kernel"


@pytest.mark.parametrize("path", ["/etc/deskact-probe", "/usr/deskact-probe", str(Path.cwd() / "deskact-probe")])
def test_writing_outside_the_workspace_fails(jail: KernelSession, path: str) -> None:
    r = jail.execute(f"open({path!r}, 'w').write('x')", timeout=10)
    assert r.status == "error" and r.error is not None
    assert r.error.ename in ("OSError", "PermissionError")
    assert "Read-only file system" in r.error.evalue or "Permission denied" in r.error.evalue
    assert not Path(path).exists()


def test_tmp_is_private(jail: KernelSession) -> None:
    r = jail.execute("open('/tmp/deskact-private-probe', 'w').write('x')\nimport os\nprint(sorted(os.listdir('/tmp')))",
                     timeout=10)
    assert r.status == "ok"
    assert not Path("/tmp/deskact-private-probe").exists()
    # Only the session's own dirs are mounted there, never the host's /tmp content.
    # (A checkout or venv under /tmp, as in some CI clones, is shown again read-only.)
    import sys

    code_dirs = {Path(p).resolve().relative_to("/tmp").parts[0] for p in (sys.prefix, __file__)
                 if Path(p).resolve().is_relative_to("/tmp")}
    allowed = {jail.workspace.name, jail._private.name if jail._private else "", "deskact-private-probe"} | code_dirs
    assert set(eval(r.stdout)) <= allowed


def test_no_network_outside(jail: KernelSession) -> None:
    r = jail.execute("import socket\nsocket.create_connection(('1.1.1.1', 80), timeout=3)", timeout=10)
    assert r.status == "error" and r.error is not None
    assert (r.error.ename, r.error.evalue) == ("OSError", "[Errno 101] Network is unreachable")


def test_loopback_still_works(jail: KernelSession) -> None:
    code = (
        "import socket\nsrv = socket.create_server(('127.0.0.1', 0))\n"
        "c = socket.create_connection(srv.getsockname(), timeout=3)\nconn, _ = srv.accept()\n"
        "c.sendall(b'hi'); print(conn.recv(2).decode())"
    )
    assert jail.execute(code, timeout=10).stdout == "hi\n"


def test_pid_namespace_and_non_root(jail: KernelSession) -> None:
    code = "import os\nprint(len([p for p in os.listdir('/proc') if p.isdigit()]), os.getuid())"
    r = jail.execute(code, timeout=10)
    count, uid = map(int, r.stdout.split())
    assert count < 10  # bwrap's init, the kernel and nothing from the host
    if os.geteuid() == 0:
        assert uid != 0


def test_kernel_runs_the_hosts_interpreter_and_stdlib(jail: KernelSession) -> None:
    # The interpreter's home may sit under a hidden dir (/root/.pyenv): its parents must
    # stay traversable, or Python falls back to another installation's stdlib.
    import sys

    r = jail.execute("import os, sys\nprint(sys.base_prefix, os.path.dirname(os.__file__))", timeout=10)
    assert r.stdout.split() == [sys.base_prefix, os.path.dirname(os.__file__)]


def test_host_secrets_and_gold_files_are_hidden(jail: KernelSession) -> None:
    suites = Path(__import__("deskact.task_suites", fromlist=["x"]).__file__).parent
    assert any(suites.iterdir())
    r = jail.execute(f"import os\nprint(os.listdir({str(suites)!r}))", timeout=10)
    assert (r.status, r.stdout) == ("ok", "[]\n")
    if Path("/root").is_dir():
        # Only the interpreter, when it lives there (pyenv), is bound back in.
        r = jail.execute("import os\nprint([n for n in os.listdir('/root') if n != '.pyenv'])", timeout=10)
        assert (r.status, r.stdout) == ("ok", "[]\n")


@pytest.mark.slow  # the bomb runs until the process limit stops it: seconds
def test_fork_bomb_is_contained() -> None:
    if not BWRAP_OK:
        pytest.skip(f"bwrap unavailable: {BWRAP_WHY}")
    if os.geteuid() != 0:
        pytest.skip("the per-session process limit needs a private uid (running as root)")
    with KernelSession(make_config(), sandbox="bwrap") as s:
        r = s.execute("import os\nwhile True: os.fork()", timeout=60)
        assert (r.status, r.restarted) == ("error", False)
        assert r.error is not None and r.error.ename == "BlockingIOError"
        r = s.execute("6 * 7", timeout=30)
        assert (r.status, r.result) == ("ok", "42")


@pytest.mark.skipif(not X11_DIR.is_dir(), reason="no /tmp/.X11-unix on this host")
def test_x11_socket_dir_visible_only_with_a_display() -> None:
    if not BWRAP_OK:
        pytest.skip(f"bwrap unavailable: {BWRAP_WHY}")
    code = f"import os\nprint(os.path.isdir({str(X11_DIR)!r}), os.environ.get('DISPLAY'))"
    with KernelSession(make_config(), sandbox="bwrap", display=":42") as s:
        assert s.execute(code, timeout=10).stdout == "True :42\n"
    with KernelSession(make_config(), sandbox="bwrap") as s:
        assert s.execute(code, timeout=10).stdout == "False None\n"
