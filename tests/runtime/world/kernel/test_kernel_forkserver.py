"""Kernels forked into sandboxes: confined like exec'd ones, watched, and the server replaceable.

The sandbox properties themselves (read-only root, private /tmp, no network,
PID namespace, rlimits, hidden secrets) are checked for forked and exec'd
kernels alike in test_sandbox.py; these tests cover what forking adds.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from deskact.runtime.config import Config
from deskact.runtime.world.kernel import KernelSession, forkserver, launch_forked
from deskact.runtime.world.sandbox import kernel_processes, sandbox_status

BWRAP_OK, BWRAP_WHY = sandbox_status()
pytestmark = [
    pytest.mark.skipif(not BWRAP_OK, reason=f"bwrap unavailable: {BWRAP_WHY}"),
    pytest.mark.skipif(os.geteuid() != 0, reason="kernels are forked into sandboxes only as root"),
]


def make_config() -> Config:
    cfg = Config()
    cfg.kernel.interrupt_grace = 0.5
    cfg.kernel.fork_server = True
    return cfg


@pytest.fixture(scope="module")
def forked() -> Iterator[KernelSession]:
    with KernelSession(make_config(), sandbox="bwrap") as s:
        assert s._kernel is not None and s._kernel.forked is not None, "this kernel was not forked"
        yield s


def server() -> forkserver.ForkServer:
    assert launch_forked._forkserver is not None
    return launch_forked._forkserver


def test_own_proc_files_readable_as_in_an_exec_kernel(forked: KernelSession) -> None:
    # Switching uid without exec leaves a process undumpable; the fork server undoes that.
    r = forked.execute("import os\nprint(len(open('/proc/self/environ', 'rb').read()) > 0, os.getpid())", timeout=10)
    assert r.status == "ok" and r.stdout.split()[0] == "True", r


def test_no_capabilities_and_no_new_privileges(forked: KernelSession) -> None:
    r = forked.execute("print(open('/proc/self/status').read())", timeout=10)
    status = dict(line.split(":\t", 1) for line in r.stdout.splitlines() if ":\t" in line)
    assert status["NoNewPrivs"].strip() == "1"
    if forked.world is not None:
        # Root of its world: capabilities only in the world's user namespace, an unprivileged uid on the host.
        assert status["Uid"].split()[0] == "0"
        assert forked._kernel is not None and forked._kernel.forked is not None
        assert os.stat(f"/proc/{forked._kernel.forked.pid}").st_uid == forked.uid > 0
        assert os.readlink(f"/proc/{forked._kernel.forked.pid}/ns/user") != os.readlink("/proc/self/ns/user")
        return
    assert {k: status[k].strip() for k in ("CapPrm", "CapEff", "CapAmb")} == {
        "CapPrm": "0000000000000000", "CapEff": "0000000000000000", "CapAmb": "0000000000000000",
    }
    assert status["Uid"].split()[0] == str(forked.uid)


def test_no_descriptor_leads_back_to_the_fork_server(forked: KernelSession) -> None:
    # The server's channel is the only SOCK_SEQPACKET socket deskact makes: a kernel
    # holding it could ask a root process for more kernels.
    code = (
        "import os, socket\nkinds = set()\n"
        "for fd in map(int, os.listdir('/proc/self/fd')):\n"
        "    try:\n        s = socket.socket(fileno=os.dup(fd))\n    except OSError:\n        continue\n"
        "    kinds.add(s.type.name)\n    s.close()\n"
        "print(sorted(kinds), os.readlink('/proc/self/fd/0'))"
    )
    r = forked.execute(code, timeout=10)
    assert r.status == "ok", r
    assert "SOCK_SEQPACKET" not in r.stdout and r.stdout.split()[-1] == "/dev/null"


def test_server_environment_holds_no_host_secret() -> None:
    # Every forked kernel shows the server's environment in /proc/self/environ.
    os.environ["TEST_FORKSERVER_SECRET"] = "hunter2"
    try:
        if launch_forked._forkserver is not None:
            launch_forked._forkserver.close()  # the next kernel starts a new server, with the secret in our environment
        with KernelSession(make_config(), sandbox="bwrap") as s:
            code = "import os\nprint(open('/proc/self/environ', 'rb').read().count(b'hunter2'), 'hunter2' in str(os.environ))"
            assert s.execute(code, timeout=10).stdout == "0 False\n"
    finally:
        os.environ.pop("TEST_FORKSERVER_SECRET", None)


def test_kernel_death_is_noticed_and_a_new_one_forked(forked: KernelSession) -> None:
    old = forked._kernel.forked.pid if forked._kernel and forked._kernel.forked else None
    r = forked.execute("import os\nos._exit(3)", timeout=30)
    assert (r.status, r.restarted) == ("kernel_died", True)
    assert forked.execute("6 * 7", timeout=10).result == "42"
    assert forked._kernel is not None and forked._kernel.forked is not None
    assert forked._kernel.forked.pid != old


def test_a_killed_server_is_replaced_and_its_kernels_live_on(forked: KernelSession) -> None:
    forked.execute("x = 'still here'", timeout=10)
    dead = server()
    os.kill(dead.proc.pid, signal.SIGKILL)
    dead.proc.wait(timeout=10)
    assert forked.execute("x", timeout=10).result == "'still here'"
    with KernelSession(make_config(), sandbox="bwrap") as s:
        assert s.execute("1 + 1", timeout=10).result == "2"
        assert server() is not dead and server().alive


def test_forked_kernels_are_found_and_the_server_is_not(forked: KernelSession) -> None:
    found = kernel_processes(owner=os.getpid())
    assert forked._kernel is not None and forked._kernel.forked is not None
    assert forked._kernel.forked.pid in found
    assert server().proc.pid not in found


def test_shutdown_leaves_no_process_of_the_session() -> None:
    s = KernelSession(make_config(), sandbox="bwrap").start()
    s.execute("!sleep 300 &", timeout=10)
    pid = s._kernel.forked.pid if s._kernel and s._kernel.forked else None
    s.shutdown()
    # Reaped, not left a zombie of the host's init: the fork server adopts its kernels
    # (and reaps them when SIGCHLD arrives, which may be a moment after shutdown returns).
    assert pid is not None and gone(pid)
    assert not [p for p in os.listdir("/proc") if p.isdigit() and _uid_of(p) == s.uid]


def test_shell_commands_report_their_exit_status(forked: KernelSession) -> None:
    # A SIGCHLD handler inherited from the server would reap `!cmd` children first
    # and make every exit status 0.
    r = forked.execute("import subprocess\nprint(subprocess.run(['sh', '-c', 'exit 7']).returncode)", timeout=10)
    assert r.stdout == "7\n"


def gone(pid: int, within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while os.path.exists(f"/proc/{pid}"):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def _uid_of(pid: str) -> int | None:
    try:
        return os.stat(f"/proc/{pid}").st_uid
    except OSError:
        return None


def test_pythonpath_reaches_a_forked_kernel(tmp_path: Path) -> None:
    # Toolkits ship their kernel-side module this way (notebooks/03).
    # A folder the sandbox shows: the workspace (not the cwd's '' entry: a subfolder).
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "forked_probe_mod.py").write_text("VALUE = 42\n")
    with KernelSession(make_config(), sandbox="bwrap", workspace=tmp_path, env={"PYTHONPATH": str(lib)}) as s:
        assert s._kernel is not None and s._kernel.forked is not None
        r = s.execute("import forked_probe_mod\nforked_probe_mod.VALUE", timeout=10)
        assert r.result == "42", r


def test_other_startup_variables_mean_an_exec_kernel() -> None:
    with KernelSession(make_config(), sandbox="bwrap", env={"PYTHONHASHSEED": "7"}) as s:
        assert s._kernel is not None and s._kernel.forked is None
        assert s.execute("import sys\nsys.flags.hash_randomization", timeout=10).result == "1"


def test_a_hung_kernel_is_replaced_by_its_standby_which_survives(forked: KernelSession) -> None:
    # The standby kernel shares the session's uid; the sweep of that uid after the
    # hung kernel is killed must spare it even though it is not under bwrap's tree.
    for _ in range(3):
        r = forked.execute("import signal; signal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True: pass", timeout=1)
        assert (r.status, r.restarted) == ("timeout", True)
        assert forked.alive
        assert forked.execute("6 * 7", timeout=10).result == "42"


def test_a_fork_server_that_cannot_work_here_means_exec_kernels(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    # E.g. setns refused in a container: the session still gets a kernel, exec'd, and says why once.
    def refuse(*args: object, **kwargs: object) -> int:
        raise forkserver.ForkServerError("setns(mnt): Operation not permitted")

    monkeypatch.setattr(forkserver.ForkServer, "spawn", refuse)
    monkeypatch.setattr(launch_forked, "_fork_broken", None)
    for _ in range(2):
        with KernelSession(make_config(), sandbox="bwrap") as s:
            assert s._kernel is not None and s._kernel.forked is None
            assert s.execute("6 * 7", timeout=10).result == "42"
    assert capsys.readouterr().err.count("kernels will be exec'd, not forked") == 1
    assert launch_forked._fork_broken == "setns(mnt): Operation not permitted"


def test_toolkit_modules_imported_once_by_the_server() -> None:
    # The kernel has the module before any preload ran: it came with the fork.
    shared = ["deskact.toolkits.google.api", "no_such_module_for_deskact"]  # a bad name is skipped
    with KernelSession(make_config(), sandbox="bwrap", fork_imports=shared) as s:
        assert s._kernel is not None and s._kernel.forked is not None
        r = s.execute("import sys\nprint('deskact.toolkits.google.api' in sys.modules)", timeout=10)
        assert r.stdout == "True\n"
    assert launch_forked._fork_broken is None


@pytest.mark.parametrize("name", ["google", "gui"])
def test_toolkits_share_their_module(name: str) -> None:
    from deskact.toolkits.base import load_toolkit

    toolkit = load_toolkit(name)
    assert toolkit.fork_imports[0] == toolkit.module
    if name == "gui":  # and pyautogui's dependencies, which open no display when imported
        from deskact.toolkits.gui.coordinates import PYAUTOGUI_DEPENDENCIES

        assert toolkit.fork_imports[1:] == list(PYAUTOGUI_DEPENDENCIES)


def test_gui_dependencies_come_from_the_server_which_stays_single_threaded(tmp_path: Path) -> None:
    """numpy and OpenCV (through pyscreeze) load OpenBLAS, whose thread pool would start with them:
    the server asks it for one thread, so it forks from a process with no other thread."""
    from deskact.toolkits.gui.coordinates import PYAUTOGUI_DEPENDENCIES

    imports = ["deskact.toolkits.gui.api", *PYAUTOGUI_DEPENDENCIES]
    with KernelSession(make_config(), sandbox="bwrap", fork_imports=imports) as s:
        r = s.execute("import sys\nprint('cv2' in sys.modules, 'numpy' in sys.modules, 'pyscreeze' in sys.modules,"
                      " 'pyautogui' in sys.modules)", timeout=10)
        assert r.stdout == "True True True False\n", r  # pyautogui itself connects to a display: not shared
        threads = len(os.listdir(f"/proc/{server().proc.pid}/task"))
        assert threads == 1, f"the fork server runs {threads} threads"


def test_a_kernel_that_sets_a_thread_count_read_at_load_is_execd() -> None:
    assert forkserver.can_fork({"PYTHONPATH": "/x", "LANG": "C"})
    assert not forkserver.can_fork({"OPENBLAS_NUM_THREADS": "4"})
    assert not forkserver.can_fork({"OMP_NUM_THREADS": "2"})


def test_the_environment_reaches_the_kernel_by_a_file_it_removes(forked: KernelSession) -> None:
    # Not through the fork server, whose memory every later kernel inherits.
    assert forked._private is not None
    assert not list(forked._private.glob("*.env.json"))
    r = forked.execute("import os\nprint(os.environ['WORKSPACE'] == os.getcwd(), 'PATH' in os.environ)", timeout=10)
    assert r.stdout == "True True\n"
