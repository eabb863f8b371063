"""reference, noop, scripted/<file>, human, and make_model's name parsing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from deskact.runtime.agent.models import Message, make_model
from deskact.runtime.agent.models.anthropic import AnthropicModel
from deskact.runtime.agent.models.google import GoogleModel
from deskact.runtime.agent.models.offline import (
    EXIT_REPLY,
    Human,
    Noop,
    Reference,
    Scripted,
    python_block,
)
from deskact.runtime.agent.models.openai import OpenAIModel
from deskact.runtime.agent.parsing import extract_code
from deskact.runtime.config import Config
from deskact.runtime.errors import ModelError
from deskact.runtime.execution import Image
from deskact.runtime.tasks.task import Task

HI = [Message(role="user", text="go")]
REFERENCE = "!mkdir -p reports\n%ls\nprint('made')\nexit()"


def _task(reference: str | None = REFERENCE, task_id: str = "os-make-reports") -> Task:
    return Task(id=task_id, instruction="Make a reports folder.", judge=[], reference=reference)


def test_reference_replays_the_solution_once_then_exits() -> None:
    model = make_model("reference", Config())
    model.check_ready()
    model.start_episode(_task())
    first = model.reply("sys", HI)
    assert extract_code(first.text).code == REFERENCE  # ! and % lines kept for the kernel
    assert model.reply("sys", HI).text == EXIT_REPLY
    model.start_episode(_task())  # a new episode starts over
    assert extract_code(model.reply("sys", HI).text).code == REFERENCE


def test_reference_with_backticks_inside_still_parses() -> None:
    code = 'text = """```python\\nx\\n```"""\nprint(text)\nexit()'
    block = python_block(code)
    assert block.startswith("````python")
    assert extract_code(block).code == code


def test_reference_missing_names_the_task() -> None:
    model = Reference()
    model.start_episode(_task(reference=None, task_id="no-solution-task"))
    with pytest.raises(ModelError, match="no-solution-task"):
        model.reply("sys", HI)
    with pytest.raises(ModelError, match="start_episode"):
        Reference().reply("sys", HI)


def test_noop_exits_at_once() -> None:
    model = make_model("noop", Config())
    assert isinstance(model, Noop)
    reply = model.reply("sys", HI)
    assert extract_code(reply.text).code == "exit()"
    assert reply.usage.calls == 1


def test_scripted_from_yaml(tmp_path: Path) -> None:
    path = tmp_path / "replies.yaml"
    path.write_text("- |\n  ```python\n  print(1)\n  ```\n- reply: no code here\n")
    model = make_model(f"scripted/{path}", Config())
    assert model.name == f"scripted/{path}"
    assert extract_code(model.reply("s", HI).text).code == "print(1)"
    assert model.reply("s", HI).text == "no code here"
    with pytest.raises(ModelError, match=r"script exhausted after 2 replies .*replies.yaml"):
        model.reply("s", HI)
    model.start_episode(_task())
    assert extract_code(model.reply("s", HI).text).code == "print(1)"


def test_scripted_from_jsonl(tmp_path: Path) -> None:
    path = tmp_path / "replies.jsonl"
    path.write_text(json.dumps({"reply": "one"}) + "\n\n" + json.dumps({"reply": "two"}) + "\n")
    model = Scripted.from_file(path)
    assert [model.reply("s", HI).text, model.reply("s", HI).text] == ["one", "two"]


@pytest.mark.parametrize(
    ("name", "content", "error"),
    [
        ("bad.jsonl", '{"reply": "ok"}\nnot json\n', r"bad.jsonl:2: not JSON"),
        ("bad.jsonl", '{"text": "wrong key"}\n', r"bad.jsonl:1: expected a string"),
        ("bad.yaml", "reply: not a list\n", r"bad.yaml: expected a list of replies, got dict"),
        ("bad.yaml", "- ok\n- 42\n", r"bad.yaml: item 2: expected a string"),
        ("bad.yaml", "- [unclosed\n", r"bad.yaml: not valid YAML"),
    ],
)
def test_scripted_file_errors_name_file_and_place(
    tmp_path: Path, name: str, content: str, error: str
) -> None:
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(ModelError, match=error):
        Scripted.from_file(path)


def test_scripted_missing_file() -> None:
    with pytest.raises(ModelError, match="nowhere.yaml: script file not found"):
        make_model("scripted/nowhere.yaml", Config())


def test_human_reads_lines_until_a_dot(tmp_path: Path) -> None:
    typed = iter(["```python", "print('by hand')", "```", ".", "second reply", "."])
    shown: list[str] = []
    model = Human(read_line=lambda prompt: next(typed), write=shown.append, image_dir=tmp_path)
    screenshot = Image(media_type="image/png", data=b"\x89PNG fake")
    reply = model.reply("SYSTEM", [Message(role="user", text="the task", images=[screenshot])])
    assert extract_code(reply.text).code == "print('by hand')"
    assert model.reply("SYSTEM", HI).text == "second reply"
    output = "\n".join(shown)
    assert output.count("SYSTEM") == 1  # the system prompt is shown once per episode
    assert "the task" in output
    saved = list(tmp_path.glob("observation-*.png"))
    assert len(saved) == 1 and saved[0].read_bytes() == b"\x89PNG fake"


def test_human_input_closed_is_a_model_error() -> None:
    def closed(prompt: str) -> str:
        raise EOFError

    with pytest.raises(ModelError, match="input ended"):
        Human(read_line=closed, write=lambda s: None).reply("s", HI)


def test_make_model_names() -> None:
    config = Config()
    assert isinstance(make_model("anthropic/claude-sonnet-4-5", config), AnthropicModel)
    assert isinstance(make_model("openai/gpt-4o", config), OpenAIModel)
    google = make_model("google/gemini-2.5-pro", config)
    assert isinstance(google, GoogleModel) and google.name == "google/gemini-2.5-pro"
    # Model ids may contain slashes (OpenAI-compatible servers: org/model).
    local = make_model("openai/meta-llama/Llama-3.1-8B-Instruct", config)
    assert isinstance(local, OpenAIModel) and local.model_id == "meta-llama/Llama-3.1-8B-Instruct"
    assert isinstance(make_model("human", config), Human)


@pytest.mark.parametrize("name", ["mistral/large", "gpt-4o", "claude"])
def test_unknown_model_lists_the_known_ones(name: str) -> None:
    with pytest.raises(ModelError) as info:
        make_model(name, Config())
    message = str(info.value)
    assert repr(name) in message
    for known in (
        "anthropic/<model>",
        "openai/<model>",
        "google/<model>",
        "reference",
        "noop",
        "scripted/<file>",
        "human",
    ):
        assert known in message


def test_provider_without_model_is_an_error() -> None:
    with pytest.raises(ModelError, match="give the model"):
        make_model("anthropic/", Config())
    with pytest.raises(ModelError, match="give the model"):
        make_model("openai", Config())


def test_human_without_stdin_is_a_model_error() -> None:
    class StdinNotImplementedError(NotImplementedError):  # what IPython raises under nbclient
        pass

    def no_stdin(prompt: str) -> str:
        raise StdinNotImplementedError(
            "raw_input was called, but this frontend does not support input requests."
        )

    with pytest.raises(ModelError, match="cannot read input"):
        Human(read_line=no_stdin, write=lambda s: None).reply("s", HI)
