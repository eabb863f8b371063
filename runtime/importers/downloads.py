"""Files a source task names by URL, fetched once at import time into the suite folder.

A mirror is a mapping file from source URL to a local file or another URL, entry by
entry. A prefix rewrite cannot say where Google Drive's ``download?id=...`` URLs go,
and a folder of files named by their last path segment turns different URLs with the
same name into one file. Every write stays under ``--out``; every limit (one deadline
for all downloads of an import, a size cap per file and in total) turns into a report
reason for the task that needed the file, never a half-written suite.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import time
from pathlib import Path

import yaml
from pydantic import BaseModel, ValidationError

from .. import safe_yaml
from .common import ImportError_, ImportOptions, Untranslatable, inside


class MirrorEntry(BaseModel):
    """Where one source URL's bytes come from instead, and what they must be."""

    url: str | None = None
    """Another URL serving the same bytes."""
    path: Path | None = None
    """A local file holding them (relative paths are relative to the mirror file)."""
    sha256: str | None = None
    size: int | None = None


def load_mirror(path: Path) -> dict[str, MirrorEntry]:
    """A YAML or JSON mapping ``source URL: local path or URL`` (or ``{url|path, sha256, size}``)."""
    try:
        raw = safe_yaml.load_file(path)
    except (OSError, yaml.YAMLError) as exc:
        raise ImportError_(f"{path}: not a readable mirror file: {exc}") from exc
    if not isinstance(raw, dict):
        raise ImportError_(f"{path}: a mirror file maps source URLs to a local path or URL, got {type(raw).__name__}")
    out: dict[str, MirrorEntry] = {}
    for source, target in raw.items():
        if isinstance(target, str):
            target = {"url": target} if re.match(r"https?://", target) else {"path": target}
        try:
            entry = MirrorEntry.model_validate(target)
        except ValidationError as exc:
            raise ImportError_(f"{path}: entry {source!r}: {exc.errors()[0]['msg']}") from exc
        if (entry.url is None) == (entry.path is None):
            raise ImportError_(f"{path}: entry {source!r} needs exactly one of url and path")
        if entry.path is not None and not entry.path.is_absolute():
            entry.path = path.parent / entry.path
        out[str(source)] = entry
    return out


def web_url(url: str) -> str:
    """A source task may only name http(s) URLs: a ``file://`` one in a downloaded task file
    would copy a host file into the agent's world."""
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        raise Untranslatable(f"download url: {str(url)[:80]!r} is not http(s); only web URLs are imported")
    return url


def safe_name(name: str, fallback: str = "file") -> str:
    """One path segment made of word characters, dots and dashes, never ``.`` or ``..``."""
    return re.sub(r"[^\w.-]", "_", Path(str(name)).name).lstrip(".") or fallback


