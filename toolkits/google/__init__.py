"""The Google Workspace toolkit: Calendar, Gmail, Drive, Sheets, Docs, Slides, Forms.

In the kernel: ready googleapiclient service objects and helpers (``api.py``).
Per worker: the local emulator by default, or a real account
(``config.google.backend: google``), started by ``service.google_service``.
On the host: the ``google.*`` reset steps and judges.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..base import Toolkit

SUMMARY = """\
Google Workspace APIs through google-api-python-client: the service objects `calendar` (v3),
`gmail` (v1), `drive` (v3), `sheets` (v4), `docs` (v1), `slides` (v1) and `forms` (v1) are
already built and authorized for the account (call methods and finish with `.execute()`;
userId="me" and calendarId="primary" mean the account itself). List calls return one page:
follow `nextPageToken` (or use `list_all`). Helpers below cover the clumsy calls. There is no
internet access besides these APIs."""

_made = threading.Lock()


def _toolkit() -> Toolkit:
    from ..base import Toolkit
    from .api import EXPORTS
    from .service import google_service

    return Toolkit(
        name="google",
        module="deskact.toolkits.google.api",
        exports=EXPORTS,
        summary=SUMMARY,
        service=google_service,
        plugins=["deskact.reset_scripts.google", "deskact.judges.google"],
        # googleapiclient and the discovery docs: ~60 ms of imports per kernel otherwise.
        fork_imports=["deskact.toolkits.google.api"],
    )


def __getattr__(name: str) -> Any:
    # ``toolkit`` is made on first use: it needs api.py and so googleapiclient (150-300 ms of
    # imports). The google reset steps and judges import only ``when`` from this package, and
    # every run imports them (each Ray actor process too), Google tasks or not.
    if name != "toolkit":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    with _made:
        if "toolkit" not in globals():
            globals()["toolkit"] = _toolkit()
    return globals()["toolkit"]


__all__ = ["toolkit"]
