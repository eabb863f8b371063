"""Helpers for the model adapter tests: real adapters pointed at fake provider servers."""

from __future__ import annotations

import time
from typing import Any

from deskact.runtime.agent.models import Message, make_model
from deskact.runtime.agent.models.remote import RemoteModel
from deskact.runtime.config import Config
from deskact.runtime.execution import Image
from fake_servers import FakeAnthropicServer, FakeGeminiServer, FakeOpenAIServer, FakeServer

SERVERS: dict[str, type[FakeServer]] = {
    "anthropic": FakeAnthropicServer,
    "openai": FakeOpenAIServer,
    "google": FakeGeminiServer,
}
MODEL_IDS = {"anthropic": "claude-test", "openai": "gpt-test", "google": "gemini-test"}
TEST_KEYS = {
    "ANTHROPIC_API_KEY": "key-anthropic",
    "OPENAI_API_KEY": "key-openai",
    "GEMINI_API_KEY": "key-gemini",
}


def model_for(provider: str, server: FakeServer, **settings: Any) -> RemoteModel:
    """A real adapter (real SDK) talking to ``server``; tiny backoffs keep tests fast."""
    config = Config()
    section = getattr(config.providers, provider)
    section.base_url = server.url
    section.backoff_initial = 0.01
    section.backoff_max = 5.0
    section.max_retries = 3
    for key, value in settings.items():
        setattr(section, key, value)
    model = make_model(f"{provider}/{MODEL_IDS[provider]}", config, environ=TEST_KEYS)
    assert isinstance(model, RemoteModel)
    return model


class SleepRecorder:
    """Stands in for time.sleep: really sleeps (the server sees real gaps) and keeps the values."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        time.sleep(seconds)


def png(tag: int) -> Image:
    """A distinct small 'screenshot' per tag (content is irrelevant to the APIs under test)."""
    return Image(media_type="image/png", data=b"\x89PNG\r\n\x1a\n" + bytes([tag]) * 16)


def trimmed_history(*last_images: Image) -> list[Message]:
    """An episode after the agent trimmed old screenshots: the first observation lost
    its image (a note says so), the last two keep theirs (``last_images`` for the latest).
    """
    return [
        Message(role="user", text="Task: rename the file.\n[older screenshot removed]"),
        Message(role="assistant", text="```python\nprint(1)\n```"),
        Message(role="user", text="Output: 1", images=[png(2)]),
        Message(role="assistant", text="```python\nprint(2)\n```"),
        Message(role="user", text="Output: 2", images=list(last_images)),
    ]
