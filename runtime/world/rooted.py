"""Files under a root directory opened by file descriptors, never by a host path string.

Host code that touches what an agent left (judges, before-judge and cleanup
steps, chown, profiles) must not resolve a path once and open it later: a
process the agent left running can swap a component for a symlink in between
and make host root write ``/root/...``. Every operation here starts from a
descriptor of the root and resolves the whole path in one ``openat2`` call:

- a world: ``RESOLVE_IN_ROOT``, so ``/``, ``..`` and absolute symlinks clamp to the
  world's ``/`` (the agent's ``answer.txt -> /etc/shadow`` is the world's file);
- a workspace without a world: ``RESOLVE_BENEATH``, so a path or symlink that
  leaves it is an error (``EXDEV``) instead of a host file.

``RESOLVE_NO_MAGICLINKS`` always: ``/proc/self/root`` inside a world would lead
back out. Operations on a path's last component (unlink, lchown, mkdir, lstat)
run on a descriptor of its parent with a single name (``*at`` calls), which
never follow that name. A file is opened non-blocking and checked to be regular
before it is read, so a FIFO in its place cannot hang the host.
"""

from __future__ import annotations

import ctypes
import errno
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

_SYS_OPENAT2 = 437  # the same number on x86_64 and aarch64 (the generic table)
RESOLVE_NO_MAGICLINKS = 0x02
RESOLVE_BENEATH = 0x08
RESOLVE_IN_ROOT = 0x10
MAX_READ = 512 << 20
"""The most a host step reads of one file when it names no limit."""
_RETRIES = 64  # openat2 answers EAGAIN when a rename raced a ".." walk: try again


class _OpenHow(ctypes.Structure):
    _fields_ = [("flags", ctypes.c_uint64), ("mode", ctypes.c_uint64), ("resolve", ctypes.c_uint64)]


_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long


class OutsideRoot(PermissionError):
    """A path (or a symlink on it) leads outside the root it must stay in."""


def openat2(dirfd: int, path: str, flags: int, mode: int = 0, resolve: int = 0) -> int:
    """openat2(2): a new descriptor (close-on-exec) for ``path`` resolved from ``dirfd``."""
    tmpfile = getattr(os, "O_TMPFILE", 0)  # holds O_DIRECTORY's bit: compare it whole
    creates = flags & os.O_CREAT or (tmpfile and flags & tmpfile == tmpfile)
    how = _OpenHow(flags | os.O_CLOEXEC, mode if creates else 0, resolve)
    encoded = os.fsencode(path or ".")
    for _ in range(_RETRIES):
        fd = _libc.syscall(_SYS_OPENAT2, ctypes.c_int(dirfd), ctypes.c_char_p(encoded), ctypes.byref(how),
                           ctypes.c_size_t(ctypes.sizeof(how)))
        if fd >= 0:
            return int(fd)
        err = ctypes.get_errno()
        if err in (errno.EAGAIN, errno.EINTR):
            continue
        if err == errno.EXDEV:
            raise OutsideRoot(err, "leads outside the root it must stay in", path)
        raise OSError(err, os.strerror(err), path)
    raise OSError(errno.EAGAIN, "the path kept changing while it was resolved", path)


def check_size(fd: int, path: str) -> None:
    """Refuse a file larger than MAX_READ before reading any of it (its size as stat says)."""
    if os.fstat(fd).st_size > MAX_READ:
        raise OSError(errno.EFBIG, f"is larger than the {MAX_READ >> 20} MB a host step reads", path)


def _split(path: str) -> tuple[str, str]:
    """(parent, last name) of a path inside a root; the name is a real entry, never "." or ".."."""
    parent, _, name = path.rstrip("/").rpartition("/")
    if name in ("", ".", ".."):
        raise IsADirectoryError(errno.EISDIR, "names no entry of its own (a root, '.' or '..')", path)
    return (parent or ("/" if path.startswith("/") else ".")), name