class Downloader:
    """One import's downloads: each URL fetched once into a cache under ``--out`` (each use a hard
    link to it), all within one deadline and one total size."""

    def __init__(self, opts: ImportOptions) -> None:
        self.opts = opts
        self.mirror = load_mirror(opts.mirror) if opts.mirror else {}
        self.cache = opts.out / ".downloads"
        self._done: dict[str, Path] = {}
        self._failed: dict[str, str] = {}
        self._owner: dict[Path, str] = {}
        self._started: float | None = None
        self.total_bytes = 0

    def source(self, url: str) -> str:
        """The URL a ``files.download`` step should name for ``url`` (its mirror URL, if any)."""
        entry = self.mirror.get(web_url(url))
        return entry.url if entry is not None and entry.url else url

    def local(self, url: str) -> bool:
        """The mirror gives a local file for ``url``: it must be copied into the suite."""
        entry = self.mirror.get(url)
        return entry is not None and entry.path is not None

    def get(self, url: str, folder: str, task_id: str, name: str) -> str:
        """``url``'s bytes at SUITE/<folder>/<task_id>/<name>; returns ``<task_id>/<name>``
        (``<stem>-2<suffix>`` when another URL of the task took that name)."""
        web_url(url)
        cached = self._cached(url)
        base, n = Path(safe_name(name)), 1
        rel = f"{safe_name(task_id, 'task')}/{base}"
        while self._owner.get(target := inside(self.opts.out / folder, rel), url) != url:
            n += 1
            rel = f"{safe_name(task_id, 'task')}/{base.stem}-{n}{base.suffix}"
        self._owner[target] = url
        target.parent.mkdir(parents=True, exist_ok=True)
        target.unlink(missing_ok=True)
        try:
            os.link(cached, target)
        except OSError:
            shutil.copyfile(cached, target)
        return rel

    def discard(self, task_id: str) -> None:
        """Remove what was fetched for a task that is not converted after all."""
        for folder in ("files", "gold"):
            d = inside(self.opts.out / folder, safe_name(task_id, "task"))
            self._owner = {p: u for p, u in self._owner.items() if d not in p.parents}
            shutil.rmtree(d, ignore_errors=True)

    def close(self) -> None:
        shutil.rmtree(self.cache, ignore_errors=True)

    def _cached(self, url: str) -> Path:
        if url in self._failed:
            raise Untranslatable(self._failed[url])
        if url not in self._done:
            self.cache.mkdir(parents=True, exist_ok=True)
            target = self.cache / hashlib.sha256(url.encode()).hexdigest()
            try:
                self._fetch(url, target)
            except Untranslatable as exc:
                self._failed[url] = str(exc)
                raise
            self._done[url] = target
        return self._done[url]

    def _fetch(self, url: str, target: Path) -> None:
        from ...reset_scripts.files import fetch
        from ..tasks.steps import StepFailed

        entry = self.mirror.get(url) or MirrorEntry(url=url)
        room = self.opts.max_total_bytes - self.total_bytes
        if room <= 0:
            raise Untranslatable(f"download: {url} not fetched: the import's downloads reached"
                                 f" --max-total-bytes {self.opts.max_total_bytes}")
        if entry.path is not None:
            self._copy_local(url, entry, target, room)
            return
        self._started = self._started or time.monotonic()
        left = self.opts.deadline - (time.monotonic() - self._started)
        if left <= 0:
            raise Untranslatable(f"download: {url} not fetched: the import's download deadline of"
                                 f" {self.opts.deadline:g} s had passed (--deadline)")
        try:
            size = fetch(str(entry.url), target, min(self.opts.timeout, left), min(self.opts.max_file_bytes, room),
                         entry.sha256)
        except StepFailed as exc:
            raise Untranslatable(f"download: {exc} (a --mirror file can map this URL to a local copy)") from exc
        self._check_size(url, entry, size, target)

    def _copy_local(self, url: str, entry: MirrorEntry, target: Path, room: int) -> None:
        src = Path(str(entry.path))
        if not src.is_file():
            raise Untranslatable(f"download: the mirror maps {url} to {src}, which is not a file")
        size = src.stat().st_size
        if size > min(self.opts.max_file_bytes, room):
            raise Untranslatable(f"download: the mirror's copy of {url} ({size} bytes) is over the size cap")
        if entry.sha256 and _sha256(src) != entry.sha256.lower():
            raise Untranslatable(f"download: the mirror's copy of {url} does not have sha256 {entry.sha256}")
        shutil.copyfile(src, target)
        self._check_size(url, entry, size, target)

    def _check_size(self, url: str, entry: MirrorEntry, size: int, target: Path) -> None:
        if entry.size is not None and size != entry.size:
            target.unlink(missing_ok=True)
            raise Untranslatable(f"download: {url} has {size} bytes, the mirror file says {entry.size}")
        self.total_bytes += size


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            digest.update(chunk)
    return digest.hexdigest()


def write_mirror(entries: dict[str, str], path: Path) -> None:
    """A mirror file for ``entries`` (source URL -> local path or URL), as ``load_mirror`` reads it."""
    path.write_text(json.dumps(entries, indent=1, sort_keys=True) + "\n", encoding="utf-8")
