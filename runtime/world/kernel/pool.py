"""A warm pool of started, preloaded kernels, each with its own fresh workspace.

A kernel takes 50-200 ms to start and preload (forked or exec'd, more with
toolkits such as the GUI's); a task should not wait for that. The pool keeps
``size`` sessions ready (a background thread refills it) and ``acquire()``
hands one out in milliseconds. A session handed out is never taken back:
tasks never share a kernel, its variables or its files.

Each pooled session comes with a new empty workspace directory made under
``workspace_root`` (the kernel's cwd and HOME are fixed when it starts, so
the pool makes the directory first). The caller owns the workspace after
``acquire()``; the pool deletes only the workspaces of sessions it never gave out.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
from collections import deque
from collections.abc import Iterable
from pathlib import Path

from ...config import Config
from ...errors import KernelError
from .session import KernelSession


class KernelPool:
    def __init__(
        self,
        config: Config,
        *,
        preload: Iterable[tuple[str, str]] = (),
        fork_imports: Iterable[str] = (),
        env: dict[str, str] | None = None,
        sockets: dict[str, Path] | None = None,
        display: str | None = None,
        workspace_root: Path | None = None,
        size: int | None = None,
        sandbox: str | None = None,
    ) -> None:
        self.config = config
        self.preload = list(preload)
        self.fork_imports = list(fork_imports)
        self.env = dict(env or {})
        self.sockets = dict(sockets or {})
        self.display = display
        self.sandbox = sandbox
        self.workspace_root = Path(workspace_root) if workspace_root else Path(tempfile.gettempdir())
        self.size = max(1, config.kernel.pool_size if size is None else size)
        self._ready: deque[KernelSession] = deque()
        self._cond = threading.Condition()
        self._closed = False
        self._error: BaseException | None = None
        self._filler = threading.Thread(target=self._fill, name="deskact-kernel-pool", daemon=True)
        self._filler.start()

    def _new_session(self) -> KernelSession:
        self.workspace_root.mkdir(parents=True, exist_ok=True)
        workspace = Path(tempfile.mkdtemp(prefix="task-", dir=self.workspace_root))
        session = KernelSession(
            self.config, workspace=workspace, preload=self.preload, fork_imports=self.fork_imports, env=self.env,
            sockets=self.sockets, display=self.display, sandbox=self.sandbox,
        )
        try:
            return session.start()
        except BaseException:
            session.shutdown()
            shutil.rmtree(workspace, ignore_errors=True)
            raise

    def _fill(self) -> None:
        while True:
            with self._cond:
                while not self._closed and len(self._ready) >= self.size:
                    self._cond.wait()
                if self._closed:
                    return
            try:
                session = self._new_session()
            except BaseException as exc:  # noqa: BLE001 - reported by acquire()
                with self._cond:
                    self._error = exc
                    self._cond.notify_all()
                    # A broken preload would fail again at once: wait for acquire() to take the error.
                    # close() may have come while this start was failing (its wake-up is gone): checked
                    # here, or the filler waits for ever and close() waits out its join timeout.
                    while self._error is exc and not self._closed:
                        self._cond.wait()
                continue
            with self._cond:
                if self._closed:
                    _discard(session)
                    return
                self._ready.append(session)
                self._cond.notify_all()

    def acquire(self, timeout: float | None = None) -> KernelSession:
        """A started, preloaded session with a fresh workspace (``session.workspace``). Yours to shut down."""
        wait = timeout if timeout is not None else self.config.kernel.startup_timeout * 2
        with self._cond:
            while True:
                if self._closed:
                    raise KernelError("the kernel pool is closed")
                while self._ready:
                    session = self._ready.popleft()
                    self._cond.notify_all()  # the filler starts a replacement
                    if session.alive:
                        return session
                    _discard(session)
                if self._error is not None:
                    error, self._error = self._error, None
                    self._cond.notify_all()  # let the filler try again next time
                    if isinstance(error, KernelError):
                        raise error
                    raise KernelError(f"could not start a kernel for the pool: {error}") from error
                if not self._cond.wait(timeout=wait):
                    raise KernelError(f"no kernel became ready within {wait:.0f} s")

    def close(self) -> None:
        """Shut down the sessions never handed out (and delete their workspaces)."""
        with self._cond:
            self._closed = True
            ready = list(self._ready)
            self._ready.clear()
            self._cond.notify_all()
        for session in ready:
            _discard(session)
        self._filler.join(timeout=self.config.kernel.startup_timeout)

    def __enter__(self) -> KernelPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _discard(session: KernelSession) -> None:
    if session.world is not None:
        session.world.keep = False  # no task ran in it: nothing to debug (--keep-worlds)
    session.shutdown()
    shutil.rmtree(session.workspace, ignore_errors=True)
