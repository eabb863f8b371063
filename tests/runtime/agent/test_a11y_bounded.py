"""The host's accessibility-bus reader reads a bounded amount: a world's bus (or whatever a world's
root serves in its place) announcing a 1 GB message does not take the runner's memory."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# A bus that accepts the reader, then answers its first call with a header announcing a 1 GB body
# and streams it; the reader runs in the same fresh process, whose peak memory is printed.
_GIGABYTE_BUS = """
import socket, sys, threading
from jeepney import new_method_return, new_method_call, DBusAddress
from deskact.runtime.agent import a11y

path = sys.argv[1]
server = socket.socket(socket.AF_UNIX)
server.bind(path)
server.listen(1)

def serve():
    conn, _ = server.accept()
    conn.recv(4096)  # AUTH
    conn.sendall(b"OK 0123456789abcdef0123456789abcdef\\r\\n")
    conn.recv(4096)  # BEGIN and the call
    call = new_method_call(DBusAddress("/x", "org.x", "org.x"), "X")
    call.header.serial = 7
    header = bytearray(new_method_return(call, "ay", (b"",)).serialise(serial=1))
    body_at = len(header) - 4  # the body: one empty byte array (its length, a uint32)
    header[4:8] = (1 << 30).to_bytes(4, "little")
    chunk = bytes(1 << 20)
    try:
        conn.sendall(bytes(header[:body_at]))
        for _ in range(1024):
            conn.sendall(chunk)
    except OSError:
        pass  # the reader stopped reading: what this test wants

threading.Thread(target=serve, daemon=True).start()
try:
    with a11y.connect(path, timeout=30) as conn:
        a11y.has_owner(conn, "org.a11y.Bus")
    outcome = "read"
except (ConnectionError, TimeoutError, OSError) as exc:
    outcome = type(exc).__name__
# VmHWM is this process's own peak; ru_maxrss would include the forking test runner's (Linux keeps
# the larger across exec).
print(outcome, int(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM:'))) // 1024)
"""


def test_a_gigabyte_message_is_refused_without_reading_it(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", _GIGABYTE_BUS, str(tmp_path / "bus")], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    outcome, peak_mb = done.stdout.split()
    assert outcome == "ConnectionError", done.stdout
    assert int(peak_mb) < 256, f"reading the bus took {peak_mb} MB"
