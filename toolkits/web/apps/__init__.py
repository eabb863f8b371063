"""deskact's offline web apps: a shop, a wiki and a form-heavy admin app (crm).

Each is a Flask app over its own SQLite file (``schema.sql`` + a named seed in
``seeds/``); :mod:`..db` resets that file per task and :mod:`..service` serves the
app on a Unix socket that only the task's world is given.
"""

from __future__ import annotations

from .common import SiteApp
from .crm import APP as CRM
from .shop import APP as SHOP
from .wiki import APP as WIKI

APPS: dict[str, SiteApp] = {app.name: app for app in (SHOP, WIKI, CRM)}

__all__ = ["APPS", "SiteApp"]
