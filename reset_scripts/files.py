"""files.* reset steps: build the workspace (and the world) a task starts from.

Relative paths are taken against the task's workspace; absolute ones as the
agent sees them (in the task's world when it has one: ``/etc/hosts`` is the
world's, and what a step creates there belongs to the world's root; without a
world only the workspace may be written); ``src`` params against the suite's
fixture folder (``${FILES}``). ``files.download`` fetches a file from a URL.
"""

from __future__ import annotations

import hashlib
import math
import os
import stat
import tempfile
import time
import urllib.error
import urllib.request
import zipfile
from datetime import datetime
from pathlib import Path, PurePosixPath

from ..runtime.tasks.helpers import FileMode, fixture, make_dirs, step_path
from ..runtime.tasks.limits import Seconds
from ..runtime.tasks.step_paths import StepPath
from ..runtime.tasks.steps import StepContext, StepFailed, reset_step
from ._accounts import accounts, group_id, host_id, user_id


@reset_step("files.mkdir")
def files_mkdir(ctx: StepContext, path: str) -> None:
    """Create a directory and its parents (fine if it exists)."""
    p = step_path(ctx, path, "files.mkdir")
    if p.exists() and not p.is_dir():
        raise StepFailed(f"files.mkdir: {p} exists and is not a directory")
    make_dirs(ctx, p)


@reset_step("files.write")
def files_write(ctx: StepContext, path: str, content: str = "", mode: FileMode | None = None) -> None:
    """Write a UTF-8 text file (parents created), optionally chmod it."""
    p = step_path(ctx, path, "files.write")
    if p.is_dir():
        raise StepFailed(f"files.write: {p} is a directory")
    make_dirs(ctx, p.parent)
    p.write_text(content, encoding="utf-8", owner=_world_root(ctx))  # an existing file keeps its owner
    if mode is not None:
        p.chmod(mode)


@reset_step("files.copy")
def files_copy(ctx: StepContext, src: str, dst: str) -> None:
    """Copy a fixture file or folder (``src`` relative to ${FILES}) to ``dst``.

    If ``dst`` is an existing directory, or ends with "/", the source is copied into it.
    """
    source = fixture(ctx, src)
    target = step_path(ctx, dst, "files.copy")
    if dst.endswith("/"):
        make_dirs(ctx, target)
    if target.is_dir():
        target = target / source.name
    make_dirs(ctx, target.parent)
    copy_in(ctx, source, target)


def copy_in(ctx: StepContext, source: Path, target: StepPath) -> None:
    """Host file or folder ``source`` copied to ``target`` (a folder: merged into it)."""
    if source.is_dir():
        make_dirs(ctx, target)
        for item in sorted(source.rglob("*")):
            relative = item.relative_to(source)
            # pip compiles an installed suite's .py fixtures into __pycache__ beside them: bytecode
            # of the package, not part of the task's files.
            if "__pycache__" not in relative.parts:
                _copy_one(ctx, item, target / str(relative))
    else:
        _copy_one(ctx, source, target)


def _copy_one(ctx: StepContext, source: Path, target: StepPath) -> None:
    """One fixture entry copied through descriptors in the world; the copy is writable (fixtures
    may be read-only in the package; the agent must be able to edit its copy) and the world root's."""
    if source.is_symlink():
        target.remove()
        target.symlink_to(os.readlink(source), owner=_world_root(ctx))
    elif source.is_dir():
        make_dirs(ctx, target)
    else:
        target.write_bytes(source.read_bytes(), owner=_world_root(ctx))
        st = source.stat()
        target.chmod(stat.S_IMODE(st.st_mode) | 0o200)
        target.utime((st.st_atime, st.st_mtime))


def _world_root(ctx: StepContext) -> tuple[int, int] | None:
    return (ctx.world.uid, ctx.world.uid) if ctx.world is not None else None


