"""The model interface every provider adapter and offline model implements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

from ...execution import Image

if TYPE_CHECKING:
    from ...run.tasks import Task


class Message(BaseModel):
    """One turn of the conversation. The system prompt is passed separately."""

    role: Literal["user", "assistant"]
    text: str
    images: list[Image] = Field(default_factory=list)


class Usage(BaseModel):
    input_tokens: int = 0
    output_tokens: int = 0
    latency_s: float = 0.0
    retries: int = 0
    calls: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            latency_s=self.latency_s + other.latency_s,
            retries=self.retries + other.retries,
            calls=self.calls + other.calls,
        )


class ModelReply(BaseModel):
    text: str
    usage: Usage = Field(default_factory=Usage)


class Model(ABC):
    """A chat model that answers with text (which should hold a python block).

    Adapters translate ``messages`` (user/assistant turns with images) into their
    provider's wire format, retry transient failures, and raise ``ModelError`` with
    a clear message when a call finally fails or the response cannot be read.
    """

    name: str
    deadline: float | None = None
    """``time.monotonic()`` by which ``reply`` must return (the agent sets it from max_time).
    Remote models shorten request timeouts and skip retries that would pass it."""

    def start_episode(self, task: Task) -> None:
        """Called once before an episode; offline models (reference, scripted) use it."""

    @abstractmethod
    def reply(self, system: str, messages: list[Message]) -> ModelReply:
        """Answer the conversation so far."""

    def check_ready(self) -> None:
        """Raise (e.g. MissingAPIKey) before any task starts if the model cannot work."""
