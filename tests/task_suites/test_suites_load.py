"""Every built-in suite loads cleanly and meets the size the product promises.

Running the tasks (reference must pass, noop must fail) is `deskact validate`;
these checks are the fast, static part: they catch a typo in a judge name, a
missing fixture or gold file, or a duplicated id without starting a kernel.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from deskact.runtime.tasks.task import SUITES_DIR, Task, load_tasks

MINIMUM_TASKS = {"os": 25, "office": 25, "os_gui": 15, "editor": 10, "os_admin": 15, "browser": 20,
                 "osworld_port": 25, "agentstudio_port": 15}
REQUIRED_SUITES = ("os", "office")
# Params that name a file in the suite's files/ folder (reset) or gold/ folder (judges).
FIXTURE_PARAMS = {"files.copy": "src", "files.unzip": "src"}
GOLD_PARAMS = {"files.same": "reference", "files.same_text": "reference", "image.similar": "reference",
               "xlsx.compare": "gold"}


def suite_dirs() -> list[Path]:
    return sorted(d for d in SUITES_DIR.iterdir() if d.is_dir() and any(d.glob("*.y*ml")))


def _load(suite: Path) -> list[Task]:
    result = load_tasks([suite])
    assert not result.invalid, "\n".join(str(i) for i in result.invalid)
    return result.tasks


@pytest.mark.parametrize("name", REQUIRED_SUITES)
def test_required_suite_exists(name: str) -> None:
    assert (SUITES_DIR / name).is_dir(), f"built-in suite {name!r} is missing from {SUITES_DIR}"


@pytest.mark.parametrize("suite", suite_dirs(), ids=lambda d: d.name)
def test_suite_loads_without_invalid_tasks(suite: Path) -> None:
    tasks = _load(suite)
    assert tasks, f"{suite} holds no tasks"
    minimum = MINIMUM_TASKS.get(suite.name)
    if minimum is not None:
        assert len(tasks) >= minimum, f"suite {suite.name} has {len(tasks)} tasks, needs at least {minimum}"


@pytest.mark.parametrize("suite", suite_dirs(), ids=lambda d: d.name)
def test_every_task_has_a_reference(suite: Path) -> None:
    for task in _load(suite):
        assert task.reference and task.reference.strip(), f"{task.source}: task {task.id} has no reference"


@pytest.mark.parametrize("name", REQUIRED_SUITES)
def test_references_end_in_exit(name: str) -> None:
    """The os and office references end the episode themselves, as a model's last step would."""
    for task in _load(SUITES_DIR / name):
        assert task.reference, f"{task.source}: task {task.id} has no reference"
        last = [line for line in task.reference.strip().splitlines() if line.strip()][-1]
        assert last.strip() == "exit()", f"{task.source}: reference of {task.id} must end with exit(), ends with {last!r}"


@pytest.mark.parametrize("name", REQUIRED_SUITES)
def test_ids_carry_the_suite_prefix(name: str) -> None:
    prefix = name + "-"
    for task in _load(SUITES_DIR / name):
        assert task.id.startswith(prefix), f"{task.source}: id {task.id!r} should start with {prefix!r}"


@pytest.mark.parametrize("suite", suite_dirs(), ids=lambda d: d.name)
def test_fixture_and_gold_files_exist(suite: Path) -> None:
    for task in _load(suite):
        for step in [*task.reset, *task.cleanup]:
            key = FIXTURE_PARAMS.get(step.name)
            if key and key in step.params:
                src = task.files_dir / step.params[key]
                assert src.exists(), f"{task.source}: {step.name} {key}={step.params[key]!r}: {src} does not exist"
        for step in task.judge:
            key = GOLD_PARAMS.get(step.name)
            ref = step.params.get(key) if key else None
            if ref and "$" not in ref and not Path(ref).is_absolute():
                found = [d / ref for d in (task.gold_dir, task.files_dir) if (d / ref).exists()]
                assert found, f"{task.source}: {step.name} reference {ref!r} is in neither gold/ nor files/"


def test_ids_unique_across_all_suites() -> None:
    result = load_tasks(suite_dirs())
    duplicates = [i for i in result.invalid if "duplicate task id" in i.message]
    assert not duplicates, "\n".join(str(i) for i in duplicates)


def test_visual_tasks_get_a_display() -> None:
    """A task that drives apps needs the gui toolkit, and a task with it is visual."""
    for task in load_tasks(suite_dirs()).tasks:
        opens_apps = any(s.name.startswith("apps.") for s in task.reset)
        if opens_apps:
            assert task.visual and "gui" in task.toolkits, f"{task.source}: {task.id} opens apps but is not visual with toolkits [gui]"


# Running every suite's tasks both ways is tests/task_suites/test_validate_suites.py.


def test_os_admin_tasks_require_a_world() -> None:
    """They change /etc, users, packages: without a world the agent's code would change the host."""
    for task in _load(SUITES_DIR / "os_admin"):
        first = task.reset[0].name if task.reset else None
        assert first == "world.require", f"{task.source}: {task.id} must start its reset with world.require"
