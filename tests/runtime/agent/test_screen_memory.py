"""An unchanged screen is announced, not resent; a changed one is sent; trajectories keep all frames."""

import io
from pathlib import Path

import pytest
from deskact.runtime.agent.agent import Episode
from deskact.runtime.agent.models.offline import Scripted
from deskact.runtime.agent.screen_memory import UNCHANGED_NOTE, ScreenMemory
from deskact.runtime.config import Config
from deskact.runtime.execution import Image
from deskact.runtime.tasks.task import parse_task
from deskact.runtime.world.kernel import KernelSession
from PIL import Image as PILImage


def _png(colour: str) -> Image:
    buf = io.BytesIO()
    PILImage.new("RGB", (8, 8), colour).save(buf, format="PNG")
    return Image(media_type="image/png", data=buf.getvalue())


class _Shot:
    def __init__(self, image: Image) -> None:
        self.image = image


def _block(code: str) -> str:
    return f"```python\n{code}\n```"


@pytest.fixture(scope="module")
def kernel(tmp_path_factory: pytest.TempPathFactory):
    with KernelSession(Config(), workspace=tmp_path_factory.mktemp("ws")) as session:
        yield session


def _run(kernel: KernelSession, colours: list[str], codes: list[str], mode: str = "note"):
    config = Config()
    config.observation.unchanged = mode  # type: ignore[assignment]
    seen: list[list] = []

    class Recorder(Scripted):
        def reply(self, system, messages):  # type: ignore[no-untyped-def]
            seen.append(messages[-1].blocks())
            return super().reply(system, messages)

    shots = iter(colours)
    task = parse_task({"id": "t", "instruction": "do it", "visual": True, "judge": [{"answer.contains": {"text": "x"}}]},
                      Path("/tmp/suite"), Path("t.yaml"))
    ep = Episode(task, Recorder([_block(c) for c in codes]), kernel, config, system_prompt="",
                 screen=lambda: _Shot(_png(next(shots))))
    return ep.run(), seen


def test_unchanged_screen_is_announced_instead_of_resent(kernel: KernelSession) -> None:
    record, seen = _run(kernel, ["red", "red", "blue", "blue", "green"], ["a = 1", "print('hi')", "b = 2", "exit()"])
    images = [[b for b in blocks if not isinstance(b, str)] for blocks in seen]
    texts = ["".join(b for b in blocks if isinstance(b, str)) for blocks in seen]
    # Turn 0: the task with the first screenshot; 1: same screen; 2: changed; 3: same again.
    assert [len(i) for i in images] == [1, 0, 1, 0]
    assert UNCHANGED_NOTE in texts[1] and UNCHANGED_NOTE in texts[3] and UNCHANGED_NOTE not in texts[2]
    assert texts[1].startswith("[no output]")  # the code's output comes first, the note after it
    # The trajectory still has every frame.
    assert all(step.screenshot is not None for step in record.steps)


def test_resend_mode_sends_every_screenshot(kernel: KernelSession) -> None:
    _, seen = _run(kernel, ["red", "red", "red"], ["a = 1", "exit()"], mode="resend")
    assert [sum(not isinstance(b, str) for b in blocks) for blocks in seen] == [1, 1]


def test_a_screenshot_pushed_out_of_the_history_is_sent_again() -> None:
    memory = ScreenMemory("note", keep_images=2)
    red = _png("red")
    assert memory.observe(red) == (red, "")
    assert memory.observe(red) == (None, UNCHANGED_NOTE)
    memory.other_images(1)  # the code displayed an image: the screenshot is still the 2nd newest
    assert memory.observe(red) == (None, UNCHANGED_NOTE)
    memory.other_images(1)  # now two newer images: the old screenshot left the history
    assert memory.observe(red) == (red, "")
    assert memory.observe(None) == (None, "")
