"""A local Ray that ``--backend ray`` starts serves this machine alone: none of its processes
listens on every interface (Ray's metrics exporter has no authentication). Checked in a child
process that starts the cluster the way a run does and lists what its process tree listens on."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("ray", reason="the Ray backend needs pip install 'deskact[ray]'")

pytestmark = [pytest.mark.ray, pytest.mark.slow]

LIST_LISTENERS = r"""
import json, sys, time
from pathlib import Path
import psutil
from deskact.runtime.config import Config
from deskact.runtime.run.ray_backend import RayRun
from deskact.runtime.run.runner import RunOptions

config = Config()
config.runner.backend = "ray"
run = RayRun(config, RunOptions(paths=[], model="noop", out=Path(sys.argv[1]), workers=1))
ray = run._connect()

@ray.remote(num_cpus=0)
def ping() -> int:
    return 1

ray.get(ping.remote())  # a worker process is up too
time.sleep(3)  # the agents start their servers after the node is up
tree = psutil.Process().children(recursive=True)
listening = []
for proc in tree:
    try:
        for conn in proc.net_connections("inet"):
            if conn.status == psutil.CONN_LISTEN:
                listening.append([proc.name(), conn.laddr.ip, conn.laddr.port])
    except psutil.Error:
        pass
ray.shutdown()
print(json.dumps(listening))
"""


@pytest.mark.timeout(300)
def test_no_process_of_a_local_ray_listens_on_every_interface(tmp_path: Path) -> None:
    # Its own Ray folder (short: Ray's socket paths must fit AF_UNIX): another Ray on this
    # machine would otherwise be joined instead of a new one started.
    ray_dir = tempfile.mkdtemp(prefix="dr-", dir="/tmp")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "RAY_TMPDIR": ray_dir}
    try:
        proc = subprocess.run([sys.executable, "-c", LIST_LISTENERS, str(tmp_path / "out")], capture_output=True,
                              text=True, timeout=240, check=False, env=env)
    finally:
        shutil.rmtree(ray_dir, ignore_errors=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    listening = json.loads(proc.stdout.strip().splitlines()[-1])
    assert listening, "the Ray processes were not found"
    wide = [entry for entry in listening if entry[1] not in ("127.0.0.1", "::1", "::ffff:127.0.0.1")]
    assert not wide, f"listening beyond loopback: {wide}"
