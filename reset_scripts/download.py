"""files.download: put a file from a URL where the task needs it.

Imported benchmark tasks (OSWorld) fetch their inputs from the web; this step
keeps that working wherever the network does, and fails with a sentence naming
the URL when it does not (never a half-written file: the body goes to a
temporary file that is renamed into place). ``sha256`` pins the content, so a
changed upstream file fails the reset instead of silently changing the task.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

from ..runtime.tasks.steps import StepContext, StepFailed, reset_step
from ._common import FileMode, give_to_world, make_dirs, step_path

_CHUNK = 1 << 16
USER_AGENT = "deskact-files.download"


def fetch(url: str, target: Path, timeout: float, max_bytes: int, sha256: str | None = None) -> int:
    """Download ``url`` to ``target`` atomically; returns the size. Raises StepFailed with the reason."""
    if not url.startswith(("http://", "https://", "file://")):
        raise StepFailed(f"files.download: url {url!r} must start with http://, https:// or file://")
    digest = hashlib.sha256()
    size = 0
    fd, tmp = tempfile.mkstemp(prefix=".download-", dir=target.parent)
    try:
        request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
        with os.fdopen(fd, "wb") as out, urllib.request.urlopen(request, timeout=timeout) as resp:
            while chunk := resp.read(_CHUNK):
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
        reason = getattr(exc, "reason", exc)
        raise StepFailed(f"files.download: cannot fetch {url}: {reason} (is the network reachable?)") from exc
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return size


@reset_step("files.download")
def files_download(
    ctx: StepContext, url: str, path: str, sha256: str | None = None, mode: FileMode | None = None,
    timeout: float = 60, max_bytes: int = 200_000_000,
) -> None:
    """Download ``url`` (http, https or file) to ``path`` (parents created, replaced if there).

    ``sha256`` (hex) must match the downloaded bytes when given; ``max_bytes`` caps the size.
    Needs the network (a local server in tests); a failure names the URL and the reason.
    """
    target = step_path(ctx, path, "files.download")
    if target.is_dir() or path.endswith("/"):
        raise StepFailed(f"files.download: path {path!r} must name a file, not a folder")
    make_dirs(ctx, target.parent)
    fetch(url, target, timeout, max_bytes, sha256)
    give_to_world(ctx, target)
    if mode is not None:
        target.chmod(mode)
