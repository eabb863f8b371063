"""Code that runs *inside* the kernel before the toolkits' preload.

Imported by the kernel (``from deskact.runtime import kernel_boot``), never by
the host. Keep it dependency-free: it runs under the sandbox's limits.

- ``exit()`` / ``quit()`` end the episode instead of the kernel: they raise
  ``DeskactExit``, which a custom IPython handler swallows; the host sees the
  exception name in the execute_reply and reports ``exited=True``.
- Local services (the Google emulator) listen on host Unix sockets. In a
  network namespace the host's loopback is unreachable, so a tiny forwarder
  listens on the kernel's own 127.0.0.1 and relays each connection to the
  socket (bound into the sandbox); the service URL goes into ``os.environ``.
"""

from __future__ import annotations

import os
import socket
import threading
from typing import Any

EXIT_NAME = "DeskactExit"


class DeskactExit(BaseException):
    """Raised by exit()/quit() in agent code: the episode is finished."""


def _make_exit() -> Any:
    from IPython.core.autocall import IPyAutocall

    class Exit(IPyAutocall):
        """Finish the task: stops this code block here and ends the episode."""

        def __repr__(self) -> str:
            return "Use exit() to finish the task."

        def __call__(self, *args: object, **kwargs: object) -> None:
            raise DeskactExit()

    return Exit()


def _on_exit(shell: Any, etype: type, value: BaseException, tb: Any, tb_offset: Any = None) -> None:
    # Nothing to show: the host turns the reply's ename into ExecResult.exited.
    return None


def _pump(src: socket.socket, dst: socket.socket) -> None:
    try:
        while data := src.recv(65536):
            dst.sendall(data)
    except OSError:
        pass
    finally:
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def _serve(listener: socket.socket, path: str) -> None:
    while True:
        try:
            client, _ = listener.accept()
        except OSError:
            return
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            upstream.connect(path)
        except OSError:
            client.close()
            upstream.close()
            continue
        for a, b in ((client, upstream), (upstream, client)):
            threading.Thread(target=_pump, args=(a, b), daemon=True, name="deskact-fwd").start()


def forward(name: str, path: str) -> int:
    """Relay 127.0.0.1:PORT to the Unix socket ``path``; sets ``os.environ[name]`` to the URL."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    port = listener.getsockname()[1]
    threading.Thread(target=_serve, args=(listener, path), daemon=True, name=f"deskact-fwd-{name}").start()
    os.environ[name] = f"http://127.0.0.1:{port}"
    return port


def install(sockets: dict[str, str]) -> None:
    """Called once per kernel start, before any toolkit code."""
    from IPython import get_ipython

    shell = get_ipython()
    exit_ = _make_exit()
    for name in ("exit", "quit"):
        shell.user_ns[name] = exit_
        shell.user_ns_hidden[name] = exit_
    shell.set_custom_exc((DeskactExit,), _on_exit)
    shell.show_rewritten_input = False  # a bare `exit` would echo "------> exit()"
    for name, path in sockets.items():
        forward(name, path)
