"""Gemini through the ``google-genai`` SDK (``google-generativeai`` is deprecated by Google).

The system prompt goes in ``config.system_instruction``; images are
``inline_data`` parts; the assistant role is called ``model`` on the wire.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from ...config import Config
from .base import Message
from .registry import model_provider
from .remote import ParsedReply, RemoteModel, image_note, invalid_json
from .retry import Failure, parse_retry_after


class GoogleModel(RemoteModel):
    provider = "google"
    sdk_module = "google.genai"
    sdk_package = "google-genai"
    default_url = "https://generativelanguage.googleapis.com"

    def make_client(self, sdk: ModuleType, api_key: str | None) -> Any:
        types = self._types()
        options = types.HttpOptions(
            base_url=self.settings.base_url,
            timeout=_millis(self.settings.timeout),
            retry_options=types.HttpRetryOptions(attempts=1),  # retry.py owns retries
        )
        return sdk.Client(api_key=api_key or "none", http_options=options)

    def _types(self) -> ModuleType:
        self.sdk()
        from google.genai import types

        return types

    def build_request(self, system: str, messages: list[Message]) -> dict[str, Any]:
        types = self._types()
        config = types.GenerateContentConfig(
            system_instruction=system or None,
            temperature=self.settings.temperature,
            max_output_tokens=self.settings.max_tokens,
            # No tools are declared; keep the SDK from looping on its own.
            automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
        )
        contents = [_content(types, m) for m in messages]
        return {"model": self.model_id, "contents": contents, "config": config}

    def send(self, client: Any, request: dict[str, Any], timeout: float) -> Any:
        types = self._types()
        config = request["config"].model_copy(
            update={
                "http_options": types.HttpOptions(
                    timeout=_millis(timeout), retry_options=types.HttpRetryOptions(attempts=1)
                )
            }
        )
        return client.models.generate_content(**{**request, "config": config})

    def classify(self, exc: BaseException) -> Failure | None:
        self.sdk()
        from google.genai import errors

        if isinstance(exc, errors.APIError):
            response = getattr(exc, "response", None)
            headers = getattr(response, "headers", None)
            try:
                body = str(response.text) if response is not None else ""
            except Exception:  # noqa: BLE001 - replayed/closed responses have no text
                body = ""
            return Failure(
                "status",
                status=int(exc.code) if exc.code else None,
                body=body or str(exc),
                retry_after=parse_retry_after(headers),
            )
        # The SDK lets the HTTP library's transport errors through unwrapped.
        for module_name in ("httpx2", "httpx"):
            try:
                http = __import__(module_name)
            except ImportError:
                continue
            if isinstance(exc, http.TimeoutException):
                return Failure("timeout", body=str(exc) or type(exc).__name__)
            if isinstance(exc, http.TransportError):
                return Failure("connection", body=str(exc) or type(exc).__name__)
        if isinstance(exc, json.JSONDecodeError):
            return invalid_json(exc)
        return None

    def parse(self, raw: Any) -> ParsedReply:
        candidates = getattr(raw, "candidates", None)
        if not candidates:
            feedback = getattr(raw, "prompt_feedback", None)
            reason = getattr(feedback, "block_reason", None)
            what = f"no candidates (prompt blocked: {reason})" if reason else "no candidates"
            raise self.malformed(what, raw)
        candidate = candidates[0]
        content = getattr(candidate, "content", None)
        parts = getattr(content, "parts", None)
        if not parts:
            finish = getattr(candidate, "finish_reason", None)
            raise self.malformed(
                f"the candidate has no content parts (finish_reason: {finish})", raw
            )
        # Thought summaries are not the answer.
        text = "".join(
            p.text for p in parts if getattr(p, "text", None) and not getattr(p, "thought", False)
        )
        usage = getattr(raw, "usage_metadata", None)
        out_tokens = (getattr(usage, "candidates_token_count", None) or 0) + (
            getattr(usage, "thoughts_token_count", None) or 0
        )
        return ParsedReply(text, getattr(usage, "prompt_token_count", None) or 0, out_tokens)


@model_provider("google", extra="google", sdk="google.genai")
def google_model(model_name: str, config: Config, environ: Mapping[str, str]) -> GoogleModel:
    return GoogleModel(model_name, config.providers["google"], environ)


def _millis(seconds: float) -> int:
    """This SDK counts timeouts in whole milliseconds."""
    return max(1, int(seconds * 1000))


def _content(types: ModuleType, message: Message) -> Any:
    parts: list[Any] = []
    text = message.text
    if message.role == "assistant":
        if message.images:
            text = f"{text}\n{image_note(len(message.images))}"
    else:
        blocks = message.blocks()
        parts.extend(
            types.Part(text=part) if isinstance(part, str)
            else types.Part(inline_data=types.Blob(mime_type=part.media_type, data=part.data))
            for part in blocks
        )
        text = ""  # the blocks hold the text, in its place among the images
    if text or not parts:
        parts.append(types.Part(text=text or "(empty)"))
    return types.Content(role="model" if message.role == "assistant" else "user", parts=parts)
