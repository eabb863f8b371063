"""An OpenAI-compatible server (vLLM, Ollama, ...) set up through environment variables only."""

from __future__ import annotations

import pytest
from deskact.runtime.agent.models import Message, make_model
from deskact.runtime.config import load_config
from deskact.runtime.errors import MissingAPIKey
from fake_servers import FakeOpenAIServer


def test_env_only_configuration_reaches_the_local_server(monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeOpenAIServer(replies=["```python\nexit()\n```"]) as server:
        monkeypatch.setenv("DESKACT_PROVIDERS_OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("DESKACT_PROVIDERS_OPENAI_API_KEY_ENV", "LOCAL_LLM_KEY")
        monkeypatch.setenv("LOCAL_LLM_KEY", "sk-local")
        monkeypatch.setenv("DESKACT_PROVIDERS_OPENAI_TIMEOUT", "5")
        model = make_model("openai/some-local-model", load_config())
        model.check_ready()
        reply = model.reply("sys", [Message(role="user", text="finish")])
    assert reply.text == "```python\nexit()\n```"
    request = server.requests[0]
    assert request.headers["authorization"] == "Bearer sk-local"
    assert request.json["model"] == "some-local-model"
    assert request.json["max_tokens"] == 4096


def test_server_without_key_when_key_variable_is_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with FakeOpenAIServer(replies=["hello"]) as server:
        monkeypatch.setenv("DESKACT_PROVIDERS_OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("DESKACT_PROVIDERS_OPENAI_API_KEY_ENV", "")
        model = make_model("openai/llama3", load_config())
        model.check_ready()  # no key needed: no error
        assert model.reply("", [Message(role="user", text="hi")]).text == "hello"


def test_missing_key_variable_from_env_config_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DESKACT_PROVIDERS_OPENAI_API_KEY_ENV", "MY_VLLM_TOKEN")
    monkeypatch.delenv("MY_VLLM_TOKEN", raising=False)
    model = make_model("openai/some-local-model", load_config())
    with pytest.raises(MissingAPIKey, match="MY_VLLM_TOKEN"):
        model.check_ready()
