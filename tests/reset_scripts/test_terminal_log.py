"""Terminal transcripts: bounded when judged, inside the world's quota, removed after the run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from deskact.reset_scripts._terminal_log import READ_LIMIT, read_transcript, transcript_path
from deskact.runtime.config import Config
from deskact.runtime.tasks.steps import StepContext
from deskact.runtime.world import reaper
from deskact.runtime.world.world import World, world_status

# A 1 GB transcript (sparse: no disk needed) whose last line is the answer, judged in a fresh
# process: its peak memory is printed.
_JUDGE_1GB = """
import sys  # the peak printed is VmHWM, this process's own (ru_maxrss would include pytest's)
from pathlib import Path
from deskact.reset_scripts._terminal_log import transcript_path
from deskact.runtime.tasks.steps import StepContext, load_plugins, run_judge
load_plugins()
tmp = Path(sys.argv[1])
ctx = StepContext(workspace=tmp, files=tmp, home=tmp, display=":99", task_id="t-1gb")
log = transcript_path(ctx, "Terminal")
with log.open("wb") as f:
    f.truncate(1 << 30)
    f.seek(1 << 30)
    f.write(b"\\r\\nthe answer is 42\\r\\n")
verdict = run_judge("terminal.text", {"contains": "the answer is 42"}, ctx)
print(verdict.passed, int(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM:'))) // 1024)
"""

_MAKE_AND_DIE = """
import os, signal, sys
from pathlib import Path
from deskact.reset_scripts._terminal_log import transcript_path
from deskact.runtime.tasks.steps import StepContext
tmp = Path(sys.argv[1])
log = transcript_path(StepContext(workspace=tmp, files=tmp, home=tmp, task_id="t-" + sys.argv[2]), "Terminal")
log.write_bytes(b"$ ls\\r\\n")
print(log, flush=True)
if sys.argv[2] == "killed":
    os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.slow  # writes a gigabyte
def test_a_1gb_transcript_is_judged_without_reading_it_whole(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-c", _JUDGE_1GB, str(tmp_path)], capture_output=True, text=True,
                         timeout=300, env={**os.environ, "TMPDIR": str(tmp_path)})
    assert out.returncode == 0, out.stderr[-2000:]
    passed, peak_mb = out.stdout.split()
    assert passed == "True"
    assert int(peak_mb) < 512, f"judging a 1 GB transcript took {peak_mb} MB"


def test_a_long_transcript_is_read_from_both_ends(tmp_path: Path) -> None:
    log = tmp_path / "t.log"
    log.write_bytes(b"first line\n" + b"x" * (3 * READ_LIMIT) + b"\nlast line\n")
    seen = read_transcript(log)
    assert len(seen) < READ_LIMIT + 100
    assert seen.startswith(b"first line\n") and seen.endswith(b"\nlast line\n") and b"not read" in seen


def test_transcripts_without_a_world_go_at_exit_and_after_a_kill(tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    normal = subprocess.run([sys.executable, "-c", _MAKE_AND_DIE, str(tmp_path), "normal"], env=env,
                            capture_output=True, text=True, timeout=60, check=True)
    assert not Path(normal.stdout.strip()).exists(), "a transcript outlived a normal run"
    killed = subprocess.run([sys.executable, "-c", _MAKE_AND_DIE, str(tmp_path), "killed"], env=env,
                            capture_output=True, text=True, timeout=60)
    assert killed.returncode == -signal.SIGKILL
    left = Path(killed.stdout.strip())
    assert left.exists()
    reaper.reap_dead_owners()
    assert not left.exists(), "the reaper left a dead process's transcript"


@pytest.mark.bwrap
def test_a_worlds_transcript_is_on_its_disk_and_not_in_the_world(tmp_path: Path) -> None:
    ok, why = world_status()
    if not ok:
        pytest.skip(f"no worlds here: {why}")
    ws, private = tmp_path / "ws", tmp_path / "private"
    ws.mkdir()
    private.mkdir(mode=0o777)
    cfg = Config()
    cfg.world.disk_mb = 32
    world = World(cfg, workspace=ws, private_dir=private).start()
    try:
        ctx = StepContext(workspace=ws, files=tmp_path, home=tmp_path, task_id="t-w", world=world)
        log = transcript_path(ctx, "Terminal")
        assert Path(world.dir) in log.parents
        # A terminal printing without end, until the quota refuses (errno checked below).
        with pytest.raises(OSError) as full, log.open("wb") as f:  # noqa: PT011, PT012
            for _ in range(64):
                f.write(b"y\n" * (1 << 19))
                f.flush()
        assert full.value.errno == 28  # ENOSPC: the world's quota, not the host's disk
        assert world.run(["ls", str(log)]).returncode != 0
        found = world.run(["/bin/sh", "-c", f"find / -xdev -name '{log.name}' 2>/dev/null"])
        assert found.stdout.strip() == "", found.stdout
    finally:
        world.close()
    assert not log.exists()
