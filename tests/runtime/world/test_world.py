"""The world's boundary, attacked from its kernel: what code the agent runs can and cannot reach.

Every test is adversarial: it does what a hostile agent would (``!`` shell
commands, background processes that hide from their parent, symlinks for the
judge, filling the disk, racing the host's chown) through the real
KernelSession / Worker / TaskEnv, then checks from the host that nothing got
out. Kernel paths are tested both ways: forked by the fork server and exec'd
through nsenter. docs/sandbox.md cites these tests claim by claim; the GUI
side (terminal, LibreOffice, window manager, two displays) is test_world_gui.py.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from deskact.runtime.run.task_env import TaskEnv
from deskact.runtime.run.worker import Worker
from deskact.runtime.world import base as world_base
from deskact.runtime.world import sandbox
from deskact.runtime.world.kernel import KernelSession

sys.path.insert(0, str(Path(__file__).parent))
from world_probes import (
    CHECKOUT,
    KERNEL_MODES,
    SECRET_NAME,
    SECRET_VALUE,
    assert_world_gone,
    check_kernel_mode,
    check_shadow,
    exposed_children,
    host_environ,
    host_listener,
    host_uids,
    kernel_host_pid,
    net_probe_shell,
    require_worlds,
    secret_in_host_env,
    task,
    wait_until,
    world_config,
)

pytestmark = pytest.mark.bwrap


@pytest.fixture(autouse=True)
def _worlds() -> None:
    require_worlds()


@pytest.fixture(scope="module")
def secret() -> Iterator[None]:
    with secret_in_host_env():
        yield


@pytest.fixture(params=KERNEL_MODES)
def session(request: pytest.FixtureRequest, secret: None) -> Iterator[KernelSession]:
    """A kernel in a fresh world, forked or exec'd."""
    s = KernelSession(world_config(request.param))
    try:
        s.start()
        check_kernel_mode(s, request.param)
        yield s
    finally:
        s.shutdown()


def bang(s: KernelSession, command: str, timeout: float = 30) -> str:
    """A ``!command`` line in the kernel, exactly as the agent writes it; its output."""
    r = s.execute(f"!{command}", timeout=timeout)
    assert r.status == "ok", r
    return r.stdout


# -- what a world shows -------------------------------------------------------------------------

def test_bang_commands_show_nothing_of_the_host(session: KernelSession) -> None:
    world = session.world
    assert world is not None
    # root inside ...
    assert bang(session, "id").startswith("uid=0(root) gid=0(root) groups=0(root)")
    # ... an unprivileged uid on the host, for every process of the world (the kernel included)
    procs = world.processes()
    assert kernel_host_pid(session) in {p.host_pid for p in procs}, procs
    for p in procs:
        uids = host_uids(p.host_pid)
        assert all(u >= world.uid >= 100_000_000 for u in uids), f"{p} runs as host uid {uids}"

    check_shadow(bang(session, "cat /etc/shadow"))
    assert Path("/etc/ssl/private").is_dir()
    assert "No such file" in bang(session, "ls /etc/ssl/private 2>&1; true")

    for home in ("/root", "/home"):
        shown = set(bang(session, f"ls -A {home}").split())
        assert shown <= exposed_children(home), f"{home} in the world shows {shown - exposed_children(home)}"

    checkout = set(bang(session, f"ls -A {CHECKOUT}").split())
    # (an exec'd kernel may write __pycache__ there: into the world's own upper layer)
    assert checkout <= {".venv", "__init__.py", "runtime", "toolkits", "__pycache__"}, checkout
    for hidden in ("task_suites", ".git", "judges", "tests", "reset_scripts"):
        assert (CHECKOUT / hidden).exists() and hidden not in checkout
    assert "No such file" in bang(session, f"cat {CHECKOUT}/task_suites/os/files.yaml 2>&1; true")
    # The checkout's folder shows the checkout, and (a checkout under /tmp, as in CI) the session's own
    # workspace and private dir, bound at their host paths.
    own = {CHECKOUT.name} | {p.relative_to(CHECKOUT.parent).parts[0] for p in (session.workspace, session._private)
                             if p is not None and CHECKOUT.parent in p.parents}
    assert set(bang(session, f"ls -A {CHECKOUT.parent}").split()) <= own | {".X11-unix"}

    env = bang(session, "env")
    assert SECRET_NAME not in env and SECRET_VALUE not in env
    assert f"HOME={session.workspace}" in env.splitlines()
    for p in world.processes():  # what /proc of the host says, not what the kernel prints
        assert SECRET_VALUE.encode() not in host_environ(p.host_pid), p


