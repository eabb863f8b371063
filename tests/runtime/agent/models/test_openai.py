"""What the openai SDK puts on the wire for our messages (Chat Completions)."""

from __future__ import annotations

import base64

import pytest
from deskact.runtime.agent.models import make_model
from deskact.runtime.agent.models.openai import OpenAIModel
from deskact.runtime.config import Config
from deskact.runtime.errors import ModelError
from fake_servers import Canned, FakeOpenAIServer
from provider_support import TEST_KEYS, model_for, png, trimmed_history

HISTORY = trimmed_history(png(3), png(4))


def _images(content: object) -> list[tuple[str, bytes]]:
    if isinstance(content, str):
        return []
    out = []
    for part in content:  # type: ignore[union-attr]
        if part["type"] == "image_url":
            url = part["image_url"]["url"]
            header, data = url.split(",", 1)
            out.append((header, base64.b64decode(data)))
    return out


def _local_completion(content: str | None) -> dict[str, object]:
    """A completion as a local server may send it: no usage block."""
    return {
        "id": "x",
        "object": "chat.completion",
        "created": 0,
        "model": "local",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
    }


def test_request_shape_system_images_history() -> None:
    with FakeOpenAIServer(replies=["ok"]) as server:
        model_for("openai", server, max_tokens=321, temperature=0.0).reply("SYSTEM PROMPT", HISTORY)
    request = server.requests[0]
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == "Bearer key-openai"
    body = request.json
    assert body["model"] == "gpt-test"
    # System prompt: the first message, role system.
    assert body["messages"][0] == {"role": "system", "content": "SYSTEM PROMPT"}
    assert [m["role"] for m in body["messages"]] == [
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
    ]
    # Text-only turns are plain strings; image turns are parts with data URLs, in order.
    assert body["messages"][1]["content"] == "Task: rename the file.\n[older screenshot removed]"
    assert body["messages"][2]["content"] == "```python\nprint(1)\n```"
    assert _images(body["messages"][3]["content"]) == [("data:image/png;base64", png(2).data)]
    assert _images(body["messages"][5]["content"]) == [
        ("data:image/png;base64", png(3).data),
        ("data:image/png;base64", png(4).data),
    ]
    assert body["messages"][5]["content"][-1] == {"type": "text", "text": "Output: 2"}
    assert sum(len(_images(m["content"])) for m in body["messages"]) == 3
    # A compatible server gets max_tokens (widely supported) and the temperature.
    assert body["max_tokens"] == 321 and "max_completion_tokens" not in body
    assert body["temperature"] == 0.0


def test_official_api_gets_max_completion_tokens() -> None:
    model = make_model("openai/gpt-4o", Config(), environ=TEST_KEYS)
    assert isinstance(model, OpenAIModel)
    request = model.build_request("s", HISTORY[:1])
    assert request["max_completion_tokens"] == 4096 and "max_tokens" not in request


def test_null_temperature_is_not_sent() -> None:
    with FakeOpenAIServer(replies=["ok"]) as server:
        model_for("openai", server, temperature=None).reply("", HISTORY[:1])
    body = server.requests[0].json
    assert "temperature" not in body
    assert body["messages"][0]["role"] == "user"  # no empty system message


def test_missing_usage_from_a_local_server_counts_zero_tokens() -> None:
    with FakeOpenAIServer(replies=[Canned(body=_local_completion("hi"))]) as server:
        reply = model_for("openai", server).reply("s", HISTORY[:1])
    assert reply.text == "hi"
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (0, 0)


def test_null_content_without_refusal_is_malformed() -> None:
    with (
        FakeOpenAIServer(replies=[Canned(body=_local_completion(None))]) as server,
        pytest.raises(ModelError, match="malformed response: the message has no content"),
    ):
        model_for("openai", server).reply("s", HISTORY[:1])
