"""The built-in toolkits by name: where the runtime's defaults come from.

The runtime never asks for a toolkit by name (it asks a toolkit what it needs, see
``Toolkit.needs_display``); only its defaults do, and they are taken from here.
"""

from __future__ import annotations

DESKTOP_TOOLKIT = "gui"
"""The toolkit that drives a desktop: tasks imported from desktop benchmarks (OSWorld,
AgentStudio) name it, and ``deskact toolkit docs`` documents it when given no name."""

BROWSER_TOOLKIT = "browser"
"""The toolkit that drives the world's Chromium: tasks imported with browser set-up or judges name it."""

DEFAULT_TOOLKITS: tuple[str, ...] = (DESKTOP_TOOLKIT,)
"""Preloaded in every kernel unless ``toolkits.enabled`` says otherwise."""

BUILTIN_TOOLKITS: dict[str, str] = {
    DESKTOP_TOOLKIT: "deskact.toolkits.gui:toolkit",
    "google": "deskact.toolkits.google:toolkit",
    "web": "deskact.toolkits.web:toolkit",
    BROWSER_TOOLKIT: "deskact.toolkits.browser:toolkit",
}
"""Names that resolve without entry points (a checkout that was never pip-installed has none)."""
