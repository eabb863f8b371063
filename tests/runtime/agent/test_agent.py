"""Episodes with scripted replies in a real kernel: every finish_reason, exit(), plan-act-reflect."""

import io
import sys
from pathlib import Path

import pytest
from deskact.runtime.agent.agent import Episode
from deskact.runtime.agent.models import make_model
from deskact.runtime.agent.models.offline import Scripted
from deskact.runtime.config import Config
from deskact.runtime.execution import Image
from deskact.runtime.tasks.task import Task, parse_task
from deskact.runtime.world.kernel import KernelSession
from PIL import Image as PILImage

sys.path.insert(0, str(Path(__file__).parent / "models"))
from fake_servers import FakeOpenAIServer


def block(code: str) -> str:
    return f"Here goes.\n```python\n{code}\n```"


def make_task(**extra) -> Task:
    raw = {"id": "t", "instruction": "do it", "judge": [{"answer.contains": {"text": "x"}}], **extra}
    return parse_task(raw, Path("/tmp/suite"), Path("t.yaml"))


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    with KernelSession(Config(), workspace=tmp_path_factory.mktemp("ws")) as session:
        session.start()
        yield session


def episode(kernel, replies, config=None, **task_fields) -> Episode:
    config = config or Config()
    return Episode(make_task(**task_fields), Scripted(replies), kernel, config, system_prompt="sys")


def test_done_runs_the_code_before_exit(kernel):
    rec = episode(kernel, [block("open('made.txt', 'w').write('hi')\nprint('answer: 42')\nexit()")]).run()
    assert rec.finish_reason == "done"
    assert (kernel.workspace / "made.txt").read_text() == "hi"
    assert rec.answer.strip() == "answer: 42"
    # exit() did not kill the kernel
    assert kernel.execute("1+1").result == "2"


def test_infeasible_finishes_with_its_reason(kernel):
    rec = episode(kernel, [block("print('checked')\ninfeasible('VS Code has no such option')")]).run()
    assert (rec.finish_reason, rec.infeasible) == ("infeasible", "VS Code has no such option")
    assert rec.answer.strip() == "checked"


def test_no_code_finishes_by_default(kernel):
    rec = episode(kernel, ["I think the task is already complete."]).run()
    assert rec.finish_reason == "no_code" and len(rec.steps) == 1


def test_no_code_as_parse_error_asks_again_then_gives_up(kernel):
    config = Config()
    config.agent.no_code = "parse_error"
    config.agent.max_parse_errors = 2
    ep = episode(kernel, ["hmm", "```json\n{}\n```"], config)
    rec = ep.run()
    assert rec.finish_reason == "parse_error" and len(rec.steps) == 2
    assert "no ```python block" in ep.messages[2].text


def test_parse_error_count_resets_after_good_code(kernel):
    config = Config()
    config.agent.no_code = "parse_error"
    config.agent.max_parse_errors = 2
    rec = episode(kernel, ["hmm", block("x = 1"), "hmm", block("exit()")], config).run()
    assert rec.finish_reason == "done"


def test_step_limit(kernel):
    rec = episode(kernel, [block("a = 1"), block("b = 2"), block("c = 3")], max_steps=2).run()
    assert rec.finish_reason == "step_limit" and len(rec.steps) == 2


def test_time_limit_caps_a_running_step(kernel):
    rec = episode(kernel, [block("import time\ntime.sleep(30)")], max_time=1.5).run()
    assert rec.finish_reason == "time_limit"
    assert rec.steps[0].result.status == "timeout"
    assert rec.steps[0].exec_s < 10


def test_repetition_limit(kernel):
    rec = episode(kernel, [block("print('same')")] * 4).run()
    assert rec.finish_reason == "repetition_limit" and len(rec.steps) == 3
    assert rec.steps[-1].result is None  # the third copy is not run


def test_model_error_keeps_the_steps_so_far(kernel):
    rec = episode(kernel, [block("v = 5")]).run()  # the script runs out on the 2nd call
    assert rec.finish_reason == "model_error"
    assert "exhausted" in rec.error
    assert len(rec.steps) == 2 and rec.steps[0].result.status == "ok"


def test_kernel_error_when_the_kernel_cannot_come_back(tmp_path):
    # The preload works once; after a crash the restart's preload fails: nothing to run code in.
    preload = ("flaky", "import os\nif os.path.exists('.booted'): raise RuntimeError('boom')\nopen('.booted', 'w').close()")
    with KernelSession(Config(), workspace=tmp_path, preload=[preload]) as session:
        session.start()
        ep = Episode(make_task(), Scripted([block("import os; os._exit(1)")]), session, Config(), system_prompt="")
        rec = ep.run()
    assert rec.finish_reason == "kernel_error"
    assert "flaky" in rec.error


