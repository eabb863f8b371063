"""Built-in counterexamples, statically: enough of them, each explained, each a whole episode.

Running them (each must get reward 0) is `deskact validate`'s fourth pass; these
checks catch a counterexample that is a copy of the reference or that never ends.
"""

from __future__ import annotations

from deskact.runtime.tasks.task import SUITES_DIR, load_tasks

MINIMUM_TASKS_WITH_COUNTEREXAMPLES = 60


def _tasks() -> list:
    loaded = load_tasks([d for d in sorted(SUITES_DIR.iterdir()) if d.is_dir() and any(d.glob("*.y*ml"))])
    return loaded.tasks


def test_enough_tasks_have_counterexamples() -> None:
    having = [t for t in _tasks() if t.counterexamples]
    assert len(having) >= MINIMUM_TASKS_WITH_COUNTEREXAMPLES, (
        f"only {len(having)} built-in tasks have counterexamples")


def test_counterexamples_are_explained_distinct_and_end_in_exit() -> None:
    for task in _tasks():
        for i, example in enumerate(task.counterexamples):
            where = f"{task.source}: task {task.id} counterexample {i}"
            assert example.note.strip(), f"{where} needs a note saying what is wrong with it"
            assert example.code.strip() != (task.reference or "").strip(), f"{where} is the reference itself"
            last = [line for line in example.code.strip().splitlines() if line.strip()][-1]
            assert last.strip() == "exit()", f"{where} must end with exit(), ends with {last!r}"
