"""The web toolkit: deskact's offline web apps (shop, wiki, crm) for a task's world.

Per worker: every app served on its own Unix socket with its own SQLite file
(``service.web_service``). Per task: ``site.serve`` resets an app's database
(from a seed plus overrides) and makes ``http://<app>.test/`` resolve in the
world; ``site.state`` judges the database. In the kernel: ``sites``, the URLs.
"""

from __future__ import annotations

from ..base import Toolkit
from .service import web_service

SUMMARY = """\
Offline web apps served for this task (no other site is reachable). Open them in the browser,
or use HTTP from Python (`requests`), at the URLs in `sites`."""

toolkit = Toolkit(
    name="web",
    module="deskact.toolkits.web.sites",
    exports=["sites"],
    summary=SUMMARY,
    service=web_service,
    plugins=["deskact.reset_scripts.site", "deskact.judges.site"],
    fork_imports=["deskact.toolkits.web.sites"],
)

__all__ = ["toolkit"]
