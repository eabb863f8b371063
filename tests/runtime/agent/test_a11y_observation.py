"""observation.a11y: the tree goes with the screenshot (tree+screenshot) or replaces it (tree)."""

from pathlib import Path

import pytest
from deskact.runtime.agent.agent import Episode
from deskact.runtime.agent.models.offline import Scripted
from deskact.runtime.config import Config
from deskact.runtime.execution import ExecResult, Image
from deskact.runtime.tasks.task import parse_task

TREE = "Accessibility tree of the active window:\n[0] frame 'Editor' active (0,0 640x400)"


class _Shot:
    def __init__(self, n: int) -> None:
        self.image = Image(media_type="image/png", data=b"\x89PNG" + bytes([n]))
        self.a11y = TREE


class _Runner:
    def execute(self, code: str, timeout: float | None = None) -> ExecResult:
        return ExecResult(status="ok", stdout="ran\n", exited="exit()" in code)


@pytest.mark.parametrize(("mode", "images"), [("tree", 0), ("tree+screenshot", 1)])
def test_tree_with_or_instead_of_the_screenshot(mode: str, images: int) -> None:
    config = Config()
    config.observation.a11y = mode  # type: ignore[assignment]
    seen: list[list] = []

    class Recorder(Scripted):
        def reply(self, system, messages):  # type: ignore[no-untyped-def]
            seen.append(messages[-1].blocks())
            return super().reply(system, messages)

    shots = iter(range(10))
    task = parse_task({"id": "t", "instruction": "do it", "visual": True,
                       "judge": [{"answer.contains": {"text": "x"}}]}, Path("/tmp/s"), Path("t.yaml"))
    record = Episode(task, Recorder(["```python\nx = 1\n```", "```python\nexit()\n```"]), _Runner(), config,
                     system_prompt="", screen=lambda: _Shot(next(shots))).run()
    for blocks in seen:
        assert sum(not isinstance(b, str) for b in blocks) == images
        assert TREE in "".join(b for b in blocks if isinstance(b, str))
    assert all(step.screenshot is not None for step in record.steps)  # the trajectory keeps the frames
