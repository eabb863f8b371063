"""The task format and the step API: tasks, suites, reset steps and judges.

``task`` (the YAML format, loader and schema), ``suites`` (suite names and
folders), ``steps`` (the registries, ``@reset_step``, ``@judge``, ``Verdict``,
``StepContext``), ``feedback`` (judges' sentences), ``steps_doc`` (the
generated reference in docs/steps.md), ``toolkit_steps`` (toolkits' own steps).
Plugin authors import the public names from ``deskact`` instead.
"""

from __future__ import annotations

from typing import Any

# Release 0.1 had a module deskact.runtime.tasks; its names still resolve here.
_TASK_NAMES = ("Task", "Step", "Counterexample", "InvalidTask", "LoadResult", "load_tasks",
               "load_file", "parse_task", "json_schema", "write_schema", "SUITES_DIR")


def __getattr__(name: str) -> Any:  # lazy: importing steps alone must not load the task loader
    if name in _TASK_NAMES:
        from . import task

        return getattr(task, name)
    raise AttributeError(f"module 'deskact.runtime.tasks' has no attribute {name!r}")
