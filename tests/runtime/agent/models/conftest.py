"""Fixtures for the model adapter tests. Puts this folder on sys.path for fake_servers/provider_support."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from fake_servers import FakeServer
from provider_support import SERVERS


@pytest.fixture(params=sorted(SERVERS))
def provider(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def serve(provider: str) -> Iterator[Callable[..., FakeServer]]:
    """serve(replies) -> a started fake server for the current provider (stopped after the test)."""
    with ExitStack() as running:

        def start(replies: list[Any] | None = None) -> FakeServer:
            return running.enter_context(SERVERS[provider](replies=replies))

        yield start
