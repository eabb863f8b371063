"""What the google-genai SDK puts on the wire for our messages (generateContent)."""

from __future__ import annotations

import base64

import pytest
from deskact.runtime.errors import ModelError
from fake_servers import Canned, FakeGeminiServer
from provider_support import model_for, png, trimmed_history

HISTORY = trimmed_history(png(3))


def _inline(parts: list[dict]) -> list[tuple[str, bytes]]:
    out = []
    for part in parts:
        blob = part.get("inlineData") or part.get("inline_data")
        if blob:
            mime = blob.get("mimeType") or blob.get("mime_type")
            out.append((mime, base64.b64decode(blob["data"])))
    return out


def test_request_shape_system_images_history() -> None:
    with FakeGeminiServer(replies=["ok"]) as server:
        model_for("google", server, max_tokens=321, temperature=0.0).reply("SYSTEM PROMPT", HISTORY)
    request = server.requests[0]
    assert request.path.endswith("/models/gemini-test:generateContent")
    assert request.headers["x-goog-api-key"] == "key-gemini"
    body = request.json
    # System prompt: systemInstruction, not a turn.
    assert body["systemInstruction"]["parts"] == [{"text": "SYSTEM PROMPT"}]
    assert all("SYSTEM PROMPT" not in str(c) for c in body["contents"])
    # Roles: the assistant is "model" on this wire.
    assert [c["role"] for c in body["contents"]] == ["user", "model", "user", "model", "user"]
    assert _inline(body["contents"][0]["parts"]) == []
    assert _inline(body["contents"][2]["parts"]) == [("image/png", png(2).data)]
    assert _inline(body["contents"][4]["parts"]) == [("image/png", png(3).data)]
    assert body["contents"][4]["parts"][-1] == {"text": "Output: 2"}
    assert sum(len(_inline(c["parts"])) for c in body["contents"]) == 2
    assert body["generationConfig"]["maxOutputTokens"] == 321
    assert body["generationConfig"]["temperature"] == 0.0
    assert "tools" not in body


def test_thought_parts_are_not_the_answer_and_count_as_output_tokens() -> None:
    body = {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [{"text": "thinking...", "thought": True}, {"text": "answer"}],
                },
                "finishReason": "STOP",
            }
        ],
        "usageMetadata": {
            "promptTokenCount": 20,
            "candidatesTokenCount": 3,
            "thoughtsTokenCount": 40,
        },
    }
    with FakeGeminiServer(replies=[Canned(body=body)]) as server:
        reply = model_for("google", server).reply("s", HISTORY[:1])
    assert reply.text == "answer"
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (20, 43)


def test_blocked_prompt_is_a_clear_error() -> None:
    body = {"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": {"promptTokenCount": 5}}
    with (
        FakeGeminiServer(replies=[Canned(body=body)]) as server,
        pytest.raises(ModelError, match="prompt blocked: .*SAFETY"),
    ):
        model_for("google", server).reply("s", HISTORY[:1])


def test_candidate_without_parts_names_the_finish_reason() -> None:
    body = {"candidates": [{"content": {"role": "model"}, "finishReason": "MAX_TOKENS"}]}
    with (
        FakeGeminiServer(replies=[Canned(body=body)]) as server,
        pytest.raises(ModelError, match="MAX_TOKENS"),
    ):
        model_for("google", server).reply("s", HISTORY[:1])
