"""Every output of one execution in the order it came (text, images, errors), memory-bounded.

The kernel's iopub messages arrive in the order the code produced them; keeping
them in one list is what lets ``print('a'); display(img); print('b')`` reach the
model as a, image, b. Text is bounded like ``CappedText``: the first half of the
limit and the latest half are kept, with one marker where the middle went.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Literal

from ..execution import ErrorPart, ExecError, Image, ImagePart, OutputPart, TextPart

Stream = Literal["stdout", "stderr", "result"]


class _Entry:
    """A mutable part while capturing (text parts grow as more of their stream arrives)."""

    __slots__ = ("error", "image", "stream", "text")

    def __init__(self, stream: Stream | None = None, text: str = "",
                 image: Image | None = None, error: ExecError | None = None) -> None:
        self.stream, self.text, self.image, self.error = stream, text, image, error


class OrderedOutputs:
    def __init__(self, limit: int, clean: Callable[[str], str] = lambda s: s) -> None:
        self.head_limit = max(limit // 2, 1)
        self.tail_limit = max(limit - self.head_limit, 1)
        self.clean = clean
        """Applied to each text part when the result is built (colour codes, bare CRs)."""
        self.clear()

    def clear(self) -> None:
        self.head: list[_Entry] = []
        self.head_len = 0
        self.tail: deque[_Entry] = deque()
        self.tail_len = 0
        self.dropped = 0

    def _filling_head(self) -> bool:
        return self.head_len < self.head_limit and not self.tail

    def text(self, stream: Stream, text: str) -> None:
        if not text:
            return
        if self._filling_head():
            take = text[: self.head_limit - self.head_len]
            self._add_text(self.head, stream, take)
            self.head_len += len(take)
            text = text[len(take):]
            if not text:
                return
        self._add_text(self.tail, stream, text)
        self.tail_len += len(text)
        self._trim_tail()

    def image(self, image: Image) -> None:
        (self.head if self._filling_head() else self.tail).append(_Entry(image=image))

    def error(self, error: ExecError) -> None:
        (self.head if self._filling_head() else self.tail).append(_Entry(error=error))

    @staticmethod
    def _add_text(parts: list[_Entry] | deque[_Entry], stream: Stream, text: str) -> None:
        last = parts[-1] if parts else None
        if last is not None and last.stream == stream and stream != "result":
            last.text += text
        else:
            parts.append(_Entry(stream=stream, text=text))

    def _trim_tail(self) -> None:
        while self.tail_len > self.tail_limit and self.tail:
            first = self.tail[0]
            excess = self.tail_len - self.tail_limit
            if first.stream is None:  # an image or error in the dropped middle
                self.tail.popleft()
            elif len(first.text) <= excess:
                self.tail.popleft()
                self.tail_len -= len(first.text)
                self.dropped += len(first.text)
            else:
                first.text = first.text[excess:]
                self.tail_len -= excess
                self.dropped += excess

    def value(self, drop: Callable[[ExecError], bool] = lambda e: False) -> list[OutputPart]:
        """The parts so far; errors for which ``drop`` is true (exit()) are left out."""
        entries = list(self.head)
        if self.dropped:
            entries.append(_Entry(stream="stdout", text=f"[... {self.dropped} characters dropped at capture ...]\n"))
        entries.extend(self.tail)
        parts: list[OutputPart] = []
        for e in entries:
            if e.image is not None:
                parts.append(ImagePart(image=e.image))
            elif e.error is not None:
                if not drop(e.error):
                    parts.append(ErrorPart(error=e.error))
            elif e.stream is not None:
                parts.append(TextPart(stream=e.stream, text=self.clean(e.text)))
        return parts