@dataclass(frozen=True)
class Root:
    """A host directory every path is opened under, and how a path may move in it."""

    dir: str
    """Host path of the root (``/proc/PID/root`` of a world, or a workspace)."""
    resolve: int = RESOLVE_IN_ROOT
    writable: bool = True

    @contextmanager
    def _root_fd(self) -> Iterator[int]:
        fd = os.open(self.dir, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            yield fd
        finally:
            os.close(fd)

    def _check_write(self, path: str) -> None:
        if not self.writable:
            raise PermissionError(errno.EROFS, "host code never writes here", path)

    def open_fd(self, path: str, flags: int = os.O_RDONLY, mode: int = 0o666) -> int:
        """A descriptor of ``path`` (the caller closes it); symlinks resolve inside the root."""
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC):
            self._check_write(path)
        with self._root_fd() as root:
            return openat2(root, path, flags, mode, self.resolve | RESOLVE_NO_MAGICLINKS)

    @contextmanager
    def opened(self, path: str, flags: int = os.O_RDONLY, mode: int = 0o666) -> Iterator[int]:
        fd = self.open_fd(path, flags, mode)
        try:
            yield fd
        finally:
            os.close(fd)

    @contextmanager
    def _parent(self, path: str) -> Iterator[tuple[int, str]]:
        parent, name = _split(path)
        with self.opened(parent, os.O_PATH | os.O_DIRECTORY) as fd:
            yield fd, name

    # --- reading ---------------------------------------------------------------------

    def stat(self, path: str, follow_symlinks: bool = True) -> os.stat_result:
        if not follow_symlinks:
            try:
                with self._parent(path) as (fd, name):
                    return os.stat(name, dir_fd=fd, follow_symlinks=False)
            except IsADirectoryError:
                pass  # the root itself, "." or "..": no link to stop at
        with self.opened(path, os.O_PATH) as fd:
            return os.fstat(fd)

    def open_regular(self, path: str, flags: int = os.O_RDONLY, mode: int = 0o666) -> int:
        """A descriptor of the regular file at ``path``: a FIFO, device or socket there is refused
        (opened non-blocking first, so a FIFO cannot hang the host)."""
        fd = self.open_fd(path, flags | os.O_NONBLOCK | os.O_NOCTTY, mode)
        try:
            st = os.fstat(fd)
            if stat.S_ISDIR(st.st_mode):
                raise IsADirectoryError(errno.EISDIR, "is a directory", path)
            if not stat.S_ISREG(st.st_mode):
                raise OSError(errno.EINVAL, "is not a regular file", path)
            os.set_blocking(fd, True)
        except BaseException:
            os.close(fd)
            raise
        return fd

    def read_bytes(self, path: str, limit: int | None = None) -> bytes:
        """The file's bytes: at most ``limit``; without one, a file larger than ``MAX_READ`` is
        refused (a sparse ``truncate -s 100G`` costs the world no disk, read whole it would
        cost the host 100 GB of memory)."""
        fd = self.open_regular(path)
        with os.fdopen(fd, "rb") as f:
            if limit is not None:
                return f.read(limit)
            check_size(f.fileno(), path)
            data = f.read(MAX_READ + 1)  # it may grow meanwhile
            if len(data) > MAX_READ:
                raise OSError(errno.EFBIG, f"is larger than the {MAX_READ >> 20} MB a host step reads", path)
            return data

    def listdir(self, path: str) -> list[str]:
        with self.opened(path, os.O_RDONLY | os.O_DIRECTORY) as fd:
            return os.listdir(fd)

    # --- writing ---------------------------------------------------------------------

    def write_bytes(self, path: str, data: bytes, mode: int = 0o644, owner: tuple[int, int] | None = None) -> bool:
        """Write (truncate or create) the regular file at ``path``; True if it was created. A new file
        gets ``owner`` (through its descriptor: no later lookup by name)."""
        created = False
        try:
            fd = self.open_regular(path, os.O_WRONLY | os.O_TRUNC)
        except FileNotFoundError:
            created = True
            try:
                fd = self.open_regular(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
            except FileExistsError:  # a dangling symlink: its target (inside the root) is made
                fd = self.open_regular(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        with os.fdopen(fd, "wb") as f:
            if created and owner is not None:
                os.fchown(f.fileno(), *owner)
            f.write(data)
        return created

    def make_dirs(self, path: str, mode: int = 0o777, owner: tuple[int, int] | None = None) -> list[str]:
        """``mkdir -p`` one component at a time; returns the folders it made (each given ``owner``)."""
        self._check_write(path)
        made: list[str] = []
        absolute = path.startswith("/")
        parts = [p for p in path.split("/") if p not in ("", ".")]
        for i in range(len(parts)):
            prefix = ("/" if absolute else "") + "/".join(parts[: i + 1])
            try:
                with self.opened(prefix, os.O_PATH | os.O_DIRECTORY):
                    continue
            except FileNotFoundError:
                pass
            with self._parent(prefix) as (fd, name):
                try:
                    os.mkdir(name, mode, dir_fd=fd)
                except FileExistsError:
                    continue
                if owner is not None:
                    os.chown(name, *owner, dir_fd=fd, follow_symlinks=False)
            made.append(prefix)
        with self.opened(path, os.O_PATH | os.O_DIRECTORY):
            pass  # a component that is a file, or a link out, fails here
        return made

    def mkdir(self, path: str, mode: int = 0o777) -> None:
        self._check_write(path)
        with self._parent(path) as (fd, name):
            os.mkdir(name, mode, dir_fd=fd)

    def symlink(self, path: str, target: str, owner: tuple[int, int] | None = None) -> None:
        """A new symlink at ``path`` reading ``target`` (what it points to is never touched)."""
        self._check_write(path)
        with self._parent(path) as (fd, name):
            os.symlink(target, name, dir_fd=fd)
            if owner is not None:
                os.chown(name, *owner, dir_fd=fd, follow_symlinks=False)

    def chmod(self, path: str, mode: int) -> None:
        """chmod the file ``path`` leads to (inside the root); a symlink itself is never changed."""
        self._check_write(path)
        with self.opened(path, os.O_PATH) as fd:
            os.chmod(f"/proc/self/fd/{fd}", mode)  # the inode this descriptor holds, not a name

    def lchown(self, path: str, uid: int, gid: int) -> None:
        self._check_write(path)
        try:
            with self._parent(path) as (fd, name):
                os.chown(name, uid, gid, dir_fd=fd, follow_symlinks=False)
        except IsADirectoryError:
            with self.opened(path, os.O_RDONLY | os.O_DIRECTORY) as fd:
                os.fchown(fd, uid, gid)

    def utime(self, path: str, times: tuple[float, float]) -> None:
        self._check_write(path)
        with self.opened(path, os.O_PATH) as fd:
            os.utime(f"/proc/self/fd/{fd}", times)

    def unlink(self, path: str) -> None:
        self._check_write(path)
        with self._parent(path) as (fd, name):
            os.unlink(name, dir_fd=fd)

    def rmdir(self, path: str) -> None:
        self._check_write(path)
        with self._parent(path) as (fd, name):
            os.rmdir(name, dir_fd=fd)

    def remove(self, path: str) -> bool:
        """Remove a file, symlink (never what it points to) or whole folder; False if nothing was there."""
        self._check_write(path)
        try:
            with self._parent(path) as (fd, name):
                st = os.stat(name, dir_fd=fd, follow_symlinks=False)
                if stat.S_ISDIR(st.st_mode):
                    _remove_tree_at(fd, name)
                else:
                    os.unlink(name, dir_fd=fd)
        except FileNotFoundError:
            return False  # the path or one of its parents is missing: nothing was there
        return True


def _remove_tree_at(parent_fd: int, name: str) -> None:
    """rm -rf of ``name`` in ``parent_fd``, descriptor by descriptor: a folder swapped for a symlink
    while this runs fails the open (O_NOFOLLOW) instead of leading anywhere."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=parent_fd)
    except (NotADirectoryError, OSError) as exc:
        if isinstance(exc, FileNotFoundError):
            return
        if exc.errno in (errno.ENOTDIR, errno.ELOOP):  # became a file or a link meanwhile
            os.unlink(name, dir_fd=parent_fd)
            return
        raise
    try:
        for entry in os.scandir(fd):
            if entry.is_dir(follow_symlinks=False):
                _remove_tree_at(fd, entry.name)
            else:
                try:
                    os.unlink(entry.name, dir_fd=fd)
                except IsADirectoryError:
                    _remove_tree_at(fd, entry.name)
                except PermissionError:
                    os.fchmod(fd, 0o700)  # a folder the agent made read-only (matters without root)
                    os.unlink(entry.name, dir_fd=fd)
    finally:
        os.close(fd)
    os.rmdir(name, dir_fd=parent_fd)
