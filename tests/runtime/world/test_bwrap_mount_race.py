"""Kernel-only sandboxes start while worlds come and go on the same machine.

bwrap's ``--ro-bind / /`` fails when a mount under / vanishes while it starts
(containers/bubblewrap#650), and each world's teardown removes about fifteen.
The kernel launch and the sandbox probe start bwrap again on that error.
"""

import os
import tempfile
import threading
from pathlib import Path

import pytest
from deskact.runtime.config import Config
from deskact.runtime.world import sandbox
from deskact.runtime.world.kernel import KernelSession
from deskact.runtime.world.world import World, world_status


@pytest.mark.slow  # worlds made and closed for seconds while kernels start
def test_kernel_only_sandboxes_start_while_worlds_churn() -> None:
    ok, why = world_status()
    if not ok or not sandbox.sandbox_status()[0]:
        pytest.skip(f"needs worlds and bwrap: {why}")
    stop = threading.Event()
    errors: list[BaseException] = []

    def churn() -> None:
        try:
            while not stop.is_set():
                with tempfile.TemporaryDirectory() as tmp:
                    ws, private = Path(tmp, "ws"), Path(tmp, "private")
                    ws.mkdir()
                    private.mkdir()
                    world = World(Config(), workspace=ws, private_dir=private)
                    os.chown(private, world.uid, world.uid)
                    world.start()
                    world.close()
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=churn, daemon=True) for _ in range(2)]
    for t in threads:
        t.start()
    config = Config()
    config.world.enabled = "off"
    try:
        for _ in range(12):
            with KernelSession(config, sandbox="bwrap") as session:
                assert session.execute("6 * 7", timeout=20).result == "42"
            sandbox.sandbox_status.cache_clear()
            assert sandbox.sandbox_status()[0], sandbox.sandbox_status()[1]
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=30)
        sandbox.sandbox_status.cache_clear()
    assert not errors, errors
