"""/dev/shm of a world is on its disk: filling it fails the write with ENOSPC, the world lives on."""

from __future__ import annotations

from pathlib import Path

import pytest
from deskact.runtime.config import Config
from deskact.runtime.world.world import World, world_status

OK, WHY = world_status()
pytestmark = [pytest.mark.bwrap, pytest.mark.skipif(not OK, reason=f"no worlds here: {WHY}")]


def test_filling_dev_shm_fails_the_write_not_the_world(tmp_path: Path) -> None:
    ws, private = tmp_path / "ws", tmp_path / "private"
    ws.mkdir()
    private.mkdir(mode=0o777)
    cfg = Config()
    cfg.world.disk_mb = 64
    cfg.world.memory_mb = 1024
    world = World(cfg, workspace=ws, private_dir=private).start()
    try:
        fill = world.run(["/bin/sh", "-c", ("dd if=/dev/zero of=/dev/shm/fill bs=1M count=256 2>&1; "
                                            "echo status=$?; stat -c %a /dev/shm")], timeout=120)
        assert "No space left on device" in fill.stdout and "status=1" in fill.stdout, fill.stdout
        assert fill.stdout.strip().endswith("1777"), fill.stdout
        assert world.alive and world.run(["/bin/sh", "-c", "rm /dev/shm/fill && echo alive"]).stdout == "alive\n"
        # The workspace shares the quota: room again once the file is gone.
        assert world.run(["/bin/sh", "-c", "head -c 1000000 /dev/zero > /dev/shm/again && echo ok"]).stdout == "ok\n"
    finally:
        world.close()