def test_network_is_loopback_only(session: KernelSession) -> None:
    with host_listener() as listener:
        out = bang(session, net_probe_shell(listener.port))
        code = textwrap.dedent(f"""
            import socket
            for addr in [("1.1.1.1", 80), ("127.0.0.1", {listener.port})]:
                try:
                    socket.create_connection(addr, timeout=2).close()
                    print("CONNECTED", addr)
                except OSError as exc:
                    print("BLOCKED", addr, exc.errno)
        """)
        r = session.execute(code, timeout=20)
        assert "CONNECTED" not in out + r.stdout, out + r.stdout
        assert out.count("BLOCKED") == 2 and r.stdout.count("BLOCKED") == 2, out + r.stdout
        assert listener.accepted == [], f"the host's loopback listener was reached: {listener.accepted}"
    assert bang(session, "awk -F: 'NR > 2 {print $1}' /proc/net/dev").split() == ["lo"]


# -- what is left when a world goes ------------------------------------------------------------------

def test_background_processes_die_with_the_world(session: KernelSession) -> None:
    world = session.world
    assert world is not None and world.cgroup is not None
    session.execute(textwrap.dedent("""
        import subprocess
        subprocess.Popen(["sleep", "1004"], start_new_session=True)
    """), timeout=10)
    bang(session, "nohup sleep 1001 >/dev/null 2>&1 &")
    bang(session, "setsid sleep 1002 >/dev/null 2>&1 < /dev/null &")
    bang(session, "( (sleep 1003 >/dev/null 2>&1 &) & )")
    bang(session, "nohup bash -c 'trap \"\" TERM HUP INT; exec sleep 1005' >/dev/null 2>&1 &")
    def sleepers() -> list:
        found = [p for p in world.processes() if p.name == "sleep" and p.cmdline.endswith(("1001", "1002", "1003", "1004", "1005"))]
        return found if len(found) == 5 else []

    started = wait_until(sleepers, 10, "the five background sleeps run")
    ns = os.readlink(f"/proc/{world.pid}/ns/pid")
    uid, cgroups = world.uid, list(world.cgroup.dirs)
    session.shutdown()
    assert_world_gone(uid, ns, cgroups)
    assert not [p for p in started if Path(f"/proc/{p.host_pid}").exists()], "a background sleep survived"
    assert not Path(world.dir).exists(), "the world's layers were not dropped"


@pytest.mark.parametrize("mode", KERNEL_MODES)
def test_system_changes_do_not_outlive_the_task(mode: str, secret: None) -> None:
    hosts, passwd = Path("/etc/hosts").read_text(), Path("/etc/passwd").read_text()
    with Worker(world_config(mode)) as worker:
        with TaskEnv(task("t-change"), worker) as first:
            first.reset()
            check_kernel_mode(first.session, mode)
            out = bang(first.session, "mkdir /test && echo '10.9.9.9 deskact-test' >> /etc/hosts && "
                                      "useradd -m alice && id -un alice && ls -d /test /home/alice && tail -1 /etc/hosts")
            assert out.split() == ["alice", "/home/alice", "/test", "10.9.9.9", "deskact-test"], out
            assert first.context().path("/etc/hosts").read_text().endswith("10.9.9.9 deskact-test\n")
        with TaskEnv(task("t-after"), worker) as second:  # the next task on the same worker
            second.reset()
            out = bang(second.session, "ls -d /test /home/alice 2>&1; id alice 2>&1; true")
            assert "/test': No such file" in out.replace("/test:", "/test':"), out
            assert "/home/alice': No such file" in out.replace("/home/alice:", "/home/alice':"), out
            assert "no such user" in out, out
            assert bang(second.session, "cat /etc/hosts") == hosts
            assert bang(second.session, "cat /etc/passwd") == passwd
    assert Path("/etc/hosts").read_text() == hosts, "the host's /etc/hosts changed"
    assert Path("/etc/passwd").read_text() == passwd, "the host's /etc/passwd changed"
    assert not Path("/test").exists() and not Path("/home/alice").exists()


