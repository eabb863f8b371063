"""The rich Console every command prints with: on a terminal as rich does; into a pipe or a file no
hard wrap at 80 columns (a log line or an error stays one line, a fix command is never cut)."""

from __future__ import annotations

from typing import Any

from rich.console import Console, ConsoleDimensions

PIPE_WIDTH = 200
"""Width tables get when the output is not a terminal and COLUMNS does not say (wide enough for the
summary and doctor tables; text is not wrapped at all)."""


class OutputConsole(Console):
    """A Console whose width and wrapping follow where its output goes, decided at each print (a
    test runner or a redirect swaps the stream after the console was made)."""

    @property
    def size(self) -> ConsoleDimensions:
        size = super().size
        if self.is_terminal or self._width is not None or "COLUMNS" in self._environ:
            return size
        return ConsoleDimensions(max(size.width, PIPE_WIDTH), size.height)

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        Console.size.fset(self, new_size)  # type: ignore[attr-defined]  # rich's own setter, kept

    def print(self, *objects: Any, soft_wrap: bool | None = None, **kwargs: Any) -> None:
        if soft_wrap is None:
            soft_wrap = self.soft_wrap or not self.is_terminal
        super().print(*objects, soft_wrap=soft_wrap, **kwargs)


def output_console(stderr: bool = False) -> Console:
    return OutputConsole(stderr=stderr)
