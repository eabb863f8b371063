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


def _forked_child_guard(kernel_pid: int) -> Any:
    """A forked copy of the kernel (os.fork in agent code) must not go back to
    serving the kernel's sockets when its cell ends: it would corrupt the
    protocol and, in a fork bomb, hold the process slots forever."""

    def post_run_cell(*_: object) -> None:
        if os.getpid() != kernel_pid:
            os._exit(1)

    return post_run_cell


class OutputLimit:
    """Caps what one cell sends on a stream, at the source.

    Without it, ``print`` of 200 MB makes ipykernel JSON-encode hundreds of MB
    in one message (MemoryError under the address-space limit) and floods the
    host. The first ``limit // 2`` characters pass; after that only the latest
    ``limit // 2`` are kept, and sent with a marker when the cell ends.
    """

    def __init__(self, stream: Any, limit: int) -> None:
        self._write = stream.write
        self.half = max(limit // 2, 1)
        self._lock = threading.Lock()
        self.reset()
        stream.write = self.write  # instance attribute: ipykernel's fd-watcher thread calls self.write too

    def reset(self, *_: object) -> None:
        self.sent = 0
        self.tail: list[str] = []
        self.tail_len = 0
        self.dropped = 0

    def write(self, text: str) -> int:
        n = len(text)
        with self._lock:
            if self.sent < self.half:
                head = text[: self.half - self.sent]
                self.sent += len(head)
                self._write(head)
                text = text[len(head):]
            if text:
                self.tail.append(text)
                self.tail_len += len(text)
                if self.tail_len > 2 * self.half:  # compact now and then, not on every write
                    joined = "".join(self.tail)
                    self.dropped += len(joined) - self.half
                    self.tail, self.tail_len = [joined[-self.half:]], self.half
        return n

    def finish(self, *_: object) -> None:
        with self._lock:
            if self.tail:
                joined = "".join(self.tail)
                dropped = self.dropped + max(len(joined) - self.half, 0)
                if dropped:
                    self._write(f"\n[... {dropped} characters dropped at capture ...]\n")
                self._write(joined[-self.half:])
            self.reset()


def install(sockets: dict[str, str], capture_limit: int = 4_000_000) -> None:
    """Called once per kernel start, before any toolkit code."""
    import sys

    from IPython import get_ipython

    shell = get_ipython()
    for stream in (sys.stdout, sys.stderr):
        limit = OutputLimit(stream, capture_limit)
        shell.events.register("pre_run_cell", limit.reset)
        shell.events.register("post_run_cell", limit.finish)
    shell.events.register("post_run_cell", _forked_child_guard(os.getpid()))
    exit_ = _make_exit()
    for name in ("exit", "quit"):
        shell.user_ns[name] = exit_
        shell.user_ns_hidden[name] = exit_
    shell.set_custom_exc((DeskactExit,), _on_exit)
    shell.show_rewritten_input = False  # a bare `exit` would echo "------> exit()"
    for name, path in sockets.items():
        forward(name, path)
