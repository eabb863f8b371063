"""The GUI toolkit: mouse, keyboard, screen, windows and apps on the task's X display.

The runtime configures it in the kernel through environment variables: the toolkit's
``kernel_env`` hook adds ``kernel_env(config, display)`` to every kernel started on a display.
"""

from __future__ import annotations

from typing import Any

from ...runtime.config import Config
from ..base import Toolkit
from .app_env import GUI_APP_ENV
from .coordinates import PYAUTOGUI_DEPENDENCIES


def kernel_env(config: Config, display: Any = None) -> dict[str, str]:
    """Environment variables the kernel needs for the GUI toolkit.

    pause/failsafe default by display mode (virtual: no pause, no fail-safe;
    attach: a person's desktop, so a short pause and the fail-safe corner on).
    The observation size lets the kernel map screenshot coordinates to screen
    pixels with the same ``fit_scale`` the runtime uses for its screenshots.
    The kernel measures the real screen itself, so ``display`` (a Display, a
    name or None) does not change the values; it is accepted for callers.

    On a virtual display, apps the agent starts any way (subprocess, ``!mousepad &``,
    a shell in xterm) also get ``GUI_APP_ENV`` (GTK settings that stick without D-Bus).
    """
    attach = config.display.mode == "attach"
    pause = config.gui.pause if config.gui.pause is not None else (0.05 if attach else 0.0)
    failsafe = config.gui.failsafe if config.gui.failsafe is not None else attach
    env = {
        "DESKACT_GUI_PAUSE": repr(float(pause)),
        "DESKACT_GUI_FAILSAFE": "true" if failsafe else "false",
        "DESKACT_OBSERVATION_MAX_WIDTH": str(config.observation.max_width),
        "DESKACT_OBSERVATION_MAX_HEIGHT": str(config.observation.max_height),
    }
    if not attach:  # a person's desktop keeps its own settings backend
        env.update(GUI_APP_ENV)
    return env


def _env_on_display(config: Config, display: Any) -> dict[str, str]:
    """The toolkit's kernel_env hook: nothing to configure in a kernel without a display."""
    return kernel_env(config, display) if display is not None else {}


SUMMARY = """\
Drive the desktop like a person: `mouse`, `keyboard`, `screen`, `windows` and `apps` are
already imported. All coordinates are pixels in the screenshot you were shown (origin at
the top-left corner; `screen.size` is its width and height), not physical screen pixels.
After GUI actions you receive a fresh screenshot; check it before assuming an action worked.
Prefer keyboard shortcuts and `keyboard.type` over clicking menus when they are reliable."""

toolkit = Toolkit(
    name="gui",
    module="deskact.toolkits.gui.api",
    exports=["mouse", "keyboard", "screen", "windows", "apps", "a11y"],
    # Import pyautogui now (when a display is set) so the model's first step is not slowed by it.
    setup="__import__('deskact.toolkits.gui.api', fromlist=['warm_up']).warm_up()\n",
    summary=SUMMARY,
    # Shared by forked kernels (~100 ms of imports, pydantic among them, and ~150 ms of pyautogui's
    # dependencies); pyautogui itself is not: it connects to the display, which differs per worker.
    fork_imports=["deskact.toolkits.gui.api", *PYAUTOGUI_DEPENDENCIES],
    needs_display=True,
    kernel_env=_env_on_display,
)

__all__ = ["kernel_env", "toolkit"]