@reset_step("files.remove")
def files_remove(ctx: StepContext, path: str) -> None:
    """Remove a file, symlink or whole folder; a missing path is fine."""
    step_path(ctx, path, "files.remove").remove()  # descriptor by descriptor: links are removed, never followed


@reset_step("files.chmod")
def files_chmod(ctx: StepContext, path: str, mode: FileMode) -> None:
    """Set permission bits, e.g. ``mode: "0600"``."""
    p = step_path(ctx, path, "files.chmod")
    if not p.exists():
        raise StepFailed(f"files.chmod: {p} does not exist")
    p.chmod(mode)


@reset_step("files.chown")
def files_chown(ctx: StepContext, path: str, user: str, group: str | None = None, recursive: bool = False) -> None:
    """Give ``path`` (with ``recursive``, all it holds) to ``user`` and ``group`` (default: the
    user's primary group): names or numbers as the task's world knows them (its /etc/passwd)."""
    p = step_path(ctx, path, "files.chown")
    if not (p.exists() or p.is_symlink()):
        raise StepFailed(f"files.chown: {p} does not exist")
    try:
        uid = user_id(ctx, user)
        if group is not None:
            gid = group_id(ctx, group)
        else:
            gid = next((a.gid for a in accounts(ctx).values() if a.uid == uid), uid)
    except LookupError as exc:
        raise StepFailed(f"files.chown: {exc}") from None
    paths = [p] + (sorted(p.rglob("*")) if recursive and p.is_dir() and not p.is_symlink() else [])
    for q in paths:
        q.lchown(host_id(ctx, uid), host_id(ctx, gid))


@reset_step("files.touch")
def files_touch(ctx: StepContext, path: str, mtime: float | datetime | str | None = None) -> None:
    """Create an empty file if missing and set its modification time.

    ``mtime``: epoch seconds, an ISO date/time ("2024-03-01T12:00:00"), or
    a relative age like "-3d", "-2h", "-30m" (before now). Default: now.
    """
    p = step_path(ctx, path, "files.touch")
    make_dirs(ctx, p.parent)
    p.touch(owner=_world_root(ctx))
    stamp = _parse_time(mtime)
    p.utime((stamp, stamp))


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def _parse_time(value: float | datetime | str | None) -> float:
    now = datetime.now().timestamp()
    if value is None:
        return now
    if isinstance(value, datetime):
        return value.timestamp()
    if isinstance(value, (int, float)):
        return float(value)
    text = value.strip()
    if text[:1] in "+-" and text[-1:] in _UNITS:
        try:
            return now + float(text[:-1]) * _UNITS[text[-1]]
        except ValueError:
            pass
    try:
        return datetime.fromisoformat(text).timestamp()
    except ValueError:
        raise StepFailed(f"files.touch: mtime {value!r} is not epoch seconds, ISO time or like '-3d'") from None


@reset_step("files.unzip")
def files_unzip(ctx: StepContext, src: str, dst: str) -> None:
    """Extract a fixture zip archive (``src`` relative to ${FILES}) into folder ``dst``."""
    source = fixture(ctx, src)
    target = step_path(ctx, dst, "files.unzip")
    make_dirs(ctx, target)
    with zipfile.ZipFile(source) as zf:
        for info in zf.infolist():
            name = PurePosixPath(info.filename)
            if name.is_absolute() or ".." in name.parts:
                raise StepFailed(f"files.unzip: {src} member {info.filename!r} would land outside {target}")
        for info in zf.infolist():
            dest = target / info.filename.rstrip("/")
            if info.is_dir():
                make_dirs(ctx, dest)
                continue
            make_dirs(ctx, dest.parent)
            dest.write_bytes(zf.read(info), owner=_world_root(ctx))


# --- files.download: put a file from a URL where the task needs it. -------------------
#
# Imported benchmark tasks (OSWorld) fetch their inputs from the web; this step
# keeps that working wherever the network does, and fails with a sentence naming
# the URL when it does not (no half-downloaded file: the body goes to a host
# temporary file, checked, then written into the world through ``step_path``,
# where only a full disk can cut it short). ``sha256`` pins the content, so a
# changed upstream file fails the reset instead of silently changing the task.


