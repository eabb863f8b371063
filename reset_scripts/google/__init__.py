"""google.* reset steps: start from a clean account, then seed it through the APIs.

Every Google task lists ``google.reset`` first: on the emulator it restores the
empty state (or a named snapshot) in milliseconds and records the instant that
relative times ("tomorrow 10:00") are resolved against, for seeding steps and
judges alike. The seeding steps call the Google APIs through host-side
googleapiclient clients (``ctx.services["google"]["clients"]``), so the same
task YAML works on the emulator and on a real account.

One module per concern: the account (``google.reset``, ``google.snapshot`` and the
access the judges share), then one per API (``calendar``, ``gmail``, ``drive``) and
the editors' files (``editors``: spreadsheets, documents, presentations, forms).
Importing this package registers them all. The account access judges share stays
importable from here, as it was when google was one module.
"""

from . import calendar, drive, editors  # noqa: F401  (registration)
from .account import (
    FOLDER,
    MIME_SHORT,
    RelTime,
    anchor,
    calendar_id,
    calendar_tz,
    clients,
    drive_find,
    folder_path,
    list_all,
)
from .gmail import label_ids

__all__ = [
    "FOLDER", "MIME_SHORT", "RelTime", "anchor", "calendar_id", "calendar_tz", "clients", "drive_find",
    "folder_path", "label_ids", "list_all",
]
