"""The result of running one code block in a kernel, and how a model sees it."""

from __future__ import annotations

import base64
from typing import Annotated, Literal

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


class TextPart(BaseModel):
    """A run of text from one stream (consecutive prints of a stream are one part)."""

    kind: Literal["text"] = "text"
    stream: Literal["stdout", "stderr", "result"] = "stdout"
    """``result`` is the text/plain of the cell's last expression."""
    text: str


class ImagePart(BaseModel):
    """An image the code displayed. In trajectory files ``image`` is None and ``file`` names it."""

    kind: Literal["image"] = "image"
    image: Image | None = None
    file: str | None = None


class ErrorPart(BaseModel):
    kind: Literal["error"] = "error"
    error: ExecError


OutputPart = Annotated[TextPart | ImagePart | ErrorPart, Field(discriminator="kind")]
ModelPart = str | Image
"""What a model reads: text and images, in order."""


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
    infeasible: str | None = None
    """The code called infeasible("why"): the agent declared the task cannot be done (``exited`` is
    set too); this is its reason."""
    duration_s: float = 0.0
    outputs: list[OutputPart] = Field(default_factory=list)
    """Every output in the order the code produced it. ``stdout``, ``stderr``, ``result``,
    ``error`` and ``images`` hold the same outputs grouped by kind (older readers use them)."""

    def ordered(self) -> list[TextPart | ImagePart | ErrorPart]:
        """``outputs``, or for results saved before it existed, the outputs grouped by kind."""
        if self.outputs:
            return list(self.outputs)
        parts: list[TextPart | ImagePart | ErrorPart] = []
        if self.stdout:
            parts.append(TextPart(stream="stdout", text=self.stdout))
        if self.stderr:
            parts.append(TextPart(stream="stderr", text=self.stderr))
        if self.result is not None:
            parts.append(TextPart(stream="result", text=self.result))
        if self.error is not None:
            parts.append(ErrorPart(error=self.error))
        parts.extend(ImagePart(image=image) for image in self.images)
        return parts

    def model_parts(self, max_chars: int) -> list[ModelPart]:
        """What the model reads: text and the displayed images in the order they came,
        the text middle-truncated to ``max_chars`` as a whole (images are always kept)."""
        segments: list[ModelPart] = []
        for part in self.ordered():
            if isinstance(part, ImagePart):
                if part.image is not None:
                    segments.append(part.image)
            else:
                _append_text(segments, _part_text(part))
        _append_text(segments, self._notes())
        if not segments:
            segments.append("[no output]")
        return truncate_parts(segments, max_chars)

    def text(self) -> str:
        """All text the code produced, in reading order, without any truncation."""
        parts = []
        for part in self.ordered():
            if not isinstance(part, ImagePart):
                parts.append(_part_text(part))
        notes = self._notes()
        if notes:
            parts.append(notes)
        return "\n".join(parts) or "[no output]"

    def _notes(self) -> str:
        """Status lines after the outputs: timeout, kernel death, how many images."""
        parts = []
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
        return "\n".join(parts)

    def for_model(self, max_chars: int) -> str:
        """``text()`` middle-truncated to ``max_chars``, with a marker saying how much was cut."""
        return truncate_middle(self.text(), max_chars)


def _part_text(part: TextPart | ErrorPart) -> str:
    if isinstance(part, ErrorPart):
        return part.error.traceback or f"{part.error.ename}: {part.error.evalue}"
    if part.stream == "stderr":
        return "[stderr]\n" + part.text.rstrip("\n")
    if part.stream == "result":
        return f"Out: {part.text}"
    return part.text.rstrip("\n")


def _append_text(segments: list[ModelPart], text: str) -> None:
    """Consecutive texts join with a newline, as ``text()`` joins them."""
    if not text:
        return
    if segments and isinstance(segments[-1], str):
        segments[-1] = segments[-1] + "\n" + text
    else:
        segments.append(text)


def truncate_parts(segments: list[ModelPart], max_chars: int) -> list[ModelPart]:
    """``truncate_middle`` over the text of interleaved text and images: the first and
    last ``max_chars / 2`` characters stay, images stay where they were."""
    total = sum(len(s) for s in segments if isinstance(s, str))
    if total <= max_chars:
        return segments
    half = max(max_chars // 2, 1)
    cut = total - 2 * half
    out: list[ModelPart] = []
    pos, marked = 0, False
    for seg in segments:
        if not isinstance(seg, str):
            out.append(seg)
            continue
        start = pos
        pos += len(seg)
        head_end = min(max(half - start, 0), len(seg))
        tail_start = min(max(total - half - start, head_end), len(seg))
        if head_end:
            out.append(seg[:head_end])
        if not marked and pos > half:
            out.append(f"\n[... {cut} characters cut ...]\n")
            marked = True
        if tail_start < len(seg):
            out.append(seg[tail_start:])
    merged: list[ModelPart] = []
    for seg in out:
        if isinstance(seg, str) and merged and isinstance(merged[-1], str):
            merged[-1] += seg
        else:
            merged.append(seg)
    return merged


def truncate_middle(text: str, max_chars: int) -> str:
    """Keep the head and the tail (errors and final prints live there); say how much went."""
    if len(text) <= max_chars:
        return text
    half = max(max_chars // 2, 1)
    head, tail = text[:half], text[-half:]
    return f"{head}\n[... {len(text) - len(head) - len(tail)} characters cut ...]\n{tail}"
