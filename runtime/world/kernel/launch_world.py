"""Launch mode "world" (``world.enabled``): the kernel forked into the task's world by the fork
server, or exec'd there through nsenter. The world outlives its kernels: restarts land in the same one."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from jupyter_client.launcher import launch_kernel

from ...errors import KernelError
from .. import sandbox
from ..world import WORLD_PATH
from . import forkserver, launch_forked, process
from .process import LaunchRequest


def launch(req: LaunchRequest, fork: bool) -> tuple[subprocess.Popen[bytes], forkserver.KernelProcess | None]:
    world = req.world
    assert world is not None
    env = sandbox.kernel_env(req.config.sandbox, req.env, req.workspace, req.private_dir, req.display)
    env["PATH"] = f"{Path(sys.executable).parent}:{WORLD_PATH}"  # the host's PATH names host dirs
    limits = sandbox.rlimits(req.config.sandbox, "none", None)  # processes: the world's cgroup
    with open(req.log_path, "wb") as log:
        if fork:
            forked = launch_forked.fork(req, world.pid, world.uid, env, req.workspace, limits, log,
                                        userns=True, cgroups=world.cgroup.procs_files if world.cgroup else (),
                                        inner_uid=world.agent_id)
            assert world.proc is not None
            return world.proc, forked
        prlimit = [shutil.which("prlimit") or "prlimit", *(f"--{k}={v}" for k, v in limits.items()), "--"]
        argv = world.enter([*prlimit, sys.executable, "-m", process.KERNEL_MODULE, *req.args], user=world.agent_id)
        try:
            proc = process.in_spawner(launch_kernel, argv, stdout=subprocess.DEVNULL, stderr=log,
                                      env=env, cwd="/")
        except OSError as exc:
            raise KernelError(f"cannot launch the kernel in its world: {exc}") from exc
        return proc, None
