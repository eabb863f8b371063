"""A closed emulator server leaves no connection open: a client that keeps its keep-alive connection
(an idle httplib2.Http in a runner thread) no longer keeps a handler thread, and with it the emulator."""

from __future__ import annotations

import gc
import threading
import time
import weakref

from deskact.toolkits.google.client import build_service
from deskact.toolkits.google.emulator import Emulator, start_server


def handler_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if "process_request_thread" in t.name]


def test_close_ends_the_connections_a_client_keeps_open() -> None:
    before = set(handler_threads())
    emulator = Emulator()
    running = start_server(emulator, port=0)
    gmail = build_service("gmail", "v1", running.url)  # held open below, as a runner thread's would be
    assert gmail.users().getProfile(userId="me").execute()["emailAddress"]
    serving = [t for t in handler_threads() if t not in before]
    assert serving  # the keep-alive connection's handler waits for its next request
    running.close()
    emulator.close()
    for t in serving:
        t.join(timeout=30)  # a wait, not a timing claim: it ends as soon as its connection does
    assert not any(t.is_alive() for t in serving)
    gone = weakref.ref(emulator)
    del emulator, running
    gc.collect()
    time.sleep(0)  # let the ended threads' frames go
    gc.collect()
    assert gone() is None
    assert gmail  # the client lived through it all
