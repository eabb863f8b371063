"""The thunderbird suite's static shape: enough tasks, each visual with the gui toolkit, started by
apps.thunderbird and stopped by apps.kill, with a reference and a counterexample that drive
Thunderbird through the keyboard only (no files written behind its back). Playing them in worlds
is `deskact validate task_suites/thunderbird` (BENCHMARKS.md)."""

from __future__ import annotations

import ast

import pytest
from deskact.runtime.tasks.task import SUITES_DIR, Task, load_tasks

ALLOWED_CALLS = {"hotkey", "press", "type", "sleep", "range", "exit"}


def _tasks() -> list[Task]:
    result = load_tasks([SUITES_DIR / "thunderbird"])
    assert not result.invalid, "\n".join(str(i) for i in result.invalid)
    return result.tasks


def _calls(code: str) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Call):
            func = node.func
            names.add(func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "?"))
    return names


def test_enough_tasks_with_unique_prefixed_ids() -> None:
    tasks = _tasks()
    assert len(tasks) >= 10
    assert all(t.id.startswith("thunderbird-") for t in tasks)


@pytest.mark.parametrize("task", _tasks(), ids=lambda t: t.id)
def test_task_drives_thunderbird_by_keyboard(task: Task) -> None:
    assert task.visual and "gui" in task.toolkits
    assert [s.name for s in task.reset][-1] == "apps.thunderbird"
    assert any(s.name == "apps.kill" and s.params.get("name") == "thunderbird" for s in task.cleanup)
    assert task.reference and task.counterexamples
    for code in [task.reference, *[c.code for c in task.counterexamples]]:
        extra = _calls(code) - ALLOWED_CALLS
        assert not extra, f"{task.id}: calls beyond the keyboard: {sorted(extra)}"
