"""StepPath: a file a step or judge names, reached only through descriptors of its root.

``ctx.path()`` hands one out for every path the agent could have touched. It
reads like ``pathlib.Path`` (``exists``, ``read_text``, ``/``, ``name``) but no
method resolves a host path string: each goes through
``runtime.world.rooted.Root`` (``openat2`` inside the world's root, or beneath
the workspace without a world). It has no ``__fspath__`` on purpose: a library
that wants a file name gets the bytes (``io.BytesIO(p.read_bytes())``), a
``/proc/self/fd`` name of a file opened safely (``opened_path``) or a host copy
(``host_copy``), never a name it would resolve later.
"""

from __future__ import annotations

import errno
import fnmatch
import io
import os
import stat as stat_mod
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import IO, Any

from ..world.rooted import OutsideRoot, Root, check_size
from .limits import check_read, read_cap


class StepPath:
    """``shown`` is the path as the agent knows it; ``root`` and ``prefix`` say where it is opened:
    ``prefix`` is the shown path of the root's directory (``/`` for a world)."""

    __slots__ = ("prefix", "root", "shown")

    def __init__(self, root: Root, prefix: PurePosixPath, shown: PurePosixPath) -> None:
        self.root, self.prefix, self.shown = root, prefix, shown

    # --- names (no file system) ----------------------------------------------------

    @property
    def inner(self) -> str:
        """The path handed to the root: absolute inside a world, relative to a workspace."""
        if self.prefix == PurePosixPath("/"):
            return str(self.shown)
        text, prefix = str(self.shown), str(self.prefix)
        if text != prefix and not text.startswith(prefix + "/"):  # `/` with an absolute path, say
            raise OutsideRoot(errno.EXDEV, "is not under the folder it was taken from", text)
        return text[len(prefix):].lstrip("/") or "."

    def _with(self, shown: PurePosixPath) -> StepPath:
        return StepPath(self.root, self.prefix, shown)

    def __truediv__(self, other: str | PurePosixPath) -> StepPath:
        return self._with(self.shown / other)

    def joinpath(self, *others: str) -> StepPath:
        return self._with(self.shown.joinpath(*others))

    @property
    def parent(self) -> StepPath:
        return self._with(self.shown.parent)

    @property
    def parents(self) -> list[StepPath]:
        return [self._with(p) for p in self.shown.parents]

    @property
    def name(self) -> str:
        return self.shown.name

    @property
    def suffix(self) -> str:
        return self.shown.suffix

    @property
    def stem(self) -> str:
        return self.shown.stem

    @property
    def parts(self) -> tuple[str, ...]:
        return self.shown.parts

    def with_name(self, name: str) -> StepPath:
        return self._with(self.shown.with_name(name))

    def with_suffix(self, suffix: str) -> StepPath:
        return self._with(self.shown.with_suffix(suffix))

    def relative_to(self, other: StepPath | str | os.PathLike[str]) -> PurePosixPath:
        base = other.shown if isinstance(other, StepPath) else PurePosixPath(os.fspath(other))
        return self.shown.relative_to(base)

    def is_absolute(self) -> bool:
        return self.shown.is_absolute()

    def __str__(self) -> str:
        return str(self.shown)

    def __repr__(self) -> str:
        return f"StepPath({str(self.shown)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StepPath) and (self.root, self.shown) == (other.root, other.shown)

    def __lt__(self, other: StepPath) -> bool:
        return self.shown < other.shown

    def __hash__(self) -> int:
        return hash((self.root, self.shown))

    # --- looking -------------------------------------------------------------------

    def stat(self, follow_symlinks: bool = True) -> os.stat_result:
        return self.root.stat(self.inner, follow_symlinks)

    def lstat(self) -> os.stat_result:
        return self.stat(follow_symlinks=False)

    def _mode(self, follow: bool = True) -> int | None:
        try:
            return self.stat(follow).st_mode
        except (OSError, ValueError):
            return None

    def exists(self) -> bool:
        return self._mode() is not None

    def is_file(self) -> bool:
        mode = self._mode()
        return mode is not None and stat_mod.S_ISREG(mode)

    def is_dir(self) -> bool:
        mode = self._mode()
        return mode is not None and stat_mod.S_ISDIR(mode)

    def is_symlink(self) -> bool:
        mode = self._mode(follow=False)
        return mode is not None and stat_mod.S_ISLNK(mode)

    def read_bytes(self, limit: int | None = None) -> bytes:
        # Inside a judge a whole-file read is held to config.limits (size, and a zip's inflated size).
        return check_read(self.root.read_bytes(self.inner, read_cap(limit)), str(self), limit)

    def read_text(self, encoding: str = "utf-8", errors: str = "strict", limit: int | None = None) -> str:
        # As pathlib reads text: universal newlines (CRLF and CR become LF).
        return io.TextIOWrapper(io.BytesIO(self.read_bytes(limit)), encoding, errors).read()

    def open(self, mode: str = "r", buffering: int = -1, encoding: str | None = None, errors: str | None = None,
             newline: str | None = None) -> IO[Any]:
        """Like ``open()``: "r", "w", "a", "x" (with "b" for bytes); a regular file only."""
        kind = mode.replace("b", "").replace("t", "")
        flags = {"r": os.O_RDONLY, "w": os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                 "a": os.O_WRONLY | os.O_CREAT | os.O_APPEND, "x": os.O_WRONLY | os.O_CREAT | os.O_EXCL,
                 "r+": os.O_RDWR}.get(kind)
        if flags is None:
            raise ValueError(f"unsupported mode {mode!r}")
        fd = self.root.open_regular(self.inner, flags)
        if kind == "r":
            try:
                check_size(fd, self.inner)  # a reader of the whole file (csv) must not take 100 GB
            except OSError:
                os.close(fd)
                raise
        if "b" in mode:
            return os.fdopen(fd, mode, buffering)
        return os.fdopen(fd, mode, buffering, encoding=encoding or "utf-8", errors=errors, newline=newline)

    def iterdir(self) -> Iterator[StepPath]:
        for name in sorted(self.root.listdir(self.inner)):
            yield self / name

    def glob(self, pattern: str) -> Iterator[StepPath]:
        """Entries of this folder whose names match ``pattern`` (one level, no ``**``)."""
        return (p for p in self.iterdir() if fnmatch.fnmatch(p.name, pattern))

    def rglob(self, pattern: str = "*") -> Iterator[StepPath]:
        """Every entry below this folder matching ``pattern``; symlinked folders are not entered."""
        for child in self.iterdir():
            if fnmatch.fnmatch(child.name, pattern):
                yield child
            mode = child._mode(follow=False)
            if mode is not None and stat_mod.S_ISDIR(mode):
                yield from child.rglob(pattern)

    @contextmanager
    def opened_path(self) -> Iterator[Path]:
        """``/proc/self/fd/N`` of this regular file opened safely, for a library that wants a name
        (in this process only: a child process has other descriptors)."""
        fd = self.root.open_regular(self.inner)
        try:
            check_size(fd, self.inner)
            yield Path(f"/proc/self/fd/{fd}")
        finally:
            os.close(fd)

    @contextmanager
    def host_copy(self, limit: int | None = None) -> Iterator[Path]:
        """A private host copy of this file with the same name (for a tool run as another process)."""
        with tempfile.TemporaryDirectory(prefix="deskact-copy-") as tmp:
            copy = Path(tmp, self.name or "file")
            copy.write_bytes(self.read_bytes(limit))  # bounded as read_bytes is
            yield copy

    def bytes_io(self, limit: int | None = None) -> io.BytesIO:
        """The file as an in-memory file object (openpyxl, python-docx, zipfile, PIL take one)."""
        return io.BytesIO(self.read_bytes(limit))

    # --- changing ------------------------------------------------------------------

    def write_bytes(self, data: bytes, owner: tuple[int, int] | None = None) -> bool:
        """Write the file; True if it was new (a new one gets ``owner``, an old one keeps its own)."""
        return self.root.write_bytes(self.inner, data, owner=owner)

    def write_text(self, text: str, encoding: str = "utf-8", owner: tuple[int, int] | None = None) -> bool:
        return self.write_bytes(text.encode(encoding), owner)

    def touch(self, owner: tuple[int, int] | None = None) -> bool:
        """Create an empty file if missing (True if it was); the times are set by ``utime``."""
        try:
            fd = self.root.open_regular(self.inner, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            return False
        try:
            if owner is not None:
                os.fchown(fd, *owner)
        finally:
            os.close(fd)
        return True

    def mkdir(self, mode: int = 0o777, parents: bool = False, exist_ok: bool = False) -> None:
        if parents:
            if not exist_ok and self.exists():
                raise FileExistsError(str(self))
            self.make_dirs(mode)
            return
        try:
            self.root.mkdir(self.inner, mode)
        except FileExistsError:
            if not (exist_ok and self.is_dir()):
                raise

    def make_dirs(self, mode: int = 0o777, owner: tuple[int, int] | None = None) -> list[StepPath]:
        """``mkdir -p``; the folders made (each given ``owner``)."""
        made = self.root.make_dirs(self.inner, mode, owner)
        return [self._with(self.prefix / m) if self.prefix != PurePosixPath("/") else self._with(PurePosixPath(m))
                for m in made]

    def symlink_to(self, target: str, owner: tuple[int, int] | None = None) -> None:
        self.root.symlink(self.inner, target, owner)

    def chmod(self, mode: int) -> None:
        self.root.chmod(self.inner, mode)

    def lchown(self, uid: int, gid: int) -> None:
        self.root.lchown(self.inner, uid, gid)

    def utime(self, times: tuple[float, float]) -> None:
        self.root.utime(self.inner, times)

    def unlink(self, missing_ok: bool = False) -> None:
        try:
            self.root.unlink(self.inner)
        except FileNotFoundError:
            if not missing_ok:
                raise

    def rmdir(self) -> None:
        self.root.rmdir(self.inner)

    def remove(self) -> bool:
        """Remove a file, symlink or whole folder (``rm -rf``); False if nothing was there."""
        return self.root.remove(self.inner)