# -- host code that touches world files ---------------------------------------------------------------

def test_judges_do_not_follow_the_agents_symlinks_out_of_the_world(secret: None, tmp_path: Path) -> None:
    host_only = tmp_path / "host-only.txt"  # a host file at a path the world also has (/tmp is its own)
    host_only.write_text(f"host secret {SECRET_VALUE}\n")
    judges = [
        ("files.content", {"path": "answer.txt", "contains": "WORLD-SHADOW"}),
        ("files.content", {"path": "leak.txt", "contains": "host secret"}),
        ("files.content", {"path": "up.txt", "contains": "host secret"}),
        ("files.exists", {"path": "dir-link/host-only.txt"}),
    ]
    with Worker(world_config()) as worker, TaskEnv(task("t-links", judge=judges), worker) as env:
        env.reset()
        # The agent owns the world's /etc/shadow: it can make it say anything, and points the judge at it,
        # at a host file's path, at that path through ../.. and through a linked directory.
        bang(env.session, "echo 'root:WORLD-SHADOW:19000:0:99999:7:::' > /etc/shadow && ln -s /etc/shadow answer.txt"
                          f" && ln -s {host_only} leak.txt && ln -s ../../../../../../../../..{host_only} up.txt"
                          f" && ln -s {tmp_path} dir-link")
        verdicts = env.judge()
    assert verdicts[0].passed, verdicts[0].feedback  # the world's file, which the agent may change
    for v in verdicts[1:]:
        assert not v.passed and SECRET_VALUE not in v.feedback, v
    assert "root:WORLD-SHADOW" not in Path("/etc/shadow").read_text()


def test_host_chown_of_the_workspace_never_follows_a_swapped_symlink(session: KernelSession, tmp_path: Path) -> None:
    """World.spawn (every app a reset starts, every `shell.run in: world` judge) and the kernel's first
    execute hand the workspace to the world's root with a recursive chown on the host, while the agent's
    processes run. An agent that swaps a directory for a symlink to a host directory in a loop
    (renameat2 RENAME_EXCHANGE) once made that chown walk the host directory (56 walks, in a try)."""
    canary = tmp_path / "canary"
    (canary / "sub").mkdir(parents=True)
    for i in range(20):
        (canary / f"f{i}").write_text("host file\n")
    swapper = textwrap.dedent(f"""
        import ctypes, os, subprocess, sys
        code = '''
        import ctypes, os
        libc = ctypes.CDLL(None, use_errno=True)
        os.makedirs("d/sub", exist_ok=True)
        for i in range(50):
            open(f"d/f{{i}}", "w").close()
        os.symlink({str(canary)!r}, "l")
        while True:
            libc.syscall(316 if os.uname().machine == "x86_64" else 276, -100, b"d", -100, b"l", 2)
        '''
        subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
    """)
    assert session.execute(swapper, timeout=10).status == "ok"
    world = session.world
    assert world is not None
    wait_until(lambda: (session.workspace / "l").is_symlink() or (session.workspace / "d").is_symlink(), 10,
               "the swapper runs")
    for attempt in range(600):
        sandbox.give_to(session.workspace, world.uid)  # what World.spawn does first
        if attempt % 100 == 0:
            world.run(["true"], timeout=10)  # and the real path, now and then
        owners = {p.lstat().st_uid for p in [canary, *canary.rglob("*")]}
        assert owners == {0}, f"walk {attempt}: the host's chown followed the agent's symlink: uids {owners}"


