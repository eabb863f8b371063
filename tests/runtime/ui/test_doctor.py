"""deskact doctor: what this machine has, and how kernels will start."""

from __future__ import annotations

import os

from deskact.runtime.config import Config
from deskact.runtime.ui.doctor import run_checks
from deskact.runtime.world.sandbox import sandbox_status


def kernel_start(config: Config) -> str:
    (check,) = [c for c in run_checks(config) if c.item == "kernel start"]
    assert check.ok
    return check.detail


def test_kernel_start_says_how_kernels_will_start() -> None:
    cfg = Config()
    forked = os.geteuid() == 0 and sandbox_status()[0]
    assert kernel_start(cfg).startswith("forked" if forked else "exec'd")
    cfg.kernel.fork_server = False
    assert kernel_start(cfg) == "exec'd (kernel.fork_server is false)"
    cfg = Config()
    cfg.sandbox.mode = "none"
    assert kernel_start(cfg) in ("exec'd (no bwrap sandbox)", "exec'd (forking into sandboxes needs root)")
