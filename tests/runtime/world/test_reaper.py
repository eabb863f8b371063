"""Worlds left by a deskact process that died without closing them are removed by the next one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from deskact.runtime.config import Config
from deskact.runtime.world import reaper
from deskact.runtime.world.cgroups import layout
from deskact.runtime.world.world import World, world_status

OK, WHY = world_status()
pytestmark = pytest.mark.skipif(not OK, reason=f"no worlds here: {WHY}")

_ORPHAN = """
import sys, time
from pathlib import Path
from deskact.runtime.config import Config
from deskact.runtime.world.world import World
ws, private = Path(sys.argv[1]), Path(sys.argv[2])
world = World(Config(), workspace=ws, private_dir=private).start()
world.run(["/bin/sh", "-c", "sleep 1000 & echo started"])
print(world.dir, world.name, flush=True)
time.sleep(1000)
"""


def mounted_under(directory: Path) -> list[str]:
    text = Path("/proc/self/mountinfo").read_text()
    return [line.split()[4] for line in text.splitlines() if line.split()[4].startswith(f"{directory}/")]


def orphaned_world(tmp_path: Path) -> tuple[Path, str, Path]:
    """A world whose owner was SIGKILLed: nothing closed it."""
    ws, private = tmp_path / "ws", tmp_path / "private"
    ws.mkdir()
    private.mkdir(mode=0o777)
    proc = subprocess.Popen([sys.executable, "-c", _ORPHAN, str(ws), str(private)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    directory, name = proc.stdout.readline().split()
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return Path(directory), name, ws


def test_a_dead_owners_world_is_reaped(tmp_path: Path) -> None:
    directory, name, ws = orphaned_world(tmp_path)
    assert mounted_under(directory) and os.path.ismount(ws)
    assert reaper.is_stale(directory)
    reaper.reap(directory.parent)
    assert not directory.exists()
    assert not mounted_under(directory) and not os.path.ismount(ws)
    assert all(not (parent / name).exists() for parent in layout()[1])


def test_live_and_kept_worlds_are_left_alone(tmp_path: Path) -> None:
    ws, private = tmp_path / "ws", tmp_path / "private"
    ws.mkdir()
    private.mkdir(mode=0o777)
    world = World(Config(), workspace=ws, private_dir=private).start()
    try:
        reaper.reap(world.dir.parent)
        assert world.dir.exists() and world.run(["true"]).returncode == 0
    finally:
        world.keep = True
        world.close()
    kept = world.dir
    try:
        assert (kept / reaper.KEPT_FILE).exists()
        reaper.reap(kept.parent)
        assert kept.exists()
    finally:
        for point in sorted(mounted_under(kept), key=len, reverse=True):
            subprocess.run(["umount", "-l", point], check=False)
        subprocess.run(["rm", "-rf", str(kept)], check=False)


def test_reused_pid_does_not_keep_a_world(tmp_path: Path) -> None:
    directory = Path(tempfile.mkdtemp(prefix=reaper.PREFIX, dir=tmp_path))
    reaper.mark(directory)
    owner = (directory / reaper.OWNER_FILE).read_text().replace('"start": "', '"start": "1')
    (directory / reaper.OWNER_FILE).write_text(owner)  # our pid, another start time: a reused pid
    assert reaper.is_stale(directory)
    assert reaper.reap(tmp_path) == 1 and not directory.exists()


KILLED_SUITE = """
tasks:
  - id: k-mid-task
    instruction: (killed mid-task)
    visual: true
    toolkits: [gui, web]
    reset:
      - apps.terminal: {title: Terminal}
    judge:
      - files.absent: {path: x}
    reference: |
      import time
      open("started", "w").write("yes")
      time.sleep(600)
"""


def _wait_for(check, timeout: float, what: str):  # type: ignore[no-untyped-def]
    import time

    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.2)
    return found


@pytest.mark.display
@pytest.mark.slow
def test_nothing_of_a_killed_run_remains_once_the_next_command_starts(tmp_path: Path) -> None:
    """kill -9 of a `deskact run` mid-task (a display, a world, a terminal, the web apps' database
    mount); the next deskact command, with another TMPDIR, removes everything it made."""
    from deskact.runtime.world.cgroups import layout

    deskact = Path(sys.executable).with_name("deskact")
    first_tmp, second_tmp = tmp_path / "tmp-a", tmp_path / "tmp-b"
    first_tmp.mkdir()
    second_tmp.mkdir()
    suite = tmp_path / "suite_k"
    suite.mkdir()
    (suite / "tasks.yaml").write_text(KILLED_SUITE)
    run = subprocess.Popen([str(deskact), "run", str(suite), "--model", "reference", "--workers", "1",
                            "--out", str(tmp_path / "out")], env={**os.environ, "TMPDIR": str(first_tmp)},
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for(lambda: list(first_tmp.glob("deskact-w0-*/workspaces/task-*/started")), 240, "the task runs")
        owner_files = list(reaper.registry_dir().glob(f"{run.pid}-*.paths"))
        assert len(owner_files) == 1
        made = [Path(p) for p in reaper._owned(owner_files[0])]
    finally:
        run.send_signal(signal.SIGKILL)
        run.wait()
    worlds = [p.name for p in made if p.name.startswith(reaper.PREFIX)]
    assert any(p.parent == first_tmp and p.name.startswith("deskact-w0-") for p in made)
    assert any(str(p).startswith("/dev/shm/deskact-fb-") for p in made)
    assert worlds and mounted_under(first_tmp), "the run had no world or mounts to leave behind"
    subprocess.run([str(deskact), "suites"], env={**os.environ, "TMPDIR": str(second_tmp)},
                   capture_output=True, timeout=120, check=True)
    assert not [p for p in made if p.exists()], "paths the killed run made are still there"
    assert not mounted_under(first_tmp), "mounts of the killed run are still there"
    assert not [name for name in worlds for parent in layout()[1] if (parent / name).exists()], "cgroups stayed"
    # The matplotlib font cache is shared by every deskact process of the user on purpose (a cache).
    left = [p.name for p in first_tmp.iterdir() if not p.name.startswith("deskact-mpl-cache-")]
    assert not left, f"left in its TMPDIR: {left}"
    assert not owner_files[0].exists()