_CHUNK = 1 << 16
USER_AGENT = "deskact-files.download"


def fetch(url: str, target: Path, timeout: float, max_bytes: int, sha256: str | None = None) -> int:
    """Download ``url`` to ``target`` atomically; returns the size. Raises StepFailed with the reason.

    ``timeout`` bounds the whole download, not each read: a server that trickles a byte at a time
    cannot hold a reset past it."""
    if not url.startswith(("http://", "https://", "file://")):
        raise StepFailed(f"files.download: url {url!r} must start with http://, https:// or file://")
    if not 0 < timeout < math.inf:
        raise StepFailed(f"files.download: timeout {timeout} must be a positive, finite number of seconds")
    deadline = time.monotonic() + timeout
    digest = hashlib.sha256()
    size = 0
    fd, tmp = tempfile.mkstemp(prefix=".download-", dir=target.parent)
    try:
        request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
        with os.fdopen(fd, "wb") as out, urllib.request.urlopen(request, timeout=timeout) as resp:
            read = getattr(resp, "read1", resp.read)  # what has arrived, not a full chunk: the deadline is checked
            while True:
                _shorten_reads(resp, deadline - time.monotonic(), url, timeout)
                chunk = read(_CHUNK)
                if not chunk:
                    break
                size += len(chunk)
                if size > max_bytes:
                    raise StepFailed(f"files.download: {url} is larger than max_bytes={max_bytes}")
                digest.update(chunk)
                out.write(chunk)
        if sha256 and digest.hexdigest() != sha256.lower():
            raise StepFailed(f"files.download: {url} has sha256 {digest.hexdigest()}, expected {sha256}")
        os.replace(tmp, target)
    except urllib.error.HTTPError as exc:
        raise StepFailed(f"files.download: {url} answered HTTP {exc.code} {exc.reason}") from exc
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        if time.monotonic() >= deadline:
            raise StepFailed(f"files.download: {url} took longer than timeout={timeout:g} s (the whole download)") from exc
        reason = getattr(exc, "reason", exc)
        raise StepFailed(f"files.download: cannot fetch {url}: {reason} (is the network reachable?)") from exc
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return size


def _shorten_reads(resp: object, left: float, url: str, timeout: float) -> None:
    """The socket's per-read timeout cut to the time the whole download has left."""
    if left <= 0:
        raise StepFailed(f"files.download: {url} took longer than timeout={timeout:g} s (the whole download)")
    sock = getattr(getattr(getattr(resp, "fp", None), "raw", None), "_sock", None)
    if sock is not None:
        sock.settimeout(left)


@reset_step("files.download")
def files_download(
    ctx: StepContext, url: str, path: str, sha256: str | None = None, mode: FileMode | None = None,
    timeout: Seconds = 60, max_bytes: int = 200_000_000,
) -> None:
    """Download ``url`` (http, https or file) to ``path`` (parents created, replaced if there),
    within ``timeout`` seconds for the whole download.

    ``sha256`` (hex) must match the downloaded bytes when given; ``max_bytes`` caps the size.
    Needs the network (a local server in tests); a failure names the URL and the reason.
    """
    target = step_path(ctx, path, "files.download")
    if target.is_dir() or path.endswith("/"):
        raise StepFailed(f"files.download: path {path!r} must name a file, not a folder")
    make_dirs(ctx, target.parent)
    with tempfile.TemporaryDirectory(prefix="deskact-download-") as tmp:
        # Fetched on the host, then written into the world through descriptors (never by its host path).
        local = Path(tmp, "body")
        fetch(url, local, timeout, max_bytes, sha256)
        target.write_bytes(local.read_bytes(), owner=_world_root(ctx))
    if mode is not None:
        target.chmod(mode)
