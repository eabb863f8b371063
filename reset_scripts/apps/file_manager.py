"""apps.files: a folder open in the desktop's file manager (Thunar), its window drawn.

Thunar (Xfce's, GTK 3) is the file manager here: it starts in ~0.2 s on a bare X display, needs no
D-Bus session (without one it runs as a process of its own per window, so two tasks' windows never
share an instance) and exports an accessibility tree. GNOME's Nautilus 43, what OSWorld's VM runs,
needs GTK 4, libadwaita, tracker and a D-Bus session, and its Debian package pulls in systemd and
udisks2 (74 packages): not a world's app. Measured in benchmarks/file_manager_start.py.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from ...runtime.tasks.steps import StepContext, StepFailed, reset_step
from .launcher import launch

PROGRAM = "thunar"
WINDOW = " - Thunar"
"""The end of every Thunar window's title (``<folder> - Thunar``)."""
ROOT_TITLE = "File System"
"""Thunar's name for the folder ``/``."""


def window_title(folder: PurePosixPath) -> str:
    """The title of Thunar's window on ``folder``: its name, ``File System`` for ``/``."""
    return (folder.name or ROOT_TITLE) + WINDOW


@reset_step("apps.files")
def apps_files(ctx: StepContext, path: str | None = None, timeout: float = 30) -> None:
    """Open the folder at ``path`` (default: the agent's home) in the file manager (Thunar) on the
    task's display and wait until its window, titled ``<folder> - Thunar``, is drawn. A ``path``
    that is not a folder fails the reset."""
    folder = ctx.path(path if path is not None else str(ctx.home))
    if not folder.is_dir():
        raise StepFailed(f"apps.files: {folder} is not a folder")
    where = PurePosixPath(str(folder))
    launch(ctx, [PROGRAM, str(where)], window_title(where), timeout, "apps.files")
