"""Replies and kernel output holding any Unicode, lone surrogates included: the reply is kept in the
trajectory, its code runs (surrogates read as their escapes, with a note), and output the kernel
cannot encode arrives with U+FFFD in place of each surrogate instead of being lost."""

import json
import sys
from pathlib import Path

import pytest
from deskact.runtime.agent.agent import Episode, utf8_safe
from deskact.runtime.agent.models import make_model
from deskact.runtime.agent.models.offline import Scripted
from deskact.runtime.config import Config
from deskact.runtime.run.trajectory import TrajectoryWriter
from deskact.runtime.tasks.task import Task, parse_task
from deskact.runtime.world.kernel import KernelSession

sys.path.insert(0, str(Path(__file__).parent / "models"))
from fake_servers import FakeOpenAIServer


def make_task() -> Task:
    raw = {"id": "u", "instruction": "do it", "judge": [{"answer.contains": {"text": "x"}}]}
    return parse_task(raw, Path("/tmp/suite"), Path("t.yaml"))


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    with KernelSession(Config(), workspace=tmp_path_factory.mktemp("ws")) as session:
        session.start()
        yield session


def test_utf8_safe_escapes_only_surrogates():
    assert utf8_safe("héllo ✓ 𝄞") == ("héllo ✓ 𝄞", 0)
    assert utf8_safe("a\ud800b\udcff") == ("a\\ud800b\\udcff", 2)


def test_a_reply_with_lone_surrogates_runs_and_is_kept(kernel, tmp_path):
    replies = ["```python\nprint('a\ud800b')\nprint('ok')\n```", "```python\nx = '\udcff'\nexit()\n```"]
    with FakeOpenAIServer(replies=replies) as server:
        config = Config()
        config.providers.openai.base_url, config.providers.openai.api_key_env = server.url, None
        model = make_model("openai/local", config)
        writer = TrajectoryWriter(tmp_path / "traj")
        rec = Episode(make_task(), model, kernel, config, system_prompt="sys", on_step=writer.step).run()
        second_request = json.dumps(server.requests[1].json)
    assert rec.finish_reason == "done" and len(rec.steps) == 2
    first = rec.steps[0]
    assert first.code == "print('a\\ud800b')\nprint('ok')"
    assert "lone surrogate" in first.note
    # Inside a string literal the escape is the same character: the code ran, its output arrived.
    assert first.result is not None and first.result.stdout == "a\ufffdb\nok\n"
    # The reply went back to the model in the history, and into the trajectory on disk.
    assert "\\\\ud800" in second_request
    saved = json.loads((tmp_path / "traj" / "step_000.json").read_text(encoding="utf-8"))
    assert saved["reply"] == "```python\nprint('a\\ud800b')\nprint('ok')\n```"
    assert saved["result"]["stdout"] == "a\ufffdb\nok\n"


def test_kernel_output_with_surrogates_keeps_the_rest_of_the_cell(kernel):
    code = "print('before')\nprint('\\udcff bad')\nprint('after')\nraise ValueError('\\ud800')"
    rec = Episode(make_task(), Scripted([f"```python\n{code}\n```", "```python\nexit()\n```"]), kernel,
                  Config(), system_prompt="sys").run()
    result = rec.steps[0].result
    assert result is not None
    assert result.stdout == "before\n\ufffd bad\nafter\n"
    assert result.error is not None and "ValueError" in str(result.error)
