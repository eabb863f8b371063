"""The agent's kernel: ``KernelSession`` (session.py) and what it is made of.

Host side: ``session`` (the public object), one launcher per mode (``launch_exec``,
``launch_forked``, ``launch_world``) over ``process``, ``outputs`` (the one output
collector) and ``messages``, ``pool`` (warm kernels), ``standby``, ``lifetime``.
Kernel side (imported inside the kernel, so they import nothing heavy): ``launcher``
(the entry point), ``boot``, ``shell``; ``forkserver`` is both.

Names are imported on first use: the kernel imports this package on its way to
``boot`` and must not pay for zmq clients, pydantic or the session.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .launch_forked import warm_up, why_exec
    from .lifetime import kill_all
    from .outputs import OutputCollector, strip_ansi, terminal_text
    from .pool import KernelPool
    from .session import KernelSession, sandbox_mode_for

_HOMES = {
    "KernelSession": "session",
    "sandbox_mode_for": "session",
    "KernelPool": "pool",
    "why_exec": "launch_forked",
    "warm_up": "launch_forked",
    "kill_all": "lifetime",
    "OutputCollector": "outputs",
    "strip_ansi": "outputs",
    "terminal_text": "outputs",
}

__all__ = [
    "KernelPool", "KernelSession", "OutputCollector", "kill_all", "sandbox_mode_for", "strip_ansi",
    "terminal_text", "warm_up", "why_exec",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
