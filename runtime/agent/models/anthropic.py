"""Anthropic Messages API: system prompt as the top-level ``system`` field, images as base64 blocks."""

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


class AnthropicModel(RemoteModel):
    provider = "anthropic"
    sdk_module = "anthropic"
    sdk_package = "anthropic"
    default_url = "https://api.anthropic.com"

    def make_client(self, sdk: ModuleType, api_key: str | None) -> Any:
        return sdk.Anthropic(
            api_key=api_key or "none",
            base_url=self.settings.base_url,
            timeout=self.settings.timeout,
            max_retries=0,  # retry.py owns retries
        )

    def build_request(self, system: str, messages: list[Message]) -> dict[str, Any]:
        request: dict[str, Any] = {
            "model": self.model_id,
            "max_tokens": self.settings.max_tokens,
            "messages": _merge_same_role([_message(m) for m in messages]),
        }
        if system:
            request["system"] = system
        if self.settings.temperature is not None:
            # SDK 2.x dropped the parameter (API 2026-10-21 rejects it); a user who
            # configures one gets it sent as-is.
            request["extra_body"] = {"temperature": self.settings.temperature}
        return request

    def send(self, client: Any, request: dict[str, Any], timeout: float) -> Any:
        return client.messages.create(**request, timeout=timeout)

    def classify(self, exc: BaseException) -> Failure | None:
        return stainless_classify(self.sdk(), exc)

    def parse(self, raw: Any) -> ParsedReply:
        content = getattr(raw, "content", None)
        if not isinstance(content, list):
            raise self.malformed("no content list", raw)
        texts = []
        for block in content:
            if getattr(block, "type", None) == "text":
                text = getattr(block, "text", None)
                if not isinstance(text, str):
                    raise self.malformed("a text block without text", raw)
                texts.append(text)
        usage = getattr(raw, "usage", None)
        tokens_in = sum(
            getattr(usage, name, None) or 0
            for name in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
        )
        return ParsedReply("".join(texts), tokens_in, getattr(usage, "output_tokens", None) or 0)


@model_provider("anthropic", extra="anthropic", sdk="anthropic")
def anthropic_model(model_name: str, config: Config, environ: Mapping[str, str]) -> AnthropicModel:
    return AnthropicModel(model_name, config.providers["anthropic"], environ)


def _message(message: Message) -> dict[str, Any]:
    blocks: list[dict[str, Any]] = []
    text = message.text
    if message.role == "assistant" and message.images:
        text = f"{text}\n{image_note(len(message.images))}"
    if message.role == "user":
        # In reading order (a plain turn puts its images first, as Anthropic's vision guide recommends).
        for part in message.blocks():
            if isinstance(part, str):
                blocks.append({"type": "text", "text": part})
                continue
            blocks.append(
                {
                    "type": "image",
                    "source": {
                        "type": "base64",
                        "media_type": part.media_type,
                        "data": base64.b64encode(part.data).decode("ascii"),
                    },
                }
            )
    elif text:
        blocks.append({"type": "text", "text": text})
    if not blocks:
        # The API rejects empty content; an empty turn still has to hold its place.
        blocks.append({"type": "text", "text": "(empty)"})
    return {"role": message.role, "content": blocks}


def _merge_same_role(wire: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Join consecutive turns of one role (the agent appends a plan/reflect prompt to an observation).

    The API documents that it combines them itself; doing it here keeps the request valid
    under any API version and shows in tests exactly what is sent.
    """
    merged: list[dict[str, Any]] = []
    for turn in wire:
        if merged and merged[-1]["role"] == turn["role"]:
            merged[-1] = {"role": turn["role"], "content": merged[-1]["content"] + turn["content"]}
        else:
            merged.append(turn)
    return merged
