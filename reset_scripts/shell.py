"""shell.run: a shell command in the task's world (or on the host with `in: host`), workspace as cwd."""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
from contextlib import nullcontext
from typing import IO, Literal

from ..runtime.tasks.helpers import clip
from ..runtime.tasks.limits import Seconds
from ..runtime.tasks.steps import StepContext, StepFailed, reset_step

Where = Literal["host", "world"]


def run_shell(
    ctx: StepContext, cmd: str, timeout: float, in_: Where | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``cmd`` with bash in the workspace, in the task's world as its root (the default when the task
    has one: what it starts is the agent's to see, and the agent's symlinks lead nowhere else) or on the
    host (``in: host``, for the suite's own files); a timeout raises StepFailed.

    Output goes to temporary files, not pipes, so a command that leaves a
    background process behind (``server &``) returns as soon as bash exits.
    ``start_new_session`` gives it its own process group so a timeout kills
    the whole pipeline, not only the shell.
    """
    cwd = ctx.workspace if ctx.workspace.is_dir() else None
    if in_ is None:
        in_ = "world" if ctx.world is not None else "host"
    if in_ == "world" and ctx.world is None:
        raise StepFailed(f"`in: world` but task {ctx.task_id or '?'} has no world (deskact doctor says why)")
    # A judge's command looks at the world live (judges otherwise run with it frozen).
    live = ctx.world.thawed() if in_ == "world" else nullcontext()
    with live, tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        if in_ == "world":
            # The world's own environment (an allowlist): the runner's secrets never reach it.
            proc = ctx.world.spawn(["bash", "-c", cmd], stdout=out, stderr=err)
        else:
            proc = subprocess.Popen(
                ["bash", "-c", cmd], cwd=cwd, env=ctx.env(), stdout=out, stderr=err,
                stdin=subprocess.DEVNULL, start_new_session=True,
            )
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc.pid)
            proc.wait()
            raise StepFailed(f"command {clip(cmd, 120)} did not finish within {timeout:g} s") from None
        return subprocess.CompletedProcess(proc.args, proc.returncode, _read(out), _read(err))


def _read(f: IO[bytes]) -> str:
    f.seek(0)
    return f.read().decode("utf-8", errors="replace")


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@reset_step("shell.run")
def shell_run(ctx: StepContext, cmd: str, timeout: Seconds = 60, in_: Where | None = None) -> None:
    """Run a bash command in the workspace: in the task's world as its root (the default when it has one;
    a server it leaves running is a process of the world, gone at cleanup) or on the host (``in: host``);
    a non-zero exit fails the step with its stderr."""
    proc = run_shell(ctx, cmd, timeout, in_)
    if proc.returncode != 0:
        err = (proc.stderr or proc.stdout).strip()[-500:]
        raise StepFailed(f"command {clip(cmd, 120)} exited with {proc.returncode}: {err or '(no output)'}")
