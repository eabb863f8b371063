"""The result of running one code block in a kernel, and how a model sees it."""

from __future__ import annotations

import base64
from typing import Literal

from pydantic import BaseModel, Field, field_serializer, field_validator


class ExecError(BaseModel):
    ename: str
    """Exception class name, e.g. ``ZeroDivisionError``."""
    evalue: str
    """Exception message."""
    traceback: str = ""
    """Traceback text with ANSI colour codes stripped."""


class Image(BaseModel):
    """An image produced by the code (display_data / execute_result) or a screenshot."""

    media_type: Literal["image/png", "image/jpeg"]
    data: bytes

    @field_serializer("data")
    def _b64(self, data: bytes) -> str:
        return base64.b64encode(data).decode()

    @field_validator("data", mode="before")
    @classmethod
    def _from_b64(cls, value: object) -> object:
        return base64.b64decode(value) if isinstance(value, str) else value


class ExecResult(BaseModel):
    """What happened when a code block ran. Saved in trajectories (schema is public)."""

    status: Literal["ok", "error", "timeout", "kernel_died"]
    stdout: str = ""
    stderr: str = ""
    result: str | None = None
    """text/plain of the cell's last expression, if any."""
    error: ExecError | None = None
    images: list[Image] = Field(default_factory=list)
    images_dropped: int = 0
    """Images not kept because of the count or size caps."""
    restarted: bool = False
    """The kernel was restarted: variables and imports from earlier steps are gone."""
    exited: bool = False
    """The code called exit() (the episode should finish)."""
    duration_s: float = 0.0

    def text(self) -> str:
        """All text the code produced, in reading order, without any truncation."""
        parts = []
        if self.stdout:
            parts.append(self.stdout.rstrip("\n"))
        if self.stderr:
            parts.append("[stderr]\n" + self.stderr.rstrip("\n"))
        if self.result is not None:
            parts.append(f"Out: {self.result}")
        if self.error is not None:
            parts.append(self.error.traceback or f"{self.error.ename}: {self.error.evalue}")
        if self.status == "timeout":
            parts.append(
                f"[The code ran too long and was interrupted after {self.duration_s:.1f} s"
                + ("; the kernel was restarted, so earlier variables and imports are gone.]" if self.restarted else ".]")
            )
        elif self.status == "kernel_died":
            parts.append("[The kernel died (crash, os._exit or out of memory); the kernel was restarted, "
                         "so earlier variables and imports are gone.]")
        if self.images or self.images_dropped:
            parts.append(f"[{len(self.images)} image(s) displayed"
                         + (f", {self.images_dropped} dropped" if self.images_dropped else "") + "]")
        return "\n".join(parts) or "[no output]"

    def for_model(self, max_chars: int) -> str:
        """``text()`` middle-truncated to ``max_chars``, with a marker saying how much was cut."""
        return truncate_middle(self.text(), max_chars)


def truncate_middle(text: str, max_chars: int) -> str:
    """Keep the head and the tail (errors and final prints live there); say how much went."""
    if len(text) <= max_chars:
        return text
    half = max(max_chars // 2, 1)
    head, tail = text[:half], text[-half:]
    return f"{head}\n[... {len(text) - len(head) - len(tail)} characters cut ...]\n{tail}"
