"""Code that runs *inside* the kernel before the toolkits' preload.

Loaded by the kernel as an IPython extension at startup
(``--IPKernelApp.extensions=deskact.runtime.world.kernel.boot``), then ``install``
runs as the first cell; never imported by the host except for constants.
Keep it dependency-free: it runs under the sandbox's limits.

- Output is capped at the source (``OutputLimit``) and IPython 9's per-cell
  output history is disabled, so printing 200 MB costs neither kernel memory
  nor a flood on the wire.
- ``exit()`` / ``quit()`` end the episode instead of the kernel: they raise
  ``DeskactExit``, which a custom IPython handler swallows; the host sees the
  exception name in the execute_reply and reports ``exited=True``.
  ``infeasible("why")`` ends it the same way, declaring that the task cannot be
  done (``DeskactInfeasible``, its reason in the reply's evalue).
- Local services (the Google emulator) listen on host Unix sockets. In a
  network namespace the host's loopback is unreachable, so a tiny forwarder
  listens on the kernel's own 127.0.0.1 and relays each connection to the
  socket (bound into the sandbox); the service URL goes into ``os.environ``.
- Output holding lone surrogates (``print("\\ud800")``) reaches the host with
  U+FFFD in their place (``_replace_surrogates``): Jupyter's packer cannot encode
  them and would drop the whole message.
"""

from __future__ import annotations

import os
import socket
import threading
from typing import Any

from ..socket_relay import serve

EXIT_NAME = "DeskactExit"
INFEASIBLE_NAME = "DeskactInfeasible"
CAPTURE_VAR = "DESKACT_CAPTURE_LIMIT"


class DeskactExit(BaseException):
    """Raised by exit()/quit() in agent code: the episode is finished."""

    def _render_traceback_(self) -> list[str]:
        # IPython 9 formats a traceback of every failed cell for its history, with
        # stack_data and pygments (~60 ms the first time). An exit has nothing to show.
        return []


class DeskactInfeasible(DeskactExit):
    """Raised by infeasible("why"): the agent declares that the task cannot be done."""


def infeasible(reason: str = "") -> None:
    """Declare that the task cannot be done as asked, saying why; ends the episode like exit()."""
    raise DeskactInfeasible(str(reason))


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


