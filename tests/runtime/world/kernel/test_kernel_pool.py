"""KernelPool: sessions ready in advance, each with its own workspace, never reused."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from deskact.runtime.config import Config
from deskact.runtime.errors import KernelError
from deskact.runtime.world.kernel.pool import KernelPool


@pytest.fixture
def pool(tmp_path: Path) -> Iterator[KernelPool]:
    with KernelPool(Config(), preload=[("demo", "X = 41")], workspace_root=tmp_path / "ws") as p:
        yield p


def test_acquired_session_is_started_preloaded_and_in_its_workspace(pool: KernelPool) -> None:
    s = pool.acquire()
    try:
        assert s.alive
        assert s.workspace.parent == pool.workspace_root and list(s.workspace.iterdir()) == []
        r = s.execute("import os\nprint(os.getcwd())\nX + 1", timeout=10)
        assert (r.status, r.stdout, r.result) == ("ok", f"{s.workspace}\n", "42")
    finally:
        s.shutdown()


def test_sessions_are_never_shared_or_reused(pool: KernelPool) -> None:
    a = pool.acquire()
    b = pool.acquire()
    try:
        assert a.pid != b.pid and a.workspace != b.workspace
        a.execute("secret = 'a'", timeout=10)
        assert b.execute("'secret' in dir()", timeout=10).result == "False"
        a_pid = a.pid
        a.shutdown()
        c = pool.acquire()
        try:
            assert c.pid not in (a_pid, b.pid)
        finally:
            c.shutdown()
    finally:
        b.shutdown()


def test_files_the_host_put_in_the_workspace_are_writable(pool: KernelPool) -> None:
    s = pool.acquire()
    try:
        (s.workspace / "input.txt").write_text("from reset step\n")  # written by the host, as us
        r = s.execute("open('input.txt', 'a').write('edited by agent\\n')", timeout=10)
        assert r.status == "ok", r
        assert (s.workspace / "input.txt").read_text() == "from reset step\nedited by agent\n"
    finally:
        s.shutdown()


def test_dead_ready_kernel_is_not_handed_out(pool: KernelPool) -> None:
    s = pool.acquire()
    s.shutdown()
    deadline = time.monotonic() + 30
    while not pool._ready and time.monotonic() < deadline:  # the filler's replacement
        time.sleep(0.05)
    ready = pool._ready[0]
    os.killpg(ready.pid, signal.SIGKILL)  # type: ignore[arg-type]
    ready._kernel.proc.wait()  # type: ignore[union-attr]
    s2 = pool.acquire()
    try:
        assert s2 is not ready and s2.alive
        assert s2.execute("X", timeout=10).result == "41"
    finally:
        s2.shutdown()


def test_close_shuts_down_unused_kernels_and_their_workspaces(tmp_path: Path) -> None:
    pool = KernelPool(Config(), workspace_root=tmp_path / "ws", size=2)
    s = pool.acquire()
    deadline = time.monotonic() + 30
    while len(pool._ready) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    ready = list(pool._ready)
    assert len(ready) == 2
    pool.close()
    assert all(not r.alive and not r.workspace.exists() for r in ready)
    assert s.alive and s.workspace.exists()  # handed out: the caller's to close
    s.shutdown()
    with pytest.raises(KernelError, match="closed"):
        pool.acquire()


def test_preload_failure_reaches_acquire(tmp_path: Path) -> None:
    # An import failure is told with the kernel's sys.path (kernel/import_error.py).
    with (KernelPool(Config(), preload=[("brokenkit", "import no_such_module_xyz")], workspace_root=tmp_path) as pool,
          pytest.raises(KernelError, match=r"cannot import toolkit 'brokenkit''s module: ModuleNotFoundError")):
        pool.acquire()
    assert list(tmp_path.iterdir()) == []
