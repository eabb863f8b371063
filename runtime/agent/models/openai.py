"""OpenAI Chat Completions, and any server that speaks it (vLLM, Ollama, LM Studio, ...).

The system prompt is the first message (role ``system``); images are
``image_url`` parts holding data URLs. ``base_url`` points the SDK elsewhere.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from ...config import Config
from .base import Message
from .registry import model_provider
from .remote import ParsedReply, RemoteModel, image_note, stainless_classify
from .retry import Failure


class OpenAIModel(RemoteModel):
    provider = "openai"
    sdk_module = "openai"
    sdk_package = "openai"
    default_url = "https://api.openai.com/v1"

    @property
    def official_api(self) -> bool:
        url = self.settings.base_url
        return url is None or "api.openai.com" in url

    def make_client(self, sdk: ModuleType, api_key: str | None) -> Any:
        return sdk.OpenAI(
            # Local servers often need no key, but the SDK refuses to start without one.
            api_key=api_key or "none",
            base_url=self.settings.base_url,
            timeout=self.settings.timeout,
            max_retries=0,  # retry.py owns retries
        )

    def build_request(self, system: str, messages: list[Message]) -> dict[str, Any]:
        wire: list[dict[str, Any]] = []
        if system:
            wire.append({"role": "system", "content": system})
        wire.extend(_message(m) for m in messages)
        request: dict[str, Any] = {"model": self.model_id, "messages": wire}
        # OpenAI's own API deprecated max_tokens (reasoning models reject it);
        # compatible servers widely understand only max_tokens.
        key = "max_completion_tokens" if self.official_api else "max_tokens"
        request[key] = self.settings.max_tokens
        if self.settings.temperature is not None:
            request["temperature"] = self.settings.temperature
        return request

    def send(self, client: Any, request: dict[str, Any], timeout: float) -> Any:
        return client.chat.completions.create(**request, timeout=timeout)

    def classify(self, exc: BaseException) -> Failure | None:
        return stainless_classify(self.sdk(), exc)

    def parse(self, raw: Any) -> ParsedReply:
        choices = getattr(raw, "choices", None)
        if not isinstance(choices, list) or not choices:
            raise self.malformed("no choices", raw)
        message = getattr(choices[0], "message", None)
        if message is None:
            raise self.malformed("the first choice has no message", raw)
        content = getattr(message, "content", None)
        if content is None:
            refusal = getattr(message, "refusal", None)
            if isinstance(refusal, str) and refusal:
                content = refusal  # the model declined: that is its reply (no code)
            else:
                raise self.malformed("the message has no content", raw)
        if not isinstance(content, str):
            raise self.malformed(f"content is {type(content).__name__}, not text", raw)
        usage = getattr(raw, "usage", None)  # local servers may omit it
        return ParsedReply(
            content,
            getattr(usage, "prompt_tokens", None) or 0,
            getattr(usage, "completion_tokens", None) or 0,
        )


@model_provider("openai", extra="openai", sdk="openai")
def openai_model(model_name: str, config: Config, environ: Mapping[str, str]) -> OpenAIModel:
    return OpenAIModel(model_name, config.providers["openai"], environ)


def _message(message: Message) -> dict[str, Any]:
    if message.role == "assistant" or not message.images:
        text = message.text
        if message.images:
            text = f"{text}\n{image_note(len(message.images))}"
        return {"role": message.role, "content": text}
    parts: list[dict[str, Any]] = [
        {"type": "text", "text": part} if isinstance(part, str) else
        {
            "type": "image_url",
            "image_url": {
                "url": f"data:{part.media_type};base64,{base64.b64encode(part.data).decode('ascii')}"
            },
        }
        for part in message.blocks()
    ]
    return {"role": "user", "content": parts}