def forward(name: str, path: str) -> int:
    """Relay 127.0.0.1:PORT to the Unix socket ``path``; sets ``os.environ[name]`` to the URL."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    port = listener.getsockname()[1]
    threading.Thread(target=serve, args=(listener, path), daemon=True, name=f"deskact-fwd-{name}").start()
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

    It is installed by swapping the stream's class for a subclass, at kernel
    startup (outside any cell): IPython wraps ``stream.write`` around every
    cell and restores it afterwards, which would undo an instance patch.
    """

    # The stream written last. ipykernel buffers stdout and stderr apart and flushes
    # each on its own timer, so `print(a); print(b, file=sys.stderr)` could reach the
    # host as b, a; flushing the previous stream when the writer switches keeps the order.
    _last: Any = None

    def __init__(self, stream: Any, limit: int) -> None:
        base = type(stream)
        self._stream = stream
        self._write = lambda text: base.write(stream, text)
        self.half = max(limit // 2, 1)
        self._lock = threading.Lock()
        self.reset()
        limiter = self

        def write(self: Any, text: str) -> int:
            return limiter.write(text)

        stream.__class__ = type(f"Limited{base.__name__}", (base,), {"write": write})

    def reset(self, *_: object) -> None:
        self.sent = 0
        self.tail: list[str] = []
        self.tail_len = 0
        self.dropped = 0

    def write(self, text: str) -> int:
        n = len(text)
        last = OutputLimit._last
        if last is not None and last is not self._stream:
            last.flush()
        OutputLimit._last = self._stream
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


class _NoOutputHistory(dict):
    """IPython 9 keeps every cell's output in ``history_manager.outputs`` forever;
    an agent printing a lot would grow the kernel without bound. Lookups give a
    throwaway list, nothing is stored."""

    def __missing__(self, key: object) -> list[Any]:
        return []

    def __setitem__(self, key: object, value: object) -> None:
        pass


NO_INPUT = (
    "input() is not available: this code runs unattended and nobody can type an answer. "
    "Put the value in the code instead."
)


def _replace_surrogates(shell: Any) -> None:
    """Wrap the kernel session's packer: a message it cannot encode as UTF-8 (a lone
    surrogate in a stream, a traceback, a repr) is packed again with U+FFFD in their place."""
    import re

    session = getattr(getattr(shell, "kernel", None), "session", None)
    if session is None:
        return
    pack = session.pack
    surrogate = re.compile("[\ud800-\udfff]")

    def scrub(value: Any) -> Any:
        if isinstance(value, str):
            return surrogate.sub("\ufffd", value)
        if isinstance(value, (list, tuple)):
            return [scrub(v) for v in value]
        if isinstance(value, dict):
            return {scrub(k): scrub(v) for k, v in value.items()}
        return value

    def safe_pack(obj: Any) -> bytes:
        try:
            return bytes(pack(obj))
        except UnicodeEncodeError:
            return bytes(pack(scrub(obj)))

    session.pack = safe_pack


def _refuse_input(shell: Any) -> None:
    """ipykernel (allow_stdin off) already refuses input(); say why in words a model acts on."""
    kernel = getattr(shell, "kernel", None)
    if kernel is None:
        return
    from IPython.core.error import StdinNotImplementedError

    def refuse(*_: object, **__: object) -> str:
        raise StdinNotImplementedError(NO_INPUT)

    # ipykernel installs kernel.raw_input / kernel.getpass as builtins.input / getpass per cell.
    kernel.raw_input = refuse
    kernel.getpass = refuse


def load_ipython_extension(shell: Any) -> None:
    """Loaded at kernel startup (``--IPKernelApp.extensions``), before any cell runs."""
    import gc
    import sys

    # launcher turned collection off for the imports: what they made lives
    # as long as the kernel, so it goes to the permanent generation, unscanned.
    gc.freeze()
    gc.enable()

    limit = int(os.environ.get(CAPTURE_VAR, "4000000"))
    # ipykernel echoes fd-level output (subprocesses) to its original stdout and
    # stderr too; stderr is the host's kernel log, which must not grow with
    # whatever the agent runs. Startup errors, written before this, stay in it.
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        fd = getattr(stream, "_original_stdstream_copy", None)
        if isinstance(fd, int):
            os.dup2(devnull, fd)
    os.close(devnull)
    for stream in (sys.stdout, sys.stderr):
        limiter = OutputLimit(stream, limit)
        shell.events.register("pre_run_cell", limiter.reset)
        shell.events.register("post_run_cell", limiter.finish)
    if hasattr(shell, "history_manager") and hasattr(shell.history_manager, "outputs"):
        shell.history_manager.outputs = _NoOutputHistory()
    shell.events.register("post_run_cell", _forked_child_guard(os.getpid()))
    exit_ = _make_exit()
    for name, value in (("exit", exit_), ("quit", exit_), ("infeasible", infeasible)):
        shell.user_ns[name] = value
        shell.user_ns_hidden[name] = value
    shell.set_custom_exc((DeskactExit,), _on_exit)
    shell.show_rewritten_input = False  # a bare `exit` would echo "------> exit()"
    _refuse_input(shell)
    _replace_surrogates(shell)
    from . import shell as kernel_shell

    kernel_shell.install(shell)
    shell._deskact_booted = True


def install(sockets: dict[str, str]) -> None:
    """Run as the first cell after startup: checks the extension, starts socket forwarders."""
    from IPython import get_ipython

    if not getattr(get_ipython(), "_deskact_booted", False):
        raise RuntimeError("the deskact kernel extension did not load (see the kernel log)")
    for name, path in sockets.items():
        forward(name, path)
