"""process.*, users.exists, groups.exists, packages.installed and files.owner on a real world.

Each judge passes on the right state and fails, with feedback naming what it
found, on a near miss. ``wctx`` (tests/conftest.py) skips where no world can be made.
"""

from __future__ import annotations

import time

import pytest
from deskact.runtime.config import Config
from deskact.runtime.tasks.steps import StepContext, Verdict, lookup, run_judge, run_reset


def j(judge_name: str, ctx: StepContext, **params: object) -> Verdict:
    v = run_judge(judge_name, params, ctx)
    assert not v.error, v.feedback
    return v


def sh(ctx: StepContext, cmd: str) -> str:
    proc = ctx.world.run(["bash", "-c", cmd], timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def wait_for(ctx: StepContext, judge_name: str, timeout: float = 10, **params: object) -> Verdict:
    """The judge's verdict once it passes (processes take a moment to start or die), else the last one."""
    deadline = time.monotonic() + timeout
    while not (v := j(judge_name, ctx, **params)).passed and time.monotonic() < deadline:
        time.sleep(0.05)
    return v


def test_process_running_by_name_cmdline_and_user(wctx: StepContext) -> None:
    run_reset("shell.run", {"cmd": "(exec -a cpuhog sleep 600) >/dev/null 2>&1 &"}, wctx)
    run_reset("shell.run", {"cmd": "python3 -m http.server 8123 >/dev/null 2>&1 &"}, wctx)
    assert wait_for(wctx, "process.running", name="cpuhog").passed  # exec -a NAME, as ps shows it
    v = j("process.running", wctx, name="sleep")  # the kernel's name, as pgrep matches it
    assert v.passed and v.feedback.startswith("a process named 'sleep' is running: pid ")
    assert "'cpuhog 600'" in v.feedback and "infinity" not in v.feedback  # the world's placeholder never counts
    # Anchored: until bash has exec'd python, "bash -c python3 -m http.server ..." holds the text too.
    assert wait_for(wctx, "process.running", cmdline_regex=r"^python3 -m http\.server 8123$", user="root").passed
    assert j("process.running", wctx, cmdline="http.server 8123").passed
    assert j("process.running", wctx, cmdline="cpuhog", user="0").passed

    v = j("process.running", wctx, name="cpuho")  # a name is matched whole, not as a part
    assert v.feedback.startswith("no process named 'cpuho' is running; running: pid ")
    assert "'cpuhog 600'" in v.feedback and "'python3 -m http.server 8123'" in v.feedback
    v = j("process.running", wctx, cmdline_regex=r"http\.server 8124")
    assert v.feedback.startswith(r"no process whose command line matches /http\.server 8124/ is running; running: ")
    sh(wctx, "useradd alice")
    v = j("process.running", wctx, cmdline="cpuhog", user="alice")
    assert v.feedback.startswith("no process with 'cpuhog' in its command line run by alice is running")
    v = j("process.running", wctx, cmdline="cpuhog", user="bob")
    assert v.feedback.startswith("no process with 'cpuhog' in its command line run by bob (there is no user 'bob')")


def test_process_absent_and_running_false(wctx: StepContext) -> None:
    run_reset("shell.run", {"cmd": "(exec -a cpuhog sleep 600) >/dev/null 2>&1 &"}, wctx)
    assert wait_for(wctx, "process.running", name="cpuhog").passed
    v = j("process.absent", wctx, name="cpuhog")
    assert not v.passed and v.feedback.startswith("no process named 'cpuhog' should be running, but pid ")
    assert v.feedback.endswith("(root): 'cpuhog 600'") and len(v.details["pids"]) == 1
    assert not j("process.running", wctx, name="cpuhog", running=False).passed  # the old spelling
    assert j("process.absent", wctx, name="memhog").passed
    sh(wctx, "pkill -f '^cpuhog'")
    v = wait_for(wctx, "process.absent", name="cpuhog")
    assert v.passed and v.feedback == "no process named 'cpuhog' is running"
    assert j("process.running", wctx, name="cpuhog", running=False).passed


def test_a_zombie_is_not_running(wctx: StepContext) -> None:
    # tail's parent becomes a sleep that never reaps it: killed, tail stays a zombie.
    sh(wctx, "(tail -f /dev/null & exec -a zparent sleep 600) >/dev/null 2>&1 &")
    assert wait_for(wctx, "process.running", name="tail").passed
    sh(wctx, "pkill -x tail")
    assert wait_for(wctx, "process.absent", name="tail").passed
    assert "Z" in sh(wctx, "ps -o stat= -C tail"), "the test needs a zombie"
    assert j("process.running", wctx, name="zparent").passed


def test_the_agents_kernel_is_not_a_process_of_the_task(tmp_path) -> None:
    from deskact.runtime.world.kernel import KernelSession
    from deskact.runtime.world.world import world_status

    if not world_status()[0]:
        pytest.skip(f"this machine cannot make worlds: {world_status()[1]}")
    with KernelSession(Config(), sandbox="bwrap") as session:
        assert session.world is not None
        ctx = StepContext(workspace=session.workspace, files=tmp_path, home=session.workspace, world=session.world)
        assert j("process.absent", ctx, cmdline="deskact").passed
        session.execute("import subprocess; p = subprocess.Popen(['sleep', '600'])")
        assert wait_for(ctx, "process.running", cmdline="sleep 600").passed  # what the kernel starts counts


def test_process_params_are_checked_at_load() -> None:
    with pytest.raises(ValueError, match="needs exactly one of name, cmdline, cmdline_regex"):
        lookup("judge", "process.absent").validate({"user": "root"})
    with pytest.raises(ValueError, match="bad regular expression"):
        lookup("judge", "process.running").validate({"cmdline_regex": "(unclosed"})


def test_users_exists(wctx: StepContext) -> None:
    sh(wctx, "groupadd developers && useradd -m -s /bin/bash -u 1500 -G developers deploy")
    assert j("users.exists", wctx, name="deploy", uid=1500, group="deploy", groups=["developers"],
             home="/home/deploy", shell="/bin/bash").passed
    assert j("users.exists", wctx, name="root", uid=0, home="/root").passed
    v = j("users.exists", wctx, name="deploy", uid=1501, shell="/bin/sh", groups=["developers", "docker"])
    assert v.feedback == ("user 'deploy': uid should be 1501 but is 1500; shell should be /bin/sh but is /bin/bash;"
                          " should be in group docker but is in deploy, developers")
    v = j("users.exists", wctx, name="deplo")
    assert v.feedback.startswith("there is no user 'deplo'; users: [") and "'deploy'" in v.feedback
    v = j("users.exists", wctx, name="deploy", exists=False)
    assert v.feedback == "user 'deploy' should not exist but does (uid 1500, home /home/deploy)"
    sh(wctx, "userdel -r deploy")
    assert j("users.exists", wctx, name="deploy", exists=False).passed


def test_groups_exists(wctx: StepContext) -> None:
    sh(wctx, "groupadd -g 2500 developers && useradd -G developers alice && useradd bob && useradd -g developers carol")
    assert j("groups.exists", wctx, name="developers", gid=2500, members=["alice", "carol"]).passed  # carol: primary
    v = j("groups.exists", wctx, name="developers", gid=2501, members=["alice", "bob"])
    assert v.feedback == "group 'developers': gid should be 2501 but is 2500; should have member bob but has alice, carol"
    assert j("groups.exists", wctx, name="testers").feedback.startswith("there is no group 'testers'; groups: [")
    assert j("groups.exists", wctx, name="testers", exists=False).passed
    assert not j("groups.exists", wctx, name="developers", exists=False).passed


BUILD_DEB = """set -e
mkdir -p /tmp/pkg/DEBIAN /tmp/pkg/usr/bin
printf 'Package: acme-cli\\nVersion: 1.2-1\\nArchitecture: all\\nMaintainer: QA <qa@example.com>\\nDescription: test\\n' \
  > /tmp/pkg/DEBIAN/control
printf '#!/bin/sh\\necho acme\\n' > /tmp/pkg/usr/bin/acme-cli && chmod 755 /tmp/pkg/usr/bin/acme-cli
dpkg-deb --build /tmp/pkg /tmp/acme-cli.deb >/dev/null
"""


def test_packages_installed(wctx: StepContext) -> None:
    assert j("packages.installed", wctx, name="dpkg").passed  # the host's packages are the world's too
    sh(wctx, BUILD_DEB)
    v = j("packages.installed", wctx, name="acme-cli")
    assert v.feedback == "package acme-cli should be installed but is not in dpkg's database"
    assert j("packages.installed", wctx, name="acme-cli", installed=False).passed
    sh(wctx, "dpkg -i /tmp/acme-cli.deb >/dev/null")
    assert j("packages.installed", wctx, name="acme-cli", version="1.2-1").passed
    assert j("packages.installed", wctx, name="acme-cli:all").passed
    v = j("packages.installed", wctx, name="acme-cli", version="1.3-1")
    assert v.feedback == "package acme-cli should be installed in version 1.3-1 but is in 1.2-1"
    v = j("packages.installed", wctx, name="acme-cli", installed=False)
    assert v.feedback == "package acme-cli should not be installed but is: install ok installed (1.2-1)"
    sh(wctx, "dpkg -r acme-cli >/dev/null")
    v = j("packages.installed", wctx, name="acme-cli", installed=False)
    assert v.passed and v.feedback == "package acme-cli is not installed (not in dpkg's database)"


def test_files_owner(wctx: StepContext) -> None:
    sh(wctx, "useradd alice && groupadd staff2 && mkdir /test && chown alice:alice /test && touch /srv/f")
    assert j("files.owner", wctx, path="/test", user="alice", group="alice").passed
    assert j("files.owner", wctx, path="/test", user="alice").passed
    assert j("files.owner", wctx, path="/srv/f", user="root", group="0").passed
    assert j("files.owner", wctx, path="/etc/passwd", user="root", group="root").passed  # a host file seen in the world
    v = j("files.owner", wctx, path="/test", user="alice", group="staff2")
    assert v.feedback == "/test should belong to alice:staff2 but belongs to alice:alice"
    v = j("files.owner", wctx, path="/test", user="bob")
    assert v.feedback.startswith("/test should belong to bob but no user 'bob' in /etc/passwd (users: ")
    assert v.feedback.endswith("; it belongs to alice:alice")
    assert j("files.owner", wctx, path="/nope", user="root").feedback == "/nope does not exist, so it cannot belong to root"
    # The host's own files never: a symlink the agent made resolves inside the world.
    sh(wctx, "ln -s /etc/shadow /srv/link")
    assert j("files.owner", wctx, path="/srv/link", user="root").passed


def test_files_judges_name_world_paths(wctx: StepContext) -> None:
    sh(wctx, "printf '127.0.0.1 localhost\\n' > /etc/hosts && mkdir -p /opt/app && chmod 0750 /opt/app")
    assert j("files.content", wctx, path="/etc/hosts", contains="localhost").passed
    v = j("files.content", wctx, path="/etc/hosts", contains="db.internal")
    assert v.feedback == "/etc/hosts should contain 'db.internal' but is '127.0.0.1 localhost'"
    assert j("files.mode", wctx, path="/opt/app", mode="0750").passed
    assert j("files.exists", wctx, path="/opt/app/bin").feedback == "/opt/app/bin does not exist (/opt/app holds [])"