# -- limits -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", KERNEL_MODES)
def test_disk_quota_and_cgroup_limits(mode: str, secret: None) -> None:
    cfg = world_config(mode, disk_mb=64, memory_mb=1536, max_processes=300, cpus=1.5)
    with KernelSession(cfg) as s:
        check_kernel_mode(s, mode)
        world = s.world
        assert world is not None and world.cgroup is not None
        out = bang(s, "dd if=/dev/zero of=big bs=1M count=100 2>&1; dd if=/dev/zero of=/var/tmp/big bs=1M count=100 2>&1;"
                      " du -sm big /var/tmp/big", timeout=60)
        assert out.count("No space left on device") >= 1, out
        r = s.execute("open('/opt/more', 'wb').write(b'x' * (80 << 20))", timeout=30)
        assert r.status == "error" and r.error is not None and "No space left" in r.error.evalue, r
        assert not Path("/var/tmp/big").exists() and not Path("/opt/more").exists(), "the world wrote the host's disk"
        assert (s.workspace / "big").stat().st_size <= 64 << 20  # the host sees the world's file, quota-sized
        disk = os.statvfs(Path(world.dir) / "disk")
        assert disk.f_blocks * disk.f_frsize == 64 << 20
        # the limits, as the host's cgroup files say
        kind = world.cgroup.kind
        files = {f.name: f.read_text().strip() for d in world.cgroup.dirs for f in d.iterdir()
                 if f.name in ("pids.max", "memory.limit_in_bytes", "memory.max", "cpu.cfs_quota_us", "cpu.max")}
        assert files["pids.max"] == "300"
        assert files.get("memory.limit_in_bytes", files.get("memory.max")) == str(1536 << 20)
        assert (files["cpu.cfs_quota_us"] if kind == "v1" else files["cpu.max"].split()[0]) == "150000", files
        # every process of the world, the kernel included, is charged to that cgroup
        for p in world.processes():
            groups = Path(f"/proc/{p.host_pid}/cgroup").read_text()
            assert world.name in groups, f"{p} is not in the world's cgroup ({kind}): {groups}"


def test_etc_secrets_are_masked(secret: None) -> None:
    """ssh host keys, /etc/ssl/private and /etc/sudoers.d never enter a world. A host key (and an empty
    sudoers.d, if there is none) is planted for the test and the /etc mask layer, built once per
    process, is built again around it."""
    if not Path("/etc/ssh").is_dir():
        pytest.skip("no /etc/ssh on this machine to plant a host key in")
    key = Path("/etc/ssh/ssh_host_deskacttest_key")
    assert not key.exists(), f"{key} exists already: not ours to touch"
    key.touch(mode=0o600)
    key.write_text(f"-----BEGIN OPENSSH PRIVATE KEY----- {SECRET_VALUE}\n")
    sudoers = Path("/etc/sudoers.d")
    made_sudoers = not sudoers.exists()
    if made_sudoers:
        sudoers.mkdir(mode=0o750)  # empty: sudo reads nothing new from it
    world_base.build_base.cache_clear()
    planted = world_base.build_base()
    try:
        with KernelSession(world_config()) as s:
            listing = bang(s, "ls -A /etc/ssh").split()
            out = bang(s, f"cat {key} 2>&1; ls /etc/ssl/private 2>&1; ls /etc/sudoers.d 2>&1; "
                          f"grep -rs {SECRET_VALUE} /etc | head -3; true")
    finally:
        key.unlink()
        if made_sudoers:
            sudoers.rmdir()
        world_base.build_base.cache_clear()
        shutil.rmtree(planted, ignore_errors=True)
    assert "ssh_config" in listing and key.name not in listing, listing  # the rest of /etc/ssh is there
    assert out.count("No such file") == 3 and SECRET_VALUE not in out, out


def test_threat_model_cites_tests_that_exist() -> None:
    """docs/sandbox.md points each claim to a test (`file.py::test_name`, `::test_name` for the file
    named last): they must exist, or the page claims what nothing shows."""
    text = (CHECKOUT / "docs" / "sandbox.md").read_text()
    tests = CHECKOUT / "tests"
    cited, current = [], None
    for file, name in re.findall(r"((?:[\w/]+/)?test_\w+\.py)?::(test_\w+)", text):
        if file:
            found = [p for p in tests.rglob(Path(file).name) if str(p).endswith(file)]
            assert len(found) == 1, f"docs/sandbox.md cites {file}: found {found}"
            current = found[0]
        assert current is not None, f"::{name} without a file before it"
        cited.append((current, name))
    assert len(cited) >= 20, cited
    missing = [f"{p.relative_to(CHECKOUT)}::{n}" for p, n in cited if not re.search(rf"^def {n}\(", p.read_text(), re.MULTILINE)]
    assert not missing, f"docs/sandbox.md cites tests that do not exist: {missing}"
