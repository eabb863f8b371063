"""The Ray actor class on its own (a plain class: no Ray needed): its warm-up before the first task."""

from collections import deque
from pathlib import Path
from textwrap import dedent

import pytest
from deskact.runtime.config import Config
from deskact.runtime.run.ray_actor import TaskActor
from deskact.runtime.run.ray_backend import _Job, most_common_toolkits
from deskact.runtime.tasks.task import load_tasks

SUITE = """
tasks:
  - id: a-write
    instruction: Write hello to ${WORKSPACE}/out.txt
    judge:
      - files.content: {path: "${WORKSPACE}/out.txt", equals: "hello"}
    reference: |
      open("out.txt", "w").write("hello")
      exit()
"""


def config() -> Config:
    c = Config()
    c.display.mode = "none"  # API-only actors: no display to start
    return c


@pytest.fixture
def task(tmp_path: Path):
    (tmp_path / "tasks.yaml").write_text(dedent(SUITE))
    loaded = load_tasks([str(tmp_path)], config().toolkits.enabled)
    assert not loaded.invalid
    return loaded.tasks[0]


def test_a_warmed_actor_has_its_kernel_pool_before_any_task(task):
    actor = TaskActor(config(), "reference", 0, False, warm=[])
    try:
        assert actor.warming is not None
        actor.warming.join(timeout=120)
        assert not actor.warming.is_alive()
        # The pool the first task takes its kernel from exists already (key: no toolkits, no display).
        assert list(actor.worker._pools) == [("",)]
        shipped = actor.run(task)
        assert shipped.result is not None and shipped.result.status == "passed", shipped.result
        assert shipped.result.phases.kernel < actor.config.kernel.startup_timeout
    finally:
        actor.close()


def test_an_actor_without_warm_starts_nothing_until_its_first_task():
    actor = TaskActor(config(), "reference", 1, False)
    try:
        assert actor.warming is None
        assert actor.worker._pools == {}
    finally:
        actor.close()


def test_a_failing_warm_up_leaves_the_failure_to_the_first_task(task):
    # An unknown toolkit: warming cannot build its pool; the actor still runs tasks that do not need it.
    actor = TaskActor(config(), "reference", 2, False, warm=["no-such-toolkit"])
    try:
        assert actor.warming is not None
        actor.warming.join(timeout=120)
        assert actor.worker._pools == {}
        shipped = actor.run(task)
        assert shipped.result is not None and shipped.result.status == "passed", shipped.result
    finally:
        actor.close()


def test_actors_warm_for_the_toolkits_most_tasks_ask_for(task):
    jobs = deque([_Job(task.model_copy(update={"toolkits": tk})) for tk in (["google"], [], [], ["google"], [])])
    assert most_common_toolkits(jobs) == ()
    ties = deque([_Job(task.model_copy(update={"toolkits": tk})) for tk in (["google"], [])])
    assert most_common_toolkits(ties) == ("google",)  # equals: the earliest task's
