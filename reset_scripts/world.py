"""world.require: a task that changes the system runs in a world or not at all."""

from __future__ import annotations

from ..runtime.tasks.steps import StepContext, StepFailed, reset_step


@reset_step("world.require")
def world_require(ctx: StepContext) -> None:
    """Fail unless the task has a world (first in the reset of tasks that change the system:
    where no world can be made, the agent's code would run on the host itself, as root when the
    sandbox is off, and its `useradd` or edit of /etc/hosts would change the real machine)."""
    if ctx.world is None:
        raise StepFailed(
            f"task {ctx.task_id or '?'} changes the system, so it needs a world, and it has none"
            " (world.enabled off, or this machine cannot make worlds: deskact doctor says why)"
        )
