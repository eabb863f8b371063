"""Judges look at a world that stands still: no process the agent left running can race them."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from deskact.runtime.config import Config
from deskact.runtime.tasks.steps import StepContext
from deskact.runtime.world.kernel import KernelSession
from deskact.runtime.world.world import world_status

OK, WHY = world_status()
pytestmark = pytest.mark.skipif(not OK, reason=f"no worlds here: {WHY}")


@pytest.fixture
def session() -> Iterator[KernelSession]:
    with KernelSession(Config(), sandbox="bwrap") as s:
        if s.world is None or s.world.cgroup is None or s.world.cgroup.freezer is None:
            pytest.skip("no freezer cgroup here")
        yield s


def test_a_frozen_world_stands_still_but_judge_commands_run(session: KernelSession) -> None:
    world = session.world
    assert world is not None
    session.execute("import subprocess; subprocess.Popen(['bash', '-c', 'i=0; while :; do i=$((i+1)); "
                    "echo $i > tick; sleep 0.001; done'])", timeout=10)
    tick = session.workspace / "tick"
    deadline = time.monotonic() + 10
    while not tick.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    with world.frozen() as frozen:
        assert frozen
        first = tick.read_text()
        time.sleep(0.2)
        assert tick.read_text() == first
        assert world.run(["cat", "tick"], timeout=10).stdout == first  # a judge's command is not frozen
    time.sleep(0.2)
    assert tick.read_text() != first  # thawed
    r = session.execute("print(1 + 1)", timeout=10)
    assert r.stdout == "2\n"


def test_a_swapping_symlink_never_leads_a_frozen_judge_to_the_host(session: KernelSession, tmp_path: Path) -> None:
    world = session.world
    assert world is not None
    secret = tmp_path / "secret"
    secret.mkdir(mode=0o755)
    tmp_path.chmod(0o755)
    (secret / "f").write_text("HOST-SECRET")
    # The agent's loop: `d` is a directory holding f ("world"), then a symlink to the host's dir, again
    # and again. Unfrozen, a judge that saw the directory would open d/f through the symlink.
    session.execute(
        "import subprocess; subprocess.Popen(['bash', '-c', 'mkdir A && echo world > A/f; "
        f"ln -s {secret} L; while :; do mv -T A d; mv -T d A; mv -T L d; mv -T d L; done'])", timeout=10)
    ctx = StepContext(workspace=session.workspace, files=tmp_path / "none", home=session.workspace, world=world)
    seen = set()
    for _ in range(300):
        with world.frozen():
            try:
                seen.add(ctx.path("d/f").read_text().strip())
            except OSError:
                seen.add("missing")
    assert "HOST-SECRET" not in seen, seen


def test_a_judges_own_command_sees_the_world_live(session: KernelSession) -> None:
    """shell.output looks at live behaviour (a heartbeat that moves), then the world is frozen again."""
    from deskact.reset_scripts.shell import run_shell

    world = session.world
    assert world is not None and world.cgroup is not None
    session.execute("import subprocess; subprocess.Popen(['bash', '-c', 'i=0; while :; do i=$((i+1)); "
                    "echo $i > beat; sleep 0.01; done'])", timeout=10)
    ctx = StepContext(workspace=session.workspace, files=session.workspace / "none", home=session.workspace,
                      world=world)
    with world.frozen():
        out = run_shell(ctx, "a=$(cat beat); sleep 0.3; b=$(cat beat); [ \"$a\" != \"$b\" ] && echo live", 10)
        assert out.stdout == "live\n"
        assert world.cgroup.frozen
        first = (session.workspace / "beat").read_text()
        time.sleep(0.1)
        assert (session.workspace / "beat").read_text() == first



@pytest.fixture
def freezer_probes() -> Iterator[list[tuple[str, bool]]]:
    """Two cleanup steps registered for one test: each records whether the world was frozen."""
    from deskact.runtime.tasks.steps import REGISTRY, reset_step

    seen: list[tuple[str, bool]] = []

    def probe(ctx: StepContext) -> None:
        seen.append(("probe", ctx.world.cgroup.frozen))

    def live_probe(ctx: StepContext) -> None:
        seen.append(("live", ctx.world.cgroup.frozen))

    reset_step("test.frozen_probe")(probe)
    reset_step("test.live_probe", live=True)(live_probe)
    try:
        yield seen
    finally:
        for name in ("test.frozen_probe", "test.live_probe"):
            REGISTRY["reset"].pop(name, None)


def test_cleanup_runs_with_the_world_frozen_and_live_steps_thawed(freezer_probes: list[tuple[str, bool]]) -> None:
    """Cleanup steps (the os-background-worker's `files.write stop`, say) write where a process the
    agent left may be swapping links: the world stands still for them, as for judges; a `live`
    step (apps.kill: signals) runs with the world thawed, then it is frozen again."""
    import sys

    from deskact.runtime.run.task_env import TaskEnv
    from deskact.runtime.run.worker import Worker

    sys.path.insert(0, str(Path(__file__).parent))
    from world_probes import task, world_config

    cleanup = [("test.frozen_probe", {}), ("test.live_probe", {}), ("files.write", {"path": "stop", "content": ""}),
               ("test.frozen_probe", {})]
    with Worker(world_config()) as worker, TaskEnv(task("t-cleanup-frozen", cleanup=cleanup), worker) as env:
        env.reset()
        world = env.session.world
        if world is None or world.cgroup is None or world.cgroup.freezer is None:
            pytest.skip("no freezer cgroup here")
        assert env.cleanup() == []
    assert freezer_probes == [("probe", True), ("live", False), ("probe", True)]
