"""apps.* reset steps, one module per concern: start, open files in and stop apps
(``launcher``), a folder in the file manager (``file_manager``), a terminal ready for typing
(``terminal``), save and close documents before the judges (``save_close``). Importing this package registers them all.

The helpers other steps and judges use stay importable from here, as they were when apps
was one module.
"""

from . import file_manager, gimp, save_close, terminal, thunderbird, vlc  # noqa: F401  (registration)
from .launcher import (
    app_argv,
    apps_kill,
    launch,
    libreoffice_profile,
    processes_on_display,
    world_libreoffice_profile,
)

__all__ = [
    "app_argv", "apps_kill", "launch", "libreoffice_profile", "processes_on_display", "world_libreoffice_profile",
]
