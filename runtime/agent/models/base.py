"""The model interface every provider adapter and offline model implements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

from ...execution import Image

if TYPE_CHECKING:
    from ...tasks.task import Task


class Message(BaseModel):
    """One turn of the conversation. The system prompt is passed separately.

    ``parts`` holds text and images in the order the model should read them (an
    observation: the output of the code, the images it displayed where it displayed
    them, then the screenshot). Without ``parts`` a turn is its images, then its text.
    ``text`` and ``images`` are always filled, for readers that want one or the other.
    """

    role: Literal["user", "assistant"]
    text: str = ""
    images: list[Image] = Field(default_factory=list)
    parts: list[str | Image] | None = None

    @classmethod
    def of_parts(cls, role: Literal["user", "assistant"], parts: list[str | Image]) -> Message:
        merged: list[str | Image] = []
        for part in parts:
            if isinstance(part, str) and merged and isinstance(merged[-1], str):
                merged[-1] += part
            elif not isinstance(part, str) or part:
                merged.append(part)
        return cls(role=role, parts=merged,
                   text="".join(p if isinstance(p, str) else "[image]" for p in merged),
                   images=[p for p in merged if not isinstance(p, str)])

    def blocks(self) -> list[str | Image]:
        """Text and images in reading order (what an adapter sends)."""
        if self.parts is not None:
            return list(self.parts)
        return [*self.images, *([self.text] if self.text else [])]

    def appended(self, text: str) -> Message:
        """This turn with ``text`` added at its end."""
        if self.parts is None:
            return Message(role=self.role, text=self.text + text, images=self.images)
        return Message.of_parts(self.role, [*self.parts, text])

    def without_images(self, note: str) -> Message:
        """This turn with each image replaced by ``note`` (old screenshots dropped from history)."""
        if self.parts is None:
            return Message(role=self.role, text=self.text + "\n" + note)
        return Message.of_parts(self.role, [p if isinstance(p, str) else note for p in self.parts])


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

    A whole agent with a loop of its own sets the class attribute ``episode_class`` to a
    subclass of ``deskact.runtime.agent.agent.Episode`` overriding ``step()``: the runner and
    notebooks then drive that episode over the same kernel, screenshots and trajectory
    (docs/models.md, "Your own agent"). It is not declared here, so that a wrapper that
    passes unknown attributes on to the model it holds (LimitedModel) passes this one too.
    """

    name: str
    deadline: float | None = None
    """``time.monotonic()`` by which ``reply`` must return (the agent sets it from max_time).
    Remote models shorten request timeouts and skip retries that would pass it."""
    epoch: int = 1
    """Which attempt at the task the coming episode is (``deskact run --epochs``), from 1; the
    agent sets it before ``start_episode``."""

    def start_episode(self, task: Task) -> None:  # noqa: B027 - an optional hook: most models need none
        """Called once before an episode; offline models (reference, scripted) use it."""

    @abstractmethod
    def reply(self, system: str, messages: list[Message]) -> ModelReply:
        """Answer the conversation so far."""

    def check_ready(self) -> None:  # noqa: B027 - an optional hook: offline models are always ready
        """Raise (e.g. MissingAPIKey) before any task starts if the model cannot work."""
