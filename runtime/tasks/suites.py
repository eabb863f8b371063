"""Built-in task suites: the folders shipped under ``task_suites/`` (package data).

``deskact run os office`` works from any directory: a path that does not
exist and has no folder part is looked up as a built-in suite by name. An
existing path always wins, so a local ``./os`` folder shadows the built-in one.
"""

from __future__ import annotations

import difflib
from collections import Counter
from pathlib import Path

from pydantic import BaseModel, Field

from ..errors import TaskError
from .task import SUITES_DIR, load_tasks


def builtin_suites() -> dict[str, Path]:
    """Name -> folder of every built-in suite (a folder of task_suites/ holding YAML)."""
    if not SUITES_DIR.is_dir():
        return {}
    return {
        d.name: d for d in sorted(SUITES_DIR.iterdir())
        if d.is_dir() and not d.name.startswith(("_", ".")) and any(d.glob("*.y*ml"))
    }


def resolve_suite_path(path: str | Path) -> Path:
    """``path`` itself if it exists, else the built-in suite of that name; TaskError otherwise."""
    path = Path(path)
    if path.exists():
        return path
    known = builtin_suites()
    name = str(path).rstrip("/")
    if "/" not in name and name in known:
        return known[name]
    hint = difflib.get_close_matches(Path(name).name, list(known), n=1)
    raise TaskError(
        f"{path}: no such suite folder or task file, nor a built-in suite"
        + (f"; did you mean `{hint[0]}`?" if hint else "")
        + f" (built-in suites: {', '.join(known) or 'none installed'}; `deskact suites` lists them)"
    )


class SuiteInfo(BaseModel):
    """One built-in suite as ``deskact suites`` shows it."""

    name: str
    path: str
    tasks: int
    invalid: int = 0
    visual: int = 0
    toolkits: dict[str, int] = Field(default_factory=dict)
    tags: dict[str, int] = Field(default_factory=dict)


def suite_infos() -> list[SuiteInfo]:
    """Task counts, visual/toolkit counts and tag counts (most common first) per built-in suite."""
    infos = []
    for name, folder in builtin_suites().items():
        loaded = load_tasks([folder])
        toolkits = Counter(t for task in loaded.tasks for t in task.toolkits)
        tags = Counter(t for task in loaded.tasks for t in task.tags)
        infos.append(SuiteInfo(
            name=name, path=str(folder), tasks=len(loaded.tasks), invalid=len(loaded.invalid),
            visual=sum(task.visual for task in loaded.tasks),
            toolkits=dict(toolkits.most_common()), tags=dict(tags.most_common()),
        ))
    return infos
