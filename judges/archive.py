"""archive.contains: the members of a zip or tar archive."""

from __future__ import annotations

import tarfile
import zipfile
from typing import Any

from ..runtime.tasks.helpers import clip
from ..runtime.tasks.steps import StepContext, Verdict, judge


def archive_names(path: Any) -> list[str]:
    """Member names of a zip or tar(.gz/.bz2/.xz) archive, without './' and trailing '/'."""
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
    elif tarfile.is_tarfile(path):
        with tarfile.open(path) as tf:
            names = tf.getnames()
    else:
        raise ValueError("not a zip or tar archive")
    return [n.removeprefix("./").rstrip("/") for n in names if n.removeprefix("./").rstrip("/")]


@judge("archive.contains")
def archive_contains(ctx: StepContext, path: str, names: list[str], exact: bool = False) -> Verdict:
    """The zip/tar archive holds every member in ``names`` (paths inside the archive; folders
    as "dir" or "dir/"); with ``exact: true``, nothing else either (folder entries aside)."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be an archive but does not exist")
    try:
        with p.opened_path() as opened:  # the file opened through ctx.path, read by name in this process
            actual = archive_names(opened)
    except (ValueError, OSError, tarfile.TarError, zipfile.BadZipFile) as exc:
        return Verdict.fail(f"{p.name} is not a readable zip or tar archive ({exc})")
    want = [n.removeprefix("./").rstrip("/") for n in names]
    have = set(actual)
    # Archivers differ on whether folders get entries of their own: a file below counts.
    present = have | {"/".join(a.split("/")[:i]) for a in actual for i in range(1, a.count("/") + 1)}
    missing = [n for n in want if n not in present]
    if missing:
        return Verdict.fail(f"{p.name} lacks {clip(missing, 160)}; it holds {clip(sorted(have), 200)}")
    if exact:
        parents = {"/".join(n.split("/")[:i]) for n in want for i in range(1, n.count("/") + 1)}
        extra = sorted(have - set(want) - parents)
        if extra:
            return Verdict.fail(f"{p.name} should hold only {clip(want, 120)} but also holds {clip(extra, 160)}")
    return Verdict.ok(f"{p.name} holds {clip(want, 120)}")
