"""world.user = user: the agent is an ordinary account (``agent``) with passwordless sudo in its world."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest
from deskact.runtime.config import Config
from deskact.runtime.world.base import agent_account_id
from deskact.runtime.world.kernel import KernelSession
from deskact.runtime.world.world import world_status

OK, WHY = world_status()
AGENT_ID = agent_account_id()
pytestmark = [
    pytest.mark.skipif(not OK, reason=f"no worlds here: {WHY}"),
    pytest.mark.skipif(shutil.which("sudo") is None, reason="sudo is not installed (scripts/setup.sh installs it)"),
]


@pytest.fixture(scope="module", params=["forked", "exec"])
def session(request: pytest.FixtureRequest) -> Iterator[KernelSession]:
    cfg = Config()
    cfg.world.user = "user"
    cfg.kernel.fork_server = request.param == "forked"
    with KernelSession(cfg, sandbox="bwrap") as s:
        assert s.world is not None and (s._kernel is not None and s._kernel.forked is not None) == cfg.kernel.fork_server
        yield s


def sh(s: KernelSession, cmd: str) -> str:
    r = s.execute(f"import subprocess\nprint(subprocess.run({cmd!r}, shell=True, capture_output=True, text=True)"
                  ".stdout, end='')", timeout=30)
    assert r.status == "ok", r
    return r.stdout


def test_the_agent_is_an_ordinary_user(session: KernelSession) -> None:
    assert sh(session, "id -un; id -u") == f"agent\n{AGENT_ID}\n"
    assert sh(session, "mkdir /not-allowed 2>&1; echo $?").endswith("1\n")
    assert sh(session, "touch own.txt && stat -c %U own.txt") == "agent\n"  # the workspace is its own
    assert session.world is not None
    assert os.stat(session.workspace / "own.txt").st_uid == session.world.uid + AGENT_ID  # unprivileged on the host


def test_sudo_without_a_password_reaches_the_worlds_root_only(session: KernelSession) -> None:
    assert sh(session, "sudo -n id -u") == "0\n"
    assert sh(session, "sudo -n mkdir /test && ls -ld /test | cut -d' ' -f3") == "root\n"
    assert "root:*:" in sh(session, "sudo -n head -1 /etc/shadow")  # the world's copy: no hash
    assert session.world is not None
    proc = next(p for p in session.world.processes() if (p.uid == AGENT_ID and "kernel" in p.cmdline)
                or (p.uid == AGENT_ID and p.name.startswith("python")))
    assert os.stat(f"/proc/{proc.host_pid}").st_uid == session.world.uid + AGENT_ID
