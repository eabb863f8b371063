"""Every output of one execution, captured once: in the order it came, memory-bounded.

The kernel's iopub messages arrive in the order the code produced them; keeping
them in one list is what lets ``print('a'); display(img); print('b')`` reach the
model as a, image, b. The grouped views an ``ExecResult`` also carries (stdout,
stderr, images) are read from that same list, so nothing is held twice.

Bounds, each applied while output arrives:
- text, per stream (stdout, stderr): the first half of the limit and the latest
  half are kept, with one marker where the middle went;
- images: at most ``max_images``, each at most ``max_image_bytes`` (the rest
  are counted, not kept);
- the cell's result (``Out:``): its first ``result_limit`` characters.
"""

from __future__ import annotations

import base64
import re
from collections import deque
from collections.abc import Callable
from typing import Any, Literal

from ...execution import ErrorPart, ExecError, Image, ImagePart, OutputPart, TextPart

Stream = Literal["stdout", "stderr", "result"]
TextStream = Literal["stdout", "stderr"]
IMAGE_TYPES = ("image/png", "image/jpeg")

_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][A-Za-z0-9]")
# Dead (fully dropped) parts are swept out of the list once there are this many.
_SWEEP_AT = 1024
# Small writes are joined into strings of about _CHUNK characters (few objects, small
# copies); larger ones are kept as they came (no copy at all).
_CHUNK = 8192
_SMALL = 1024


def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text)


def terminal_text(text: str) -> str:
    """What a terminal would show: no colour codes, and a bare ``\r`` (progress
    bars from pip, tqdm) overwrites its line instead of piling up copies."""
    text = strip_ansi(text)
    if "\r" not in text:
        return text
    lines = text.split("\n")
    for i, line in enumerate(lines):  # linear: a regex here backtracks on long lines
        if "\r" in line:
            body = line.rstrip("\r")
            lines[i] = body.rsplit("\r", 1)[-1] + line[len(body):]
    return "\n".join(lines)


def dropped_marker(count: int) -> str:
    return f"\n[... {count} characters dropped at capture ...]\n"


class _Part:
    """One output while capturing. A text part grows as more of its stream arrives, in
    chunks (see ``_CHUNK``): appending copies at most one small chunk, and trimming the
    front never copies what is kept."""

    __slots__ = ("chunks", "error", "image", "in_tail", "size", "start", "stream")
    stream: Stream | None
    in_tail: bool
    image: Image | None
    error: ExecError | None

    def __init__(self, stream: Stream | None = None, *, in_tail: bool = False,
                 image: Image | None = None, error: ExecError | None = None) -> None:
        self.stream = stream
        self.in_tail = in_tail
        self.image = image
        self.error = error
        self.chunks: list[str] = []
        self.start = 0
        """Index of the first chunk still held (the ones before it were dropped)."""
        self.size = 0

    @property
    def dead(self) -> bool:
        """A text part whose every character was dropped from the middle of its stream."""
        return self.stream is not None and self.size == 0

    def add(self, text: str) -> None:
        if len(text) < _SMALL and len(self.chunks) > self.start and len(self.chunks[-1]) < _CHUNK:
            self.chunks[-1] += text  # small writes (a print per line) become one string, not thousands
        else:
            self.chunks.append(text)
        self.size += len(text)

    def drop_front(self, count: int) -> int:
        """Drop up to ``count`` characters from the front of the first chunk; returns how many."""
        chunk = self.chunks[self.start]
        cut = min(len(chunk), count)
        if cut == len(chunk):
            self.chunks[self.start] = ""
            self.start += 1
            if self.start >= 64 and self.start * 2 >= len(self.chunks):
                del self.chunks[: self.start]
                self.start = 0
        else:
            self.chunks[self.start] = chunk[cut:]
        self.size -= cut
        return cut

    def pieces(self) -> list[str]:
        return self.chunks[self.start:]


