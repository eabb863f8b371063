"""Each task on a worker starts from the apps' seed, whether or not it lists ``site.serve``.

The web apps are a per-worker service: their databases live as long as the
worker. A page one task creates through the wiki's form must not be there for the
next task on that worker (its judge would see it, and so would its agent), and
what a task writes is bounded (a tmpfs of ``world.disk_mb`` as root) instead of
growing on the host's disk.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from deskact.runtime.config import Config
from deskact.runtime.run.task_env import TaskEnv
from deskact.runtime.run.worker import Worker
from deskact.runtime.tasks.task import Step, Task
from deskact.runtime.world.world import world_status

pytestmark = pytest.mark.bwrap

CHECKOUT = Path(__file__).resolve().parents[3]
CREATE = """
import requests
r = requests.post(sites.url("wiki", "new"), data={"title": "Leftover page", "body": "from the last task",
                                                   "category": "General"}, timeout=60)
print(r.status_code)
"""
# Without site.serve the app has no hostname in the world, but its socket is there (the kernel's
# forwarded port): an agent reaches it all the same.
LOOK = """
import os, requests
print(requests.get(os.environ["DESKACT_SITE_WIKI_URL"] + "/wiki/leftover-page", timeout=60).status_code)
"""


def _task(id: str, reset: list[Step]) -> Task:
    return Task(id=id, instruction="(per-task state test)", toolkits=["web"], reset=reset, judge=[],
                suite_dir=str(CHECKOUT / "task_suites" / "web"))


@pytest.fixture
def worker() -> Iterator[Worker]:
    ok, why = world_status()
    if not ok:
        pytest.skip(f"this machine cannot make worlds: {why}")
    cfg = Config()
    cfg.world.enabled = "on"
    cfg.world.disk_mb = 64
    cfg.kernel.pool_size = 1
    with Worker(cfg) as w:
        yield w


def _pages(env: TaskEnv) -> int:
    db = env.context().services["web"]["sites"]["wiki"].db
    return db.query("SELECT count(*) FROM pages WHERE slug = 'leftover-page'")[0][0]


def test_the_next_task_on_the_worker_sees_no_page_the_last_one_created(worker: Worker) -> None:
    with TaskEnv(_task("t-web-writes", [Step(name="site.serve", params={"app": "wiki"})]), worker) as first:
        first.reset()
        made = first.execute(CREATE, timeout=120)
        assert made.error is None and made.stdout.strip() == "200", made
        assert _pages(first) == 1
    with TaskEnv(_task("t-web-after", []), worker) as second:  # no site.serve in this one
        second.reset()
        assert _pages(second) == 0, "the last task's wiki page is still in the database"
        seen = second.execute(LOOK, timeout=120)
        assert seen.error is None and seen.stdout.strip() == "404", seen


def test_the_databases_are_bounded_by_the_worlds_disk_quota(worker: Worker) -> None:
    with TaskEnv(_task("t-web-fill", []), worker) as env:
        env.reset()
        db_dir = env.context().services["web"]["sites"]["wiki"].db.path.parent
        assert os.path.ismount(db_dir), "the databases are on the host's disk"
        total = os.statvfs(db_dir).f_blocks * os.statvfs(db_dir).f_frsize
        assert total <= 64 * 2**20
        # A task writing far more than the quota through the app's form: it fails, the host stays clean.
        filled = env.execute("""
import os, requests
codes = set()
for i in range(12):
    r = requests.post(os.environ["DESKACT_SITE_WIKI_URL"] + "/new", data={"title": f"Big {i}", "body": "x" * 8_000_000,
                                                       "category": "General"}, timeout=120)
    codes.add(r.status_code)
print(sorted(codes))
""", timeout=600)
        assert filled.error is None, filled
        assert "500" in filled.stdout, filled.stdout
        assert os.statvfs(db_dir).f_bavail * os.statvfs(db_dir).f_frsize < 16 * 2**20
