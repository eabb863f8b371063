"""The agent (root of its world) cannot take the world down by killing processes, and orphans are reaped."""

from __future__ import annotations

from deskact.runtime.tasks.steps import StepContext


def sh(ctx: StepContext, cmd: str) -> str:
    proc = ctx.world.run(["bash", "-c", cmd], timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_killing_everything_leaves_the_world_standing(wctx: StepContext) -> None:
    world = wctx.world
    init = world.pid
    sh(wctx, "pkill sleep; kill -9 1; kill -TERM 1; kill -INT 1; kill -9 -1; true")
    assert world.run(["sh", "-c", "pkill -9 -x bash; true"]).returncode == 0  # the placeholder is a bash
    assert world.pid == init and world.alive
    assert sh(wctx, "echo still here") == "still here\n"
    assert [p.pid for p in world.processes() if p.host_pid == init] == [1]


def test_orphans_are_reaped(wctx: StepContext) -> None:
    sh(wctx, "for i in 1 2 3; do (sh -c 'exit 3' &); done; (sleep 0.1 &); sleep 0.5")
    assert sh(wctx, "ps -eo stat= | grep -c Z || true") == "0\n"


def test_only_the_placeholder_is_deskacts(wctx: StepContext) -> None:
    """A judge looking for `sleep` (or anything) finds nothing of deskact's but the init."""
    assert [(p.pid, p.name) for p in wctx.world.processes()] == [(1, "bash")]
