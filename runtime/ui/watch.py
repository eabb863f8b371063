"""``deskact run --watch``: where to see each worker's display while the run goes.

``--watch`` sets ``display.vnc_web``: every worker's virtual display is served by
x11vnc and shown by noVNC (world/vnc_web.py), both on 127.0.0.1. The runner
tells ``announcer`` as each worker's display starts, and it prints the
addresses (with ``display.vnc`` alone, the VNC port for a VNC client).
Watching never turns on the per-block confirmation: that stays with
``agent.confirm`` (and display mode attach).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console

from ..config import Config
from ..errors import DeskactError


def check_watch(config: Config, watch: bool) -> None:
    """--watch shows the virtual displays the workers start; other display modes have none to show."""
    if watch and config.display.mode != "virtual":
        raise DeskactError(f"--watch: display.mode is {config.display.mode!r}; it shows virtual displays only")


def describe(worker_id: int, display: Any) -> str | None:
    """One line saying where to watch this worker's display, or None when it is not served."""
    vnc = f"VNC 127.0.0.1:{display.vnc_port}" if getattr(display, "vnc_url", None) else ""
    web = getattr(display, "web_url", None)
    if web:
        return f"watch worker {worker_id} (display {display.name}): {web} ({vnc})"
    if vnc:
        return f"worker {worker_id} (display {display.name}): {vnc} (e.g. vncviewer 127.0.0.1::{display.vnc_port})"
    return None


def announcer(console: Console) -> Callable[[int, Any], None]:
    """The runner's ``on_display`` hook: print each worker's addresses as its display starts."""

    def announce(worker_id: int, display: Any) -> None:
        line = describe(worker_id, display)
        if line:
            console.print(line, markup=False, highlight=False, soft_wrap=True)

    return announce
