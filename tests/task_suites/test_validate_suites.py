"""`deskact validate` over every built-in suite: reference rewards 1, noop and explore reward 0."""

from pathlib import Path

import pytest
from deskact.runtime.config import Config
from deskact.runtime.run.validate import validate
from deskact.runtime.tasks.task import SUITES_DIR

SUITES = sorted(p.name for p in SUITES_DIR.iterdir() if p.is_dir() and any(p.glob("*.yaml")))
WORLD_SUITES = {"os_admin", "browser"}
"""Suites whose tasks change the system (/etc, users, packages) or serve pages inside the world
(browser.serve): they need a world per task."""


def test_there_are_suites():
    assert {"os", "os_gui", "editor", "office", "os_admin"} <= set(SUITES)


@pytest.mark.slow
# Four or more full passes over a suite: the browser suite (25 tasks, a world and Chromium each) was still
# in its noop pass at the default 300 s on a loaded box; office took 259 s.
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("suite", SUITES)
def test_suite_validates(suite: str, tmp_path: Path):
    if suite in WORLD_SUITES:
        from deskact.runtime.world.world import world_status

        if not world_status()[0]:
            pytest.skip(f"{suite} needs worlds, and this machine cannot make them: {world_status()[1]}")
    config = Config()
    config.runner.workers = 2
    problems, checked = validate(config, [str(SUITES_DIR / suite)], workers=2, out=tmp_path)
    assert checked > 0
    assert not problems, "\n".join(f"{p.task_id} [{p.model}] {p.status} reward={p.reward}: {p.detail}" for p in problems)
