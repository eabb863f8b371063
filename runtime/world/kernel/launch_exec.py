"""Launch mode "exec": the kernel exec'd at the end of the sandbox chain (mode none: as is or under
its own uid; mode bwrap: inside bwrap). The fallback whenever a kernel cannot be forked."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO

from jupyter_client.launcher import launch_kernel

from ...errors import KernelError
from .. import sandbox
from . import forkserver, process
from .process import LaunchRequest

# What runs after the launch, with the process and its open log (the forked mode's fork).
AfterLaunch = Callable[["subprocess.Popen[bytes]", IO[bytes]], "forkserver.KernelProcess"]


def launch(req: LaunchRequest) -> tuple[subprocess.Popen[bytes], None]:
    inner = [sys.executable, "-m", process.KERNEL_MODULE, *req.args]
    proc, _ = launch_plan(plan_for(req, inner), req.log_path)
    return proc, None


def plan_for(req: LaunchRequest, inner: list[str]) -> sandbox.SandboxPlan:
    return sandbox.plan(
        inner, mode=req.mode, config=req.config, workspace=req.workspace,
        private_dir=req.private_dir, env=req.env, display=req.display,
        sockets=req.sockets, uid=req.uid,
    )


def launch_plan(
    plan: sandbox.SandboxPlan, log_path: Path, then: AfterLaunch | None = None,
) -> tuple[subprocess.Popen[bytes], forkserver.KernelProcess | None]:
    """Start ``plan.argv`` (stderr to ``log_path``), then ``then`` if given. bwrap's
    mount race (``sandbox.BWRAP_MOUNT_RACE``) is retried twice."""
    for attempt in range(3):
        log = open(log_path, "wb")  # noqa: SIM115 - handed to the child
        try:
            proc = process.in_spawner(
                launch_kernel, plan.argv, stdout=subprocess.PIPE if then else subprocess.DEVNULL,
                stderr=log, env=plan.env, cwd=str(plan.cwd),
            )
            return proc, then(proc, log) if then else None
        except OSError as exc:
            raise KernelError(f"cannot launch the kernel ({plan.argv[0]}): {exc}") from exc
        except KernelError as exc:
            if attempt == 2 or sandbox.BWRAP_MOUNT_RACE not in str(exc):
                raise
        finally:
            log.close()
    raise AssertionError("unreachable")
