"""The browser toolkit: the task's Chromium, driven over the DevTools protocol.

In the kernel: ``browser`` (``api.py``), Playwright connected over CDP to the
Chromium that runs in the task's world. On the host: the ``browser.*`` reset
steps and judges (``reset_scripts/browser.py``, ``judges/browser.py``), which
reach the same Chromium through the world's network namespace (``cdp.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..base import Toolkit
from .api import EXPORTS

if TYPE_CHECKING:
    from ...runtime.tasks.steps import StepContext

SUMMARY = """\
The Chromium window on the screen, through its pages: `browser` opens URLs, lists and switches
tabs, reads a page's text and accessibility tree, clicks and fills by CSS selector, by text or by
label, queries the DOM and takes page screenshots. It acts on the tab the window shows. There is
no internet: only pages the task serves (or files) load; anything else fails at once."""


def _active_url(ctx: StepContext) -> str | None:
    """The step_url hook: each step's record gets the active tab's URL (the host module loads lazily:
    the kernel imports this package too)."""
    from .session import active_url

    return active_url(ctx)


toolkit = Toolkit(
    name="browser",
    module="deskact.toolkits.browser.api",
    exports=EXPORTS,
    summary=SUMMARY,
    # Playwright's driver (a Node process) starts while the kernel waits in the pool, not in the
    # agent's first step.
    setup="browser._warm_up()\n",
    plugins=["deskact.reset_scripts.browser", "deskact.judges.browser"],
    # The API module imports only the standard library at import time (Playwright on first use).
    fork_imports=["deskact.toolkits.browser.api"],
    step_url=_active_url,
)

__all__ = ["toolkit"]
