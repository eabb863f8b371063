"""The environment apps get when deskact starts them on a task's display.

Its own module: the host (reset steps, kernel_env) needs it without importing the
toolkit's mouse and keyboard code.
"""

from __future__ import annotations

import os

GUI_APP_ENV = {"GSETTINGS_BACKEND": "memory", "NO_AT_BRIDGE": "1"}
"""Defaults for apps started on a task's display. There is no D-Bus session bus here, so
GTK's default settings backend (dconf) drops every write: a check box bound to a setting
(mousepad's "Regular expression", "Word wrap") jumped back when clicked. The memory
backend keeps settings for the app's lifetime, and each task starts from the defaults
(with a real session bus, dconf would leak one task's settings into the next).
NO_AT_BRIDGE: no accessibility bus to connect to either (GTK would warn and wait for it)."""


def app_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """``base`` (default: this process's environment) plus GUI_APP_ENV where not set already."""
    env = dict(os.environ if base is None else base)
    for name, value in GUI_APP_ENV.items():
        env.setdefault(name, value)
    return env
