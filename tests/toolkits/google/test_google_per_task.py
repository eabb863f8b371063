"""Each task on a worker starts from an empty emulator account, whether or not it lists google.reset."""

from __future__ import annotations

from pathlib import Path

from deskact.runtime.config import Config
from deskact.runtime.run.task_env import TaskEnv
from deskact.runtime.run.worker import Worker
from deskact.runtime.tasks.task import Step, Task

CHECKOUT = Path(__file__).resolve().parents[3]


def _task(id: str, reset: list[Step]) -> Task:
    return Task(id=id, instruction="(per-task state test)", toolkits=["google"], reset=reset, judge=[],
                suite_dir=str(CHECKOUT / "task_suites" / "google"))


def _files(env: TaskEnv) -> list[str]:
    drive = env.context().services["google"]["clients"].drive
    return [f["name"] for f in drive.files().list(fields="files(name)").execute().get("files", [])]


def test_the_next_task_sees_nothing_of_the_last_ones_account() -> None:
    cfg = Config()
    cfg.kernel.pool_size = 1
    with Worker(cfg) as worker:
        with TaskEnv(_task("t-google-writes", [Step(name="google.reset", params={})]), worker) as first:
            first.reset()
            made = first.execute("drive.files().create(body={'name': 'left-behind.txt'}).execute()\nprint('made')",
                                 timeout=120)
            assert made.error is None and "made" in made.stdout, made
            assert _files(first) == ["left-behind.txt"]
            assert first.context().services["google"]["state"], "google.reset records the task's anchor"
        with TaskEnv(_task("t-google-after", []), worker) as second:  # no google.reset in this one
            second.reset()
            assert _files(second) == [], "the last task's Drive file is still there"
            assert second.context().services["google"]["state"] == {}
