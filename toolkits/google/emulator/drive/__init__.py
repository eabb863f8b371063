"""Drive v3 in the emulator.

- ``handlers.py``  files, uploads, export, trash, permissions (registered with
  the framework when this package is imported), and the functions other
  services call so that their files show up in Drive
- ``query.py``     the ``q`` search language
- ``types.py``     how Drive reaches the services owning Google-type files
"""

from . import handlers
from .handlers import (
    KIND,
    PERM_KIND,
    ROOT_ID,
    delete_file_record,
    get_file,
    new_file_id,
    now_rfc3339,
    public_view,
    register_file,
    rename_file,
    touch_file,
)

__all__ = [
    "KIND", "PERM_KIND", "ROOT_ID", "delete_file_record", "get_file", "handlers", "new_file_id",
    "now_rfc3339", "public_view", "register_file", "rename_file", "touch_file",
]
