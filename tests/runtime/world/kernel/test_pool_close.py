"""KernelPool.close() never waits on a kernel start that already failed (issue 26: a toolkit whose
kernel module fails to import made a run hang for kernel.startup_timeout at its end).

The timeouts here are long on purpose: with the bug, close() waits the whole startup_timeout (900 s),
so a test that finishes within its pytest timeout proves the wait is gone without timing anything."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest
from deskact.runtime.config import Config
from deskact.runtime.errors import KernelError
from deskact.runtime.run.runner import Run, RunOptions
from deskact.runtime.world.kernel.pool import KernelPool
from deskact.runtime.world.kernel.session import KernelSession

LONG_STARTUP = 900.0


class FailingPool(KernelPool):
    """Every start fails, each only once ``release`` is set (so close() can come mid-start)."""

    def __init__(self, config: Config, release: threading.Event, starting: threading.Event) -> None:
        self.release, self.starting = release, starting
        super().__init__(config, size=1)

    def _new_session(self) -> KernelSession:
        self.starting.set()
        self.release.wait()
        raise KernelError("the kernel cannot import toolkit 'broken'")


@pytest.mark.timeout(120)
def test_close_during_a_failing_start_returns() -> None:
    cfg = Config()
    cfg.kernel.startup_timeout = LONG_STARTUP
    release, starting = threading.Event(), threading.Event()
    pool = FailingPool(cfg, release, starting)
    assert starting.wait(30)
    closer = threading.Thread(target=pool.close)
    closer.start()
    while not pool._closed:  # close() has told the filler before the start fails
        closer.join(0.01)
    release.set()
    closer.join()
    assert not pool._filler.is_alive()


@pytest.mark.timeout(120)
def test_close_after_acquire_reported_the_failure_returns() -> None:
    cfg = Config()
    cfg.kernel.startup_timeout = LONG_STARTUP
    release, starting = threading.Event(), threading.Event()
    release.set()
    pool = FailingPool(cfg, release, starting)
    with pytest.raises(KernelError, match="cannot import toolkit 'broken'"):
        pool.acquire(timeout=60)
    pool.close()  # the filler is retrying (or failed again and waits): neither holds close()
    assert not pool._filler.is_alive()
    with pytest.raises(KernelError, match="closed"):
        pool.acquire(timeout=1)


TOOLKIT = '''
from deskact.toolkits.base import Toolkit
import hostonly_lib_for_pool_test  # noqa: F401 - on the host's sys.path only, never the kernel's

toolkit = Toolkit(name="poolbroken", module="poolbroken_tk", exports=[])
'''

SUITE = """
id: poolbroken-task
instruction: Do nothing.
toolkits: ["poolbroken_tk:toolkit"]
judge:
  - answer.contains: {text: anything}
reference: print(1)
"""


@pytest.mark.timeout(240)
def test_a_run_with_a_toolkit_the_kernel_cannot_import_ends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    toolkit_dir, helper_dir = tmp_path / "tk", tmp_path / "helper"
    for d in (toolkit_dir, helper_dir, tmp_path / "suite"):
        d.mkdir()
    (toolkit_dir / "poolbroken_tk.py").write_text(TOOLKIT)
    (helper_dir / "hostonly_lib_for_pool_test.py").write_text("")
    monkeypatch.syspath_prepend(str(helper_dir))
    monkeypatch.syspath_prepend(str(toolkit_dir))
    (tmp_path / "suite" / "task.yaml").write_text(SUITE)
    cfg = Config()
    cfg.display.mode = "none"
    cfg.toolkits.enabled = []
    cfg.kernel.startup_timeout = LONG_STARTUP
    try:
        results = Run(cfg, RunOptions(paths=[str(tmp_path / "suite")], model="reference",
                                      out=tmp_path / "out")).execute()
    finally:
        sys.modules.pop("poolbroken_tk", None)
        sys.modules.pop("hostonly_lib_for_pool_test", None)
    (result,) = results
    assert result.status == "error" and "cannot import toolkit 'poolbroken'" in (result.error or "")
