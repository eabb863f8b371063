"""Toolkits: what the agent's kernel preloads (gui, google, web, browser) and the interface to write one.

``Toolkit``, ``ServiceContext`` and ``ServiceHandle`` are public (also from ``deskact``).
They resolve on first use: the kernel imports the toolkit subpackages, which
must not pay for the host-side interface.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ServiceContext", "ServiceHandle", "Toolkit"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import base

        return getattr(base, name)
    raise AttributeError(f"module 'deskact.toolkits' has no attribute {name!r}")
