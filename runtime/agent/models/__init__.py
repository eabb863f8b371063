"""Model adapters. ``make_model(name, config)`` is the way in.

Names: ``anthropic/<model>`` (Messages API), ``openai/<model>`` (Chat
Completions, also any OpenAI-compatible server through
``providers.openai.base_url``), ``google/<model>`` (the ``google-genai`` SDK;
``google-generativeai`` is deprecated by Google and not used), and the offline
``reference``, ``noop``, ``explore`` (read-only looking around), ``scripted/<file>``,
``human``; ``counterexample/<n>`` replays each task's n-th counterexample.

Each provider's SDK is imported lazily, when a model of that provider is first
used. Provider settings live in ``config.providers.<name>`` (base_url,
api_key_env, timeout, temperature, max_tokens, max_retries, backoff_initial,
backoff_max), e.g. ``DESKACT_PROVIDERS_OPENAI_BASE_URL=http://localhost:8000/v1``.
Retries are ours (retry.py), not the SDKs'.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from pathlib import Path

from ...config import Config, load_config
from ...errors import ModelError
from .base import Message, Model, ModelReply, Usage
from .retry import ModelCallError

PROVIDERS = ("anthropic", "openai", "google")
OFFLINE = ("reference", "noop", "explore", "scripted/<file>", "human")

__all__ = [
    "Message",
    "Model",
    "ModelCallError",
    "ModelReply",
    "Usage",
    "known_models",
    "make_model",
]


def known_models() -> str:
    return ", ".join([f"{p}/<model>" for p in PROVIDERS] + list(OFFLINE))


def make_model(
    name: str, config: Config | None = None, environ: Mapping[str, str] | None = None
) -> Model:
    """Build the model named ``provider/model`` or an offline one.

    ``environ`` (default os.environ, read when the model is used) supplies API keys.
    Call ``check_ready()`` on the result before starting tasks.
    """
    config = config or load_config()
    name = name.strip()
    if name == "reference":
        from .offline import Reference

        return Reference()
    if name == "noop":
        from .offline import Noop

        return Noop()
    if name == "explore":
        from .offline import Explore

        return Explore()
    if name == "human":
        from .offline import Human

        return Human()
    provider, sep, rest = name.partition("/")
    if provider == "counterexample" and rest.isdigit():  # deskact validate's fourth pass
        from .offline import Counterexample

        return Counterexample(int(rest))
    if provider == "scripted":
        if not rest:
            raise ModelError(
                "model scripted/<file>: give the script file, e.g. scripted/replies.yaml"
            )
        from .offline import Scripted

        return Scripted.from_file(Path(rest))
    if provider in PROVIDERS:
        if not sep or not rest:
            raise ModelError(
                f"model {name!r}: give the model after the provider, e.g. {provider}/<model>"
            )
        settings = getattr(config.providers, provider)
        if provider == "anthropic":
            from .anthropic import AnthropicModel as cls
        elif provider == "openai":
            from .openai import OpenAIModel as cls
        else:
            from .google import GoogleModel as cls
        return cls(rest, settings, environ)
    raise ModelError(f"unknown model {name!r}: {_model_hint(name)}known models are {known_models()}")


def _model_hint(name: str) -> str:
    """``did you mean 'reference'? `` for ``referense``, ``'anthropic/x'`` for ``antropic/x``."""
    provider, sep, rest = name.partition("/")
    if sep:
        close = difflib.get_close_matches(provider, [*PROVIDERS, "scripted"], n=1)
        return f"did you mean {close[0] + '/' + rest!r}? " if close else ""
    close = difflib.get_close_matches(name, ["reference", "noop", "explore", "human"], n=1)
    return f"did you mean {close[0]!r}? " if close else ""
