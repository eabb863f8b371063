"""Fixtures for the offline web apps: one app's database and Flask test client, no server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from deskact.toolkits.web.apps import APPS
from deskact.toolkits.web.db import SiteDB


@pytest.fixture
def site_db(tmp_path: Path) -> Iterator[callable]:
    made: list[SiteDB] = []

    def make(name: str) -> SiteDB:
        db = SiteDB(APPS[name], tmp_path / f"{name}.db")
        db.reset()
        made.append(db)
        return db

    yield make
    for db in made:
        db.close()


@pytest.fixture
def client(site_db):
    def make(name: str):
        db = site_db(name)
        app = APPS[name].create(db.path)
        app.testing = True
        return app.test_client(), db

    return make
