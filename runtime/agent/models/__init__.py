"""Model adapters. ``make_model(name, config)`` is the way in (``registry.py``).

Names: ``anthropic/<model>`` (Messages API), ``openai/<model>`` (Chat
Completions, also any OpenAI-compatible server through
``providers.openai.base_url``), ``google/<model>`` (the ``google-genai`` SDK;
``google-generativeai`` is deprecated by Google and not used), and the offline
``reference``, ``noop``, ``explore`` (read-only looking around), ``scripted/<file>``,
``human``; ``counterexample/<n>`` replays each task's n-th counterexample. A package
adds a provider (or a whole agent) with an entry point in the ``deskact.models`` group.

Each provider's SDK is an extra (``pip install 'deskact[anthropic]'``), imported when a
model of that provider is made. Provider settings live in ``config.providers["<name>"]``
(base_url, api_key_env, timeout, temperature, max_tokens, max_retries, backoff_initial,
backoff_max), e.g. ``DESKACT_PROVIDERS_OPENAI_BASE_URL=http://localhost:8000/v1``.
Retries are ours (retry.py), not the SDKs'.
"""

from __future__ import annotations  # noqa: I001 (the providers' order below is the order users see)

# Imported for their @model_provider registrations, in the order known_models() lists them.
from . import anthropic, openai, google, offline  # noqa: F401
from .base import Message, Model, ModelReply, Usage
from .registry import ModelFactory, Provider, known_models, make_model, model_provider
from .retry import ModelCallError

__all__ = [
    "Message",
    "Model",
    "ModelCallError",
    "ModelFactory",
    "ModelReply",
    "Provider",
    "Usage",
    "known_models",
    "make_model",
    "model_provider",
]
