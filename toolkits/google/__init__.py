"""The Google Workspace toolkit: Calendar, Gmail, Drive, Sheets, Docs, Slides, Forms.

In the kernel: ready googleapiclient service objects and helpers (``api.py``).
Per worker: the local emulator by default, or a real account
(``config.google.backend: google``), started by ``service.google_service``.
On the host: the ``google.*`` reset steps and judges.
"""

from __future__ import annotations

from ..base import Toolkit
from .api import EXPORTS
from .service import google_service

SUMMARY = """\
Google Workspace APIs through google-api-python-client: the service objects `calendar` (v3),
`gmail` (v1), `drive` (v3), `sheets` (v4), `docs` (v1), `slides` (v1) and `forms` (v1) are
already built and authorized for the account (call methods and finish with `.execute()`;
userId="me" and calendarId="primary" mean the account itself). List calls return one page:
follow `nextPageToken` (or use `list_all`). Helpers below cover the clumsy calls. There is no
internet access besides these APIs."""

toolkit = Toolkit(
    name="google",
    module="deskact.toolkits.google.api",
    exports=EXPORTS,
    summary=SUMMARY,
    service=google_service,
    plugins=["deskact.reset_scripts.google", "deskact.judges.google"],
    # googleapiclient and the discovery docs: ~60 ms of imports per kernel otherwise.
    fork_imports=["deskact.toolkits.google.api"],
)

__all__ = ["toolkit"]