class _StreamBound:
    """One stream's head/tail bound: counts, and its tail parts oldest first (to trim)."""

    def __init__(self, limit: int) -> None:
        self.head_limit = max(limit // 2, 1)
        self.tail_limit = max(limit - self.head_limit, 1)
        self.head_len = 0
        self.tail_len = 0
        self.dropped = 0
        self.tail: deque[_Part] = deque()

    def trim(self) -> int:
        """Drop the oldest tail characters beyond the limit; returns how many parts died."""
        died = 0
        while self.tail_len > self.tail_limit:
            first = self.tail[0]
            cut = first.drop_front(self.tail_len - self.tail_limit)
            self.tail_len -= cut
            self.dropped += cut
            if first.size == 0:
                self.tail.popleft()
                died += 1
        return died


class OutputCollector:
    """The outputs of one execute request, in order and bounded (see the module doc)."""

    def __init__(self, text_limit: int, *, max_images: int, max_image_bytes: int, result_limit: int,
                 clean: Callable[[str], str] = terminal_text) -> None:
        self.text_limit = text_limit
        self.max_images, self.max_image_bytes = max_images, max_image_bytes
        self.result_limit = result_limit
        self.clean = clean
        """Applied to text when it is read (colour codes, bare CRs)."""
        self.result: str | None = None
        """text/plain of the cell's last expression; kept by ``clear`` (it is what the cell returned)."""
        self.error: ExecError | None = None
        """The last error the kernel reported; kept by ``clear`` (the code did raise)."""
        self.clear()

    def clear(self) -> None:
        """Forget what was shown (``clear_output``)."""
        self._parts: list[_Part] = []
        self._dead = 0
        self._bounds: dict[TextStream, _StreamBound] = {
            "stdout": _StreamBound(self.text_limit), "stderr": _StreamBound(self.text_limit),
        }
        self.images: list[Image] = []
        self.images_dropped = 0

    # -- capture ----------------------------------------------------------------

    def text(self, stream: TextStream, text: str) -> None:
        bound = self._bounds[stream]
        if text and bound.head_len < bound.head_limit:
            take = text[: bound.head_limit - bound.head_len]
            self._append(stream, take, in_tail=False)
            bound.head_len += len(take)
            text = text[len(take):]
        if not text:
            return
        part = self._append(stream, text, in_tail=True)
        if not bound.tail or bound.tail[-1] is not part:
            bound.tail.append(part)
        bound.tail_len += len(text)
        self._dead += bound.trim()
        if self._dead >= _SWEEP_AT and self._dead * 2 >= len(self._parts):
            self._parts = [p for p in self._parts if not p.dead]
            self._dead = 0

    def set_result(self, text: str) -> None:
        self.result = text[: self.result_limit]
        part = _Part("result")
        part.add(self.result)
        self._parts.append(part)

    def image(self, bundle: dict[str, Any]) -> bool:
        """Keep the first image in a display bundle, within the caps. True if the bundle had one."""
        for media in IMAGE_TYPES:
            if media in bundle:
                encoded = bundle[media]
                # Size check before decoding: base64 is 4/3 of the bytes.
                if len(self.images) >= self.max_images or len(encoded) * 3 // 4 > self.max_image_bytes:
                    self.images_dropped += 1
                else:
                    self.images.append(Image(media_type=media, data=base64.b64decode(encoded)))
                    self._parts.append(_Part(image=self.images[-1]))
                return True
        return False

    def add_error(self, error: ExecError) -> None:
        self.error = error
        self._parts.append(_Part(error=error))

    def _append(self, stream: TextStream, text: str, in_tail: bool) -> _Part:
        last = self._parts[-1] if self._parts else None
        if last is None or last.stream != stream or last.in_tail != in_tail or last.dead:
            last = _Part(stream, in_tail=in_tail)
            self._parts.append(last)
        last.add(text)
        return last

    # -- reading ------------------------------------------------------------------

    def _texts(self) -> list[_Part | tuple[TextStream, str]]:
        """The live parts in order, each stream's dropped-middle marker before its first tail part."""
        marked: set[TextStream] = set()
        out: list[_Part | tuple[TextStream, str]] = []
        for part in self._parts:
            if part.dead:
                continue
            stream = part.stream
            if part.in_tail and (stream == "stdout" or stream == "stderr") and stream not in marked:
                marked.add(stream)
                dropped = self._bounds[stream].dropped
                if dropped:
                    out.append((stream, dropped_marker(dropped)))
            out.append(part)
        return out

    def stream_text(self, stream: TextStream) -> str:
        """All of one stream as a terminal would show it (head, marker, tail)."""
        pieces = []
        for item in self._texts():
            if isinstance(item, tuple):
                if item[0] == stream:
                    pieces.append(item[1])
            elif item.stream == stream:
                pieces.extend(item.pieces())
        return self.clean("".join(pieces))

    def parts(self, drop: Callable[[ExecError], bool] = lambda e: False) -> list[OutputPart]:
        """Every output in order, consecutive text of one stream joined; errors for which
        ``drop`` is true (exit()) are left out."""
        parts: list[OutputPart] = []
        pending: tuple[Stream, list[str]] | None = None

        def flush() -> None:
            nonlocal pending
            if pending is not None:
                parts.append(TextPart(stream=pending[0], text=self.clean("".join(pending[1]))))
                pending = None

        for item in self._texts():
            stream: Stream
            if isinstance(item, tuple):
                stream, pieces = item[0], [item[1]]
            elif item.stream is not None:
                stream, pieces = item.stream, item.pieces()
            else:
                flush()
                if item.image is not None:
                    parts.append(ImagePart(image=item.image))
                elif item.error is not None and not drop(item.error):
                    parts.append(ErrorPart(error=item.error))
                continue
            if pending is not None and pending[0] == stream and stream != "result":
                pending[1].extend(pieces)
            else:
                flush()
                pending = (stream, pieces)
        flush()
        return parts