def test_kernel_death_is_reported_to_the_model_and_the_episode_goes_on(kernel):
    ep = episode(kernel, [block("import os; os._exit(1)"), block("print('back'); exit()")])
    rec = ep.run()
    assert rec.finish_reason == "done"
    assert rec.steps[0].result.status == "kernel_died" and rec.steps[0].result.restarted
    assert "kernel was restarted" in ep.messages[2].text


def test_several_blocks_run_the_first_and_tell_the_model(kernel):
    ep = episode(kernel, ["```python\nprint('one')\n```\n```python\nprint('two')\n```", block("exit()")])
    ep.run()
    assert ep.record.steps[0].result.stdout == "one\n"
    assert "only the first one ran" in ep.messages[2].text


def test_confirmation_can_edit_or_reject(kernel):
    decisions = iter([None, "print('edited'); exit()"])
    task = make_task()
    ep = Episode(task, Scripted([block("print('rejected')"), block("print('original')")]), kernel, Config(),
                 system_prompt="", confirm=lambda code: next(decisions))
    rec = ep.run()
    assert rec.steps[0].result is None and "rejected" in rec.steps[0].note
    assert rec.steps[1].result.stdout == "edited\n" and rec.finish_reason == "done"


def _png(colour: str) -> Image:
    buf = io.BytesIO()
    PILImage.new("RGB", (8, 8), colour).save(buf, format="PNG")
    return Image(media_type="image/png", data=buf.getvalue())


class _Shot:
    def __init__(self, image: Image) -> None:
        self.image = image


def test_history_keeps_only_the_latest_screenshots(kernel):
    config = Config()
    config.agent.keep_screenshots = 2
    colours = iter(["red", "green", "blue", "white", "black"])
    seen: list[list] = []

    class Recorder(Scripted):
        def reply(self, system, messages):
            seen.append([len(m.images) for m in messages])
            return super().reply(system, messages)

    ep = Episode(make_task(visual=True), Recorder([block("a=1"), block("b=2"), block("c=3"), block("exit()")]),
                 kernel, config, system_prompt="", screen=lambda: _Shot(_png(next(colours))))
    ep.run()
    assert [sum(s) for s in seen] == [1, 2, 2, 2]
    assert seen[-1][-1] == 1  # the newest screenshot is always kept


def test_plan_act_reflect_records_plan_and_reflections(kernel):
    config = Config()
    config.agent.strategy = "plan-act-reflect"
    replies = [
        "1. Make a file\n2. Finish",
        block("open('p.txt', 'w').write('1')"),
        "SUCCESS the file is there",
        block("print('ok'); exit()"),
    ]
    rec = episode(kernel, replies, config).run()
    assert rec.finish_reason == "done"
    assert rec.plan == ["Make a file", "Finish"]
    assert rec.steps[0].subtask == "Make a file" and rec.steps[0].reflection.startswith("SUCCESS")
    assert rec.steps[1].subtask == "Finish"


def test_plan_can_be_revised(kernel):
    config = Config()
    config.agent.strategy = "plan-act-reflect"
    replies = ["1. Try A", block("x = 1"), "REVISE\n1. Do B\n2. Do C", block("exit()")]
    rec = episode(kernel, replies, config).run()
    assert rec.plan_history == [["Try A"], ["Do B", "Do C"]]
    assert rec.steps[1].subtask == "Do B"


def test_openai_compatible_server_from_env_only_drives_an_episode_to_done(kernel, monkeypatch):
    replies = [block("print(2 + 3)"), block("print('five'); exit()")]
    with FakeOpenAIServer(replies=replies) as server:
        monkeypatch.setenv("DESKACT_PROVIDERS_OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("OPENAI_API_KEY", "local")
        from deskact.runtime.config import load_config

        config = load_config(environ=dict(__import__("os").environ))
        model = make_model("openai/local-model", config)
        model.check_ready()
        rec = Episode(make_task(), model, kernel, config, system_prompt="be brief").run()
    assert rec.finish_reason == "done"
    assert rec.steps[0].result.stdout == "5\n"
    assert rec.usage.calls == 2 and rec.usage.input_tokens > 0
    first = server.requests[0].json
    assert first["model"] == "local-model" and first["messages"][0] == {"role": "system", "content": "be brief"}
    assert "5" in str(server.requests[1].json["messages"][-1])
