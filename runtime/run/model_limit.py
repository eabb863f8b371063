"""``models.max_concurrency``: at most N model calls in flight per provider.

The limit holds across every worker of a run. With the thread backend the
slots are a semaphore in this process; with the Ray backend they are a named
Ray actor that every actor on every node asks (``ray_backend.RaySlots``), so
the limit holds cluster-wide. 429s are still backed off by the adapters.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from ..agent.models.base import Message, Model, ModelReply
from ..config import Config

if TYPE_CHECKING:
    from ..tasks.task import Task


class Slots(Protocol):
    def acquire(self) -> object: ...  # what it returns is not used (a semaphore's True)

    def release(self) -> None: ...


SlotsFactory = Callable[[str, int], Slots]
"""(provider, limit) -> the slots every worker of the run shares for that provider."""

_local: dict[str, threading.BoundedSemaphore] = {}
_local_lock = threading.Lock()


def local_slots(provider: str, limit: int) -> Slots:
    """One semaphore per provider for this process (the thread backend's workers share it)."""
    with _local_lock:
        sem = _local.get(provider)
        if sem is None or getattr(sem, "_initial_value", limit) != limit:
            sem = _local[provider] = threading.BoundedSemaphore(limit)
        return sem


def provider_of(model_name: str) -> str:
    """``anthropic/claude-x`` -> ``anthropic``; an offline model (reference, noop) is its own name."""
    return model_name.partition("/")[0]


class LimitedModel(Model):
    """A model whose ``reply`` first takes one of its provider's shared slots."""

    def __init__(self, inner: Model, slots: Slots) -> None:
        self._inner, self._slots = inner, slots
        self.name = inner.name

    @property
    def deadline(self) -> float | None:  # the agent sets it on the model it holds: pass it on
        return self._inner.deadline

    @deadline.setter
    def deadline(self, value: float | None) -> None:
        self._inner.deadline = value

    @property
    def epoch(self) -> int:  # likewise: the inner model picks its script by it
        return self._inner.epoch

    @epoch.setter
    def epoch(self, value: int) -> None:
        self._inner.epoch = value

    def __getattr__(self, attr: str) -> Any:  # code_only and other adapter hints
        return getattr(self._inner, attr)

    def start_episode(self, task: Task) -> None:
        self._inner.start_episode(task)

    def check_ready(self) -> None:
        self._inner.check_ready()

    def reply(self, system: str, messages: list[Message]) -> ModelReply:
        self._slots.acquire()
        try:
            return self._inner.reply(system, messages)
        finally:
            self._slots.release()


def limit_model(model: Model, config: Config, slots: SlotsFactory = local_slots) -> Model:
    """``model`` itself when its provider has no limit, else wrapped in the shared slots."""
    provider = provider_of(model.name)
    limit = config.models.max_concurrency.get(provider)
    if limit is None:
        return model
    return LimitedModel(model, slots(provider, limit))
