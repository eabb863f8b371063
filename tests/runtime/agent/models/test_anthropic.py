"""What the anthropic SDK puts on the wire for our messages (Messages API)."""

from __future__ import annotations

import base64

from deskact.runtime.agent.models import Message
from fake_servers import Canned, FakeAnthropicServer
from provider_support import model_for, png, trimmed_history

HISTORY = trimmed_history(png(3))


def _images(block_list: list[dict]) -> list[bytes]:
    return [base64.b64decode(b["source"]["data"]) for b in block_list if b["type"] == "image"]


def test_request_shape_system_images_history() -> None:
    with FakeAnthropicServer(replies=["ok"]) as server:
        model_for("anthropic", server, max_tokens=321).reply("SYSTEM PROMPT", HISTORY)
    request = server.requests[0]
    assert request.path == "/v1/messages"
    assert request.headers["authorization"] == "Bearer key-anthropic"
    assert "anthropic-version" in request.headers
    body = request.json
    assert body["model"] == "claude-test"
    assert body["max_tokens"] == 321
    # System prompt: the top-level field, never a message.
    assert body["system"] == "SYSTEM PROMPT"
    assert [m["role"] for m in body["messages"]] == [
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
    ]
    assert all("SYSTEM PROMPT" not in str(m) for m in body["messages"])
    # Images: base64 image blocks with media type, in history order, before the text.
    first, _, second, _, third = body["messages"]
    assert _images(first["content"]) == []
    assert first["content"] == [
        {"type": "text", "text": "Task: rename the file.\n[older screenshot removed]"}
    ]
    assert _images(second["content"]) == [png(2).data]
    assert _images(third["content"]) == [png(3).data]
    assert third["content"][0]["source"]["type"] == "base64"
    assert third["content"][0]["source"]["media_type"] == "image/png"
    assert third["content"][-1] == {"type": "text", "text": "Output: 2"}
    sent_images = sum(len(_images(m["content"])) for m in body["messages"])
    assert sent_images == 2
    # The 2026-10-21 API rejects sampling parameters: not sent unless configured.
    assert "temperature" not in body


def test_configured_temperature_is_sent() -> None:
    with FakeAnthropicServer(replies=["ok"]) as server:
        model_for("anthropic", server, temperature=0.3).reply("s", HISTORY[:1])
    assert server.requests[0].json["temperature"] == 0.3


def test_assistant_images_become_a_note_and_empty_turns_keep_their_place() -> None:
    messages = [
        Message(role="user", text="", images=[png(1)]),
        Message(role="assistant", text="look", images=[png(9)]),
        Message(role="user", text=""),
    ]
    with FakeAnthropicServer(replies=["ok"]) as server:
        model_for("anthropic", server).reply("", messages)
    body = server.requests[0].json
    assert "system" not in body  # an empty system prompt is left out, not sent empty
    user, assistant, empty = body["messages"]
    assert [b["type"] for b in user["content"]] == ["image"]
    assert assistant["content"][0]["text"].startswith("look\n[1 image(s) omitted")
    assert empty["content"] == [{"type": "text", "text": "(empty)"}]


def test_text_of_several_blocks_is_joined_and_cache_tokens_count_as_input() -> None:
    body = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": [
            {"type": "thinking", "thinking": "hmm", "signature": "x"},
            {"type": "text", "text": "first "},
            {"type": "text", "text": "second"},
        ],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 5, "cache_read_input_tokens": 100, "output_tokens": 9},
    }
    with FakeAnthropicServer(replies=[Canned(body=body)]) as server:
        reply = model_for("anthropic", server).reply("s", HISTORY[:1])
    assert reply.text == "first second"
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (105, 9)


def test_consecutive_user_turns_are_merged_in_order() -> None:
    messages = [
        Message(role="user", text="Output: 3", images=[png(5)]),
        Message(role="user", text="Now write a plan."),
    ]
    with FakeAnthropicServer(replies=["ok"]) as server:
        model_for("anthropic", server).reply("s", messages)
    (turn,) = server.requests[0].json["messages"]
    assert turn["role"] == "user"
    assert [b["type"] for b in turn["content"]] == ["image", "text", "text"]
    assert turn["content"][2] == {"type": "text", "text": "Now write a plan."}
