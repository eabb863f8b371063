"""Fixtures for the Google emulator tests: one server per test session, reset per test.

``emu`` gives ``emu.url``, ``emu.emulator`` and ``emu.build(api, version)`` (a
googleapiclient service pointed at the emulator); the state is empty at the
start of every test.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from deskact.runtime.config import Config
from deskact.runtime.world.kernel import KernelSession
from deskact.toolkits.base import ServiceContext, ServiceHandle
from deskact.toolkits.google import toolkit
from deskact.toolkits.google.client import build_service
from deskact.toolkits.google.emulator import Emulator, RunningServer, start_server
from deskact.toolkits.google.service import google_service

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


def _bwrap_works() -> bool:
    if shutil.which("bwrap") is None:
        return False
    from deskact.runtime.world import sandbox

    try:
        return sandbox.resolve_mode(Config().sandbox, "bwrap") == "bwrap"
    except Exception:  # noqa: BLE001 - any failure means: no sandbox here
        return False


@pytest.fixture(scope="module")
def handle(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceHandle]:
    """The worker's Google service (emulator with its data and admin endpoints), one per test module."""
    ctx = ServiceContext(worker_id=0, state_dir=tmp_path_factory.mktemp("google"), config=Config())
    with google_service(ctx) as h:
        yield h


@pytest.fixture(scope="module")
def kernel(handle: ServiceHandle) -> Iterator[KernelSession]:
    """A sandboxed kernel with the google toolkit preloaded, talking to ``handle``'s data endpoint."""
    if not _bwrap_works():
        pytest.skip("bubblewrap cannot create namespaces here; the sandboxed kernel needs it")
    with KernelSession(Config(), preload=[("google", toolkit.preload_code())], env=handle.env,
                       sockets=handle.sockets, sandbox="bwrap") as session:
        session.start()
        yield session

