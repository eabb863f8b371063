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
