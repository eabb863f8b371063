"""Model providers by name: ``make_model("anthropic/claude-x")`` finds the factory registered as
``anthropic`` and calls it with ``claude-x``.

A provider is a factory ``(model_name, config, environ) -> Model`` decorated with
``@model_provider("name")``. The built-in ones register when ``deskact.runtime.agent.models`` is
imported; a package adds its own with an entry point in the ``deskact.models`` group, naming
either the factory or a module whose import registers it::

    [project.entry-points."deskact.models"]
    mine = "mypkg.models:make_mine"

Its settings are ``config.providers["mine"]`` (same fields as the built-in providers). A provider
whose SDK is an optional dependency names it (``sdk``) and the deskact extra that installs it
(``extra``): a missing SDK is an error naming the extra when the model is made, before any task runs.
"""

from __future__ import annotations

import difflib
import importlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from types import ModuleType
from typing import TypeVar

from ...config import Config, load_config
from ...errors import ModelError
from .base import Model

ENTRY_POINT_GROUP = "deskact.models"

ModelFactory = Callable[[str, Config, Mapping[str, str]], Model]
"""(the model's name after ``provider/``, "" for a bare name; the effective config; the environment
API keys are read from) -> the Model."""
Factory = TypeVar("Factory", bound=ModelFactory)


@dataclass(frozen=True)
class Provider:
    name: str
    factory: ModelFactory
    extra: str | None = None
    """The deskact extra that installs the SDK: ``pip install 'deskact[<extra>]'``."""
    sdk: str | None = None
    """Module the provider's models need, imported when a model is made (a missing one fails early)."""
    takes_model: bool = True
    """Written ``name/<model>``; False for a model that is its name alone (``reference``)."""
    usage: str | None = None
    """How it is shown among the known models (``scripted/<file>``); None = not shown."""


_registry: dict[str, Provider] = {}


def model_provider(name: str, *, extra: str | None = None, sdk: str | None = None, takes_model: bool = True,
                   usage: str | None = "") -> Callable[[Factory], Factory]:
    """Register the decorated factory as provider ``name`` (the part of a model name before ``/``).

    ``usage`` defaults to ``name/<model>`` (or ``name``); None keeps it out of lists of known models.
    """
    if "/" in name or not name.strip():
        raise ValueError(f"provider name {name!r}: a non-empty name without '/'")

    def register(factory: Factory) -> Factory:
        shown = (f"{name}/<model>" if takes_model else name) if usage == "" else usage
        _registry[name] = Provider(name, factory, extra=extra, sdk=sdk, takes_model=takes_model, usage=shown)
        return factory

    return register


def registered() -> dict[str, Provider]:
    """The providers registered so far (built-in ones, and entry points already loaded)."""
    return dict(_registry)


def find_provider(name: str) -> Provider | None:
    """The provider called ``name``: registered, else loaded from its ``deskact.models`` entry point."""
    if name not in _registry:
        _load_entry_point(name)
    return _registry.get(name)


def _load_entry_point(name: str) -> None:
    found = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
    if not found:
        return
    ep = found[0]
    try:
        target = ep.load()
    except Exception as exc:  # whatever the plugin's import raises is the plugin's problem, named
        raise ModelError(f"model provider {name!r} (entry point {ep.value} in {ENTRY_POINT_GROUP}) cannot be "
                         f"loaded: {type(exc).__name__}: {exc}") from exc
    if name in _registry:  # a module (or a factory's module) that registered it
        return
    if isinstance(target, ModuleType) or not callable(target):
        raise ModelError(f"model provider {name!r}: entry point {ep.value} registered no provider {name!r} "
                         f"(decorate its factory with @model_provider({name!r}) or point the entry point at it)")
    _registry[name] = Provider(name, target, usage=f"{name}/<model>")


def _plugin_names() -> list[str]:
    return [ep.name for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name not in _registry]


def known_models() -> str:
    """Every model name a user can give, as written in error messages and ``--help``."""
    shown = [p.usage for p in _registry.values() if p.usage]
    return ", ".join(shown + [f"{name}/<model>" for name in _plugin_names()])


def make_model(name: str, config: Config | None = None, environ: Mapping[str, str] | None = None) -> Model:
    """Build the model named ``provider/model`` (or a bare name such as ``reference``).

    ``environ`` (default os.environ, read when the model is used) supplies API keys.
    Call ``check_ready()`` on the result before starting tasks.
    """
    config = config or load_config()
    name = name.strip()
    provider_name, sep, rest = name.partition("/")
    provider = find_provider(provider_name)
    if provider is None:
        raise ModelError(f"unknown model {name!r}: {_hint(name)}known models are {known_models()}")
    if provider.takes_model and not rest:
        raise ModelError(f"model {name!r}: give the model after the provider, e.g. {provider.usage or provider_name + '/<model>'}")
    if not provider.takes_model and sep:
        raise ModelError(f"model {name!r}: {provider_name} takes nothing after it; give {provider_name!r}")
    require_sdk(provider)
    return provider.factory(rest, config, os.environ if environ is None else environ)


def require_sdk(provider: Provider) -> None:
    """Import the provider's SDK now, so a missing one is an error before any task starts."""
    if provider.sdk is None:
        return
    try:
        importlib.import_module(provider.sdk)
    except ImportError as exc:
        install = f"pip install 'deskact[{provider.extra}]'" if provider.extra else f"pip install {provider.sdk}"
        raise ModelError(f"{provider.name} models need the {provider.sdk} package, which is not installed ({exc}): "
                         f"{install}") from None


def _hint(name: str) -> str:
    """``did you mean 'reference'? `` for ``referense``, ``'anthropic/x'`` for ``antropic/x``."""
    provider, sep, rest = name.partition("/")
    names = [*_registry, *_plugin_names()]
    if sep:
        close = difflib.get_close_matches(provider, [n for n in names if _takes_model(n)], n=1)
        return f"did you mean {close[0] + '/' + rest!r}? " if close else ""
    close = difflib.get_close_matches(name, [n for n in names if not _takes_model(n) and _shown(n)], n=1)
    return f"did you mean {close[0]!r}? " if close else ""


def _takes_model(name: str) -> bool:
    return name not in _registry or _registry[name].takes_model


def _shown(name: str) -> bool:
    return name not in _registry or _registry[name].usage is not None
