"""The host's tree reader waits for an app that answers slowly but steadily (a loaded box), and a
judge's read says so when an app leaves questions unanswered instead of judging a tree with
branches missing. A real dbus-daemon carries the calls to a service answering one call every
DELAY_S seconds."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from deskact.runtime.agent import a11y
from deskact.runtime.world.a11y_bus import _CONFIG, BUS_ADDRESS

DELAY_S = 0.25
SERVICE = "org.deskact.Slow"

# Answers each call DELAY_S after the previous answer with the call's serial as a string; "Hang" is
# never answered.
_SLOW_SERVICE = f"""
import sys, time
from jeepney import new_method_return, MessageType
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import open_dbus_connection

conn = open_dbus_connection(bus="unix:path=" + sys.argv[1])
conn.send_and_get_reply(message_bus.RequestName("{SERVICE}"))
print("ready", flush=True)
while True:
    msg = conn.receive()
    if msg.header.message_type != MessageType.method_call or msg.header.fields.get(3) == "Hang":
        continue
    time.sleep({DELAY_S})
    conn.send(new_method_return(msg, "s", (str(msg.header.serial),)))
"""


@pytest.fixture
def slow_bus(tmp_path: Path) -> Iterator[Path]:
    if shutil.which("dbus-daemon") is None:
        pytest.skip("needs dbus-daemon")
    socket = tmp_path / "bus"
    (tmp_path / "bus.conf").write_text(_CONFIG.replace(BUS_ADDRESS, f"unix:path={socket}"))  # a world's bus
    daemon = subprocess.Popen(["dbus-daemon", f"--config-file={tmp_path / 'bus.conf'}", "--nofork"],
                              stderr=subprocess.DEVNULL)
    service = None
    try:
        for _ in range(200):
            if socket.exists():
                break
            time.sleep(0.05)
        service = subprocess.Popen([sys.executable, "-c", _SLOW_SERVICE, str(socket)], stdout=subprocess.PIPE,
                                   text=True)
        assert service.stdout is not None and service.stdout.readline().strip() == "ready"
        yield socket
    finally:
        for proc in (service, daemon):
            if proc is not None:
                proc.kill()
                proc.wait()


def _calls(n: int, method: str = "Get") -> list[tuple[str, str, str, str, str | None, tuple[object, ...]]]:
    return [(SERVICE, "/", "org.deskact.Slow", method, None, ())] * n


def test_a_slow_but_steady_app_is_waited_for_past_the_timeout(slow_bus: Path) -> None:
    """Eight answers take 2 s; the timeout (1 s) is the silence waited through, not the whole wait."""
    with a11y.connect(slow_bus) as conn:
        replies = a11y._batch(conn, _calls(8), timeout=1.0, complete=True)
    assert all(r is not None for r in replies), replies


def test_an_app_that_stops_answering_is_reported_to_a_judge_and_left_out_otherwise(slow_bus: Path) -> None:
    with a11y.connect(slow_bus) as conn:
        replies = a11y._batch(conn, _calls(2) + _calls(1, "Hang"), timeout=1.0)
        assert replies[0] is not None and replies[1] is not None and replies[2] is None
        with pytest.raises(a11y.Unanswered, match="1 of 3 accessibility questions had no answer"):
            a11y._batch(conn, _calls(2) + _calls(1, "Hang"), timeout=1.0, complete=True)
