"""The environment apps get when deskact starts them on a task's display.

Its own module: the host (reset steps, kernel_env) needs it without importing the
toolkit's mouse and keyboard code.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

GUI_APP_ENV = {"GSETTINGS_BACKEND": "memory", "NO_AT_BRIDGE": "1", "SAL_USE_VCLPLUGIN": "gen"}
"""Defaults for apps started on a task's display. There is no D-Bus session bus here, so
GTK's default settings backend (dconf) drops every write: a check box bound to a setting
(mousepad's "Regular expression", "Word wrap") jumped back when clicked. The memory
backend keeps settings for the app's lifetime, and each task starts from the defaults
(with a real session bus, dconf would leak one task's settings into the next).
NO_AT_BRIDGE: no accessibility bus to connect to either (GTK would warn and wait for it).
SAL_USE_VCLPLUGIN: LibreOffice's own X11 widgets, as on a machine without its GTK plugin.
A task with an accessibility bus (``observation.a11y``) gets ``with_a11y`` instead."""


def with_a11y(env: dict[str, str]) -> dict[str, str]:
    """``env`` for an app on a display whose world runs an accessibility bus: GTK's AT-SPI bridge
    on, Gecko's accessibility on (Thunderbird), and LibreOffice on its GTK 3 widgets (the only ones
    that export a tree)."""
    out = {k: v for k, v in env.items() if k != "NO_AT_BRIDGE"}
    out["SAL_USE_VCLPLUGIN"] = "gtk3"
    # Gecko (Thunderbird, Firefox) exports its tree only when asked to: without a session bus to
    # ask whether a screen reader runs, this is how.
    out["GNOME_ACCESSIBILITY"] = "1"
    return out


def world_app_env(world: object) -> dict[str, str]:
    """GUI_APP_ENV for an app a reset step starts in ``world``, with_a11y when it has a bus."""
    from ...runtime.world.a11y_bus import BUS_SOCKET

    has_bus = world.host_path(BUS_SOCKET).exists()  # type: ignore[attr-defined]
    return with_a11y(dict(GUI_APP_ENV)) if has_bus else dict(GUI_APP_ENV)


def app_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """``base`` (default: this process's environment) plus GUI_APP_ENV where not set already."""
    from ...runtime.world.a11y_bus import BUS_SOCKET

    env = dict(os.environ if base is None else base)
    for name, value in GUI_APP_ENV.items():
        env.setdefault(name, value)
    # In a kernel whose world runs an accessibility bus, apps it launches export their trees.
    return with_a11y(env) if base is None and os.path.exists(BUS_SOCKET) else env


ROOT_WARNING_APPS = frozenset({"mousepad", "thunar"})
"""Apps that put a red "you are using the root account" bar over their contents when run as uid 0."""
LOOKALIKE_UID = 1000
"""The id root's files show as to such an app (the first account id, as the world's ``agent``'s)."""


def program(argv: list[str]) -> str:
    """The program ``argv`` runs: ``mousepad`` for ``env GSETTINGS_BACKEND=memory mousepad notes.txt``."""
    rest = list(argv)
    if rest and Path(rest[0]).name == "env":
        rest = rest[1:]
        while rest and ("=" in rest[0] or rest[0].startswith("-")):
            rest = rest[1:]
    return Path(rest[0]).name if rest else ""


def without_root_banner(argv: list[str], uid: int) -> list[str]:
    """``argv`` for an app started as ``uid`` (in the world's or the host's user namespace).

    A ROOT_WARNING_APPS app started as root runs in a nested user namespace whose only id,
    LOOKALIKE_UID, is root outside it: the app owns every file root owns (opening and saving work
    as before) and holds no privilege over anything else, but it is not uid 0, so it draws no
    warning bar, as on a user's desktop. Everything else is unchanged."""
    if uid != 0 or program(argv) not in ROOT_WARNING_APPS or shutil.which("unshare") is None:
        return argv
    return ["unshare", "--user", f"--map-user={LOOKALIKE_UID}", f"--map-group={LOOKALIKE_UID}", "--", *argv]
