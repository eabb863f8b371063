"""The host reads a world's accessibility bus only from a process of that world (SO_PEERCRED),
so a bus socket swapped for a symlink to a host socket is never spoken to."""

import os
import socket
import threading
from pathlib import Path

import pytest
from deskact.runtime.agent import a11y


def _serve(path: Path) -> tuple[socket.socket, list[bytes]]:
    """A Unix socket server run by this (host) process that records what a client sends."""
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.listen(1)
    received: list[bytes] = []

    def accept() -> None:
        conn, _ = server.accept()
        conn.settimeout(5)
        try:
            received.append(conn.recv(64))
        except OSError:
            pass
        conn.close()

    threading.Thread(target=accept, daemon=True).start()
    return server, received


def test_a_socket_served_outside_the_world_is_refused_before_anything_is_sent(tmp_path: Path) -> None:
    host_socket = tmp_path / "host.sock"
    server, received = _serve(host_socket)
    (tmp_path / "bus").symlink_to(host_socket)  # what a world's root could plant at the bus path
    world = range(os.getuid() + 100_000, os.getuid() + 165_536)
    refused = pytest.raises(PermissionError, match=r"served by host uid \d+, not by a process of the task's world")
    with refused, a11y.connect(tmp_path / "bus", peer_uids=world):
        pass
    server.close()
    assert received in ([], [b""])  # connected, then closed: not one byte of the D-Bus handshake


def test_the_peer_check_lets_the_worlds_own_uid_through(tmp_path: Path) -> None:
    server, received = _serve(tmp_path / "bus")
    own = range(os.getuid(), os.getuid() + 1)
    # no D-Bus server answers, but the handshake was sent: any failure but PermissionError
    with pytest.raises(Exception) as failure, a11y.connect(tmp_path / "bus", timeout=2, peer_uids=own):  # noqa: PT011
        pass
    assert not isinstance(failure.value, PermissionError)
    server.close()
    assert received and received[0].startswith(b"\0AUTH")
