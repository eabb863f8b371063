"""Host-side services (``build_service(..., shared=True)``, what GoogleClients builds for reset steps and
judges): each thread gets its own connection, and methods carry no pretty-printed schemas."""

from __future__ import annotations

import threading
import tracemalloc
from collections.abc import Iterator
from typing import Any

import pytest
from deskact.toolkits.google.client import PerThreadHttp, build_service
from deskact.toolkits.google.emulator import Emulator, RunningServer, start_server


@pytest.fixture
def server() -> Iterator[RunningServer]:
    running = start_server(Emulator(), port=0)
    yield running
    running.close()
    running.emulator.close()


def in_threads(count: int, work: Any) -> list[Any]:
    out: list[Any] = [None] * count
    raised: list[BaseException] = []

    def run(i: int) -> None:
        try:
            out[i] = work(i)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            raised.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not raised, raised
    return out


def test_each_thread_gets_its_own_connection(server: RunningServer) -> None:
    gmail = build_service("gmail", "v1", server.url, shared=True)
    http = gmail._http
    assert isinstance(http, PerThreadHttp)
    connections = in_threads(4, lambda i: http._http())
    assert len({id(c) for c in connections}) == 4


def test_threads_at_once_each_read_their_own_replies(server: RunningServer) -> None:
    """One httplib2.Http shared by threads mixes their replies up (a judge read a reset step's)."""
    gmail = build_service("gmail", "v1", server.url, shared=True)

    def labels(i: int) -> list[str]:
        return [gmail.users().labels().create(userId="me", body={"name": f"t{i}-{n}"}).execute()["name"]
                for n in range(10)]

    assert in_threads(8, labels) == [[f"t{i}-{n}" for n in range(10)] for i in range(8)]


def test_shared_services_build_no_schema_docstrings(server: RunningServer) -> None:
    tracemalloc.start()
    try:
        shared = build_service("sheets", "v4", server.url, shared=True)
        create = shared.spreadsheets().create
        built_shared = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        documented = build_service("sheets", "v4", server.url).spreadsheets().create
        built_documented = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    assert "(the Spreadsheet schema)" in (create.__doc__ or "")
    assert len(documented.__doc__ or "") > 100 * len(create.__doc__ or "")  # the kernel's keep their docs
    assert built_shared * 10 < built_documented  # MB of pretty-printed schemas, built and dropped per worker
    sid = create(body={"properties": {"title": "t"}}, fields="spreadsheetId").execute()["spreadsheetId"]
    assert shared.spreadsheets().get(spreadsheetId=sid).execute()["properties"]["title"] == "t"
