from pathlib import Path

import pytest
from deskact.runtime.steps import StepContext


@pytest.fixture
def ctx(tmp_path: Path) -> StepContext:
    """A workspace, a fixture folder and a gold folder, all empty."""
    for d in ("ws", "files", "gold", "home"):
        (tmp_path / d).mkdir()
    return StepContext(workspace=tmp_path / "ws", files=tmp_path / "files", home=tmp_path / "home",
                       gold=tmp_path / "gold", task_id="t")
