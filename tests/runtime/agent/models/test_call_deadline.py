"""A server that answers one byte at a time cannot hold a task past its max_time: each adapter's
call has a whole-call deadline (the SDKs' own timeouts bound each read, which a trickle never trips).
The real SDKs talk to a local server that sends its headers, then a byte of body every half second."""

from __future__ import annotations

import socket
import threading
from pathlib import Path
from typing import Any

import pytest
from deskact.runtime.agent.agent import Episode
from deskact.runtime.config import Config
from deskact.runtime.execution import ExecResult
from deskact.runtime.tasks.task import parse_task
from provider_support import SERVERS, model_for

TRICKLE_GAP_S = 0.5
MAX_TIME_S = 3.0


class TrickleServer:
    """Accepts HTTP requests on 127.0.0.1 and answers each with a body it never finishes sending."""

    def __init__(self, url_suffix: str) -> None:
        self.url_suffix = url_suffix
        self.bytes_sent = 0
        self.cut_off = threading.Event()
        """Set when a client closed a connection in the middle of the trickle."""
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._stop = threading.Event()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._listener.getsockname()[1]}{self.url_suffix}"

    def __enter__(self) -> TrickleServer:
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._listener.close()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._trickle, args=(conn,), daemon=True).start()

    def _trickle(self, conn: socket.socket) -> None:
        with conn:
            received = b""
            while b"\r\n\r\n" not in received:
                chunk = conn.recv(65536)
                if not chunk:
                    return
                received += chunk
            conn.sendall(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n")
            while not self._stop.wait(TRICKLE_GAP_S):
                try:
                    conn.sendall(b" ")
                except OSError:
                    self.cut_off.set()
                    return
                self.bytes_sent += 1


class NoKernel:
    """The reply never comes, so no code ever runs."""

    def execute(self, code: str, timeout: float | None = None) -> ExecResult:
        raise AssertionError("no code should run")


def task() -> Any:
    raw = {"id": "trickle", "instruction": "answer", "max_time": MAX_TIME_S,
           "judge": [{"answer.contains": {"text": "x"}}]}
    return parse_task(raw, Path("/tmp/suite"), Path("t.yaml"))


@pytest.mark.slow  # each waits out a 3 s max_time
@pytest.mark.timeout(120)
@pytest.mark.parametrize("provider", ["openai", "anthropic", "google"])
def test_a_trickling_server_ends_the_task_at_its_max_time(provider: str) -> None:
    suffix = SERVERS[provider].url_suffix
    with TrickleServer(suffix) as server:
        model = model_for(provider, server, timeout=600.0)  # type: ignore[arg-type] - url is all it reads
        record = Episode(task(), model, NoKernel(), Config(), system_prompt="be brief").run()
        # The closed client cut the connection: the server stops trickling.
        assert server.cut_off.wait(30), "the abandoned call's connection stayed open"
    assert record.finish_reason == "model_error", record
    assert "no answer within" in (record.error or ""), record.error
    assert record.steps and record.steps[0].code is None
    assert server.bytes_sent > 0  # bytes kept coming: no per-read timeout would have fired

