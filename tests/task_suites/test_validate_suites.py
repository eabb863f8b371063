"""`deskact validate` over every built-in suite: reference rewards 1, noop and explore reward 0."""

from pathlib import Path

import pytest

from deskact.runtime.config import Config
from deskact.runtime.run.tasks import SUITES_DIR
from deskact.runtime.run.validate import validate

SUITES = sorted(p.name for p in SUITES_DIR.iterdir() if p.is_dir() and any(p.glob("*.yaml")))


def test_there_are_suites():
    assert {"os", "os_gui", "editor", "office"} <= set(SUITES)


@pytest.mark.slow
@pytest.mark.parametrize("suite", SUITES)
def test_suite_validates(suite: str, tmp_path: Path):
    config = Config()
    config.runner.workers = 2
    problems, checked = validate(config, [str(SUITES_DIR / suite)], workers=2, out=tmp_path)
    assert checked > 0
    assert not problems, "\n".join(f"{p.task_id} [{p.model}] {p.status} reward={p.reward}: {p.detail}" for p in problems)
