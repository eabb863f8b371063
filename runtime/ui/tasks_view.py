"""``deskact tasks SUITE...``: the task ids a suite holds, one a line (for --tasks, scripts and grep)."""

from __future__ import annotations

from rich.console import Console

from ..run.runner import check_pattern, matches
from ..tasks.task import Task, load_tasks


def task_line(task: Task, long: bool) -> str:
    """The id, or with ``long`` the id, suite, visual or api, and tags, tab-separated."""
    if not long:
        return task.id
    return "\t".join([task.id, task.suite, "visual" if task.visual else "api", ",".join(task.tags)])


def list_tasks(err: Console, paths: list[str], toolkits: list[str], pattern: str | None,
               long: bool) -> int:
    """Print the tasks (ids on stdout, as written: tabs stay tabs; tasks that do not load on ``err``);
    return how many do not load."""
    loaded = load_tasks(paths, toolkits)
    ids = [t.id for t in loaded.tasks] + [b.task_id for b in loaded.invalid if b.task_id]
    check_pattern(pattern, ids, paths)
    for task in loaded.tasks:
        if matches(task.id, pattern):
            print(task_line(task, long))
    invalid = [b for b in loaded.invalid if matches(b.task_id or "", pattern) or not pattern]
    for bad in invalid:
        err.print(f"invalid {bad}", markup=False, highlight=False, soft_wrap=True)
    return len(invalid)
