"""Fixtures for the Google emulator tests: one server per test session, reset per test.

``emu`` gives ``emu.url``, ``emu.emulator`` and ``emu.build(api, version)`` (a
googleapiclient service pointed at the emulator); the state is empty at the
start of every test.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from deskact.toolkits.google.client import build_service
from deskact.toolkits.google.emulator import Emulator, RunningServer, start_server

USER = "me@deskact.test"


@dataclass
class EmulatorFixture:
    server: RunningServer

    @property
    def url(self) -> str:
        assert self.server.url
        return self.server.url

    @property
    def emulator(self) -> Emulator:
        return self.server.emulator

    def build(self, api: str, version: str) -> Any:
        return build_service(api, version, self.url)


@pytest.fixture(scope="session")
def _emulator_server() -> Iterator[RunningServer]:
    server = start_server(Emulator(user=USER), port=0)
    yield server
    server.close()
    server.emulator.close()


@pytest.fixture
def emu(_emulator_server: RunningServer) -> EmulatorFixture:
    _emulator_server.emulator.reset()
    return EmulatorFixture(_emulator_server)
