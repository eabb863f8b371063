"""Scaffolding the import-then-validate tests share: import copied OSWorld task files (their downloads
answered by the file_host fixture), write hand-written references into the imported suite, run
`deskact validate` on it in worlds and assert every task checked and no problem found.

Test files import it as `from imported_suite import ...` after putting this folder on sys.path
(pytest runs with --import-mode=importlib, which does not)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import yaml
from deskact.runtime.config import Config
from deskact.runtime.importers import ImportOptions
from deskact.runtime.importers.common import SUITE_FILE
from deskact.runtime.importers.osworld import import_osworld
from deskact.runtime.run.validate import Problem, validate


def import_suite(src: Path, tmp_path: Path, file_host: Any) -> tuple[Path, list[dict[str, Any]]]:
    """Imports the OSWorld task files under ``src`` into ``tmp_path/suite``, fetching their downloads
    through ``file_host``'s mirror; asserts no task was skipped. Returns the suite file and its tasks."""
    suite = tmp_path / "suite"
    report = import_osworld(src, ImportOptions(out=suite, fetch=True, mirror=file_host.mirror(src, tmp_path / "m.json")))
    assert not report.skipped, [s.reasons for s in report.skipped]
    path = suite / SUITE_FILE
    tasks: list[dict[str, Any]] = yaml.safe_load(path.read_text())["tasks"]
    return path, tasks


def write_tasks(path: Path, tasks: list[dict[str, Any]]) -> None:
    """Writes ``tasks`` back as the suite file, as an author editing imported.yaml would."""
    path.write_text(yaml.safe_dump({"tasks": tasks}, sort_keys=False))


def with_references(tasks: list[dict[str, Any]], references: Mapping[str, str],
                    counterexamples: Mapping[str, list[dict[str, str]]] | None = None) -> list[dict[str, Any]]:
    """Each task with its reference (and counterexamples, when given)."""
    return [{**t, "reference": references[t["id"]],
             **({"counterexamples": counterexamples[t["id"]]} if counterexamples is not None else {})} for t in tasks]


def assert_validates(suites: Path | list[Path], tmp_path: Path, checked: int, *, workers: int = 1,
                     config: Config | None = None, tolerated: Callable[[Problem], bool] | None = None) -> None:
    """Runs validate on the suite folder(s) with ``workers`` workers; asserts ``checked`` tasks were
    checked and no problem was found but those ``tolerated`` says are expected."""
    config = config or Config()
    config.runner.workers = workers
    paths = suites if isinstance(suites, list) else [suites]
    problems, n = validate(config, [str(p) for p in paths], workers=workers, out=tmp_path / "runs")
    assert n == checked
    if tolerated is not None:
        problems = [p for p in problems if not tolerated(p)]
    assert not problems, "\n".join(f"{p.task_id} [{p.model}] {p.status}: {p.detail}" for p in problems)


def validate_imported(src: Path, tmp_path: Path, file_host: Any, references: Mapping[str, str],
                      counterexamples: Mapping[str, list[dict[str, str]]] | None = None, *,
                      config: Config | None = None) -> None:
    """Imports the task files under ``src`` (nothing skipped, exactly the tasks ``references`` names),
    writes each task's reference (and counterexamples) into the suite and asserts it validates
    (with ``config``, one worker)."""
    path, tasks = import_suite(src, tmp_path, file_host)
    assert {t["id"] for t in tasks} == set(references)
    write_tasks(path, with_references(tasks, references, counterexamples))
    assert_validates(path.parent, tmp_path, len(references), config=config)
