"""archive.contains: the members of a zip or tar archive; archive.same_pdfs: a zip's folder of PDFs against a reference zip's."""

from __future__ import annotations

import tarfile
import zipfile
from typing import Any

from ..runtime.tasks.helpers import clip, gold_file, shown
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


class _Unpacked:
    """A zip as ``shutil.unpack_archive`` would leave it on disk, kept in memory: each kept member's
    path (its name split at ``/``, empty and ``.`` parts dropped) -> its bytes (None for a folder).
    As that function does, members named from ``/`` or with ``..`` anywhere in the name are
    skipped, and a later member of the same name replaces an earlier one; a member that is a file
    where another needs a folder (or the reverse) makes the unpacking fail (ValueError)."""

    def __init__(self, data: bytes) -> None:
        import io

        self.entries: dict[tuple[str, ...], bytes | None] = {}
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            for info in zf.infolist():
                name = info.filename
                if name.startswith("/") or ".." in name:
                    continue
                parts = tuple(x for x in name.split("/") if x not in ("", "."))
                for i in range(1, len(parts) + (0 if not name.endswith("/") else 1)):
                    self._add(parts[:i], None)
                if not name.endswith("/"):
                    if not parts:
                        raise ValueError(f"member {name!r} names the folder it unpacks into")
                    self._add(parts, zf.read(info))

    def _add(self, parts: tuple[str, ...], data: bytes | None) -> None:
        old = self.entries.get(parts, data)
        if (old is None) != (data is None):
            raise ValueError(f"{'/'.join(parts)} is both a file and a folder")
        self.entries[parts] = data

    def listdir(self, folder: str) -> list[str]:
        """The names in ``folder`` (a path inside the archive; "" its top), sorted; ValueError
        when the unpacked archive has no such folder."""
        where = tuple(x for x in folder.split("/") if x not in ("", "."))
        if where and self.entries.get(where, b"") is not None:
            raise ValueError(f"it has no folder {folder}")
        return sorted(p[-1] for p in self.entries if len(p) == len(where) + 1 and p[:len(where)] == where)

    def file(self, folder: str, name: str) -> bytes | None:
        where = tuple(x for x in folder.split("/") if x not in ("", "."))
        return self.entries.get((*where, name))


@judge("archive.same_pdfs")
def archive_same_pdfs(ctx: StepContext, path: str, reference: str, folder: str = "") -> Verdict:
    """``path`` is a zip whose ``folder`` holds the same names as that folder of ``reference`` (a
    zip in the suite's gold/ folder), each a PDF with the text of the reference's (as
    ``pdf.same_text`` compares them): OSWorld's ``compare_archive`` with ``file_type: pdf``, which
    unpacks both archives, lists the folder and scores the mean of ``compare_pdfs`` over the pairs.
    An empty folder fails (the metric divides by zero), so does a sub-folder in it. The archives
    are read in memory, within the judge's zip limits, and never written anywhere."""
    from .pdf import pdf_text

    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{shown(ctx, p)} should be a zip archive but does not exist")
    unpacked: list[_Unpacked] = []
    # Read first: a file past the judge's limits is an error naming the limit, not a failed comparison.
    for what, data in ((shown(ctx, p), p.read_bytes()), (reference, gold_file(ctx, reference).read_bytes())):
        try:
            unpacked.append(_Unpacked(data))
        except (ValueError, OSError, zipfile.BadZipFile, NotImplementedError, RuntimeError, EOFError) as exc:
            return Verdict.fail(f"{what} cannot be unpacked as a zip ({type(exc).__name__}: {exc})")
    mine, gold = unpacked
    try:
        names, want = mine.listdir(folder), gold.listdir(folder)
    except ValueError as exc:
        return Verdict.fail(f"{shown(ctx, p)} or {reference}: {exc}")
    if names != want:
        return Verdict.fail(f"{shown(ctx, p)}'s {folder or 'top folder'} holds {clip(names, 200)};"
                            f" it should hold {clip(want, 200)}")
    if not names:
        return Verdict.fail(f"{shown(ctx, p)}'s {folder or 'top folder'} is empty (so is the reference's)")
    for name in names:
        have_data, want_data = mine.file(folder, name), gold.file(folder, name)
        if have_data is None or want_data is None:
            return Verdict.fail(f"{shown(ctx, p)}: {name} is a folder, not a PDF")
        try:
            same = pdf_text(have_data) == pdf_text(want_data)
        except Exception as exc:  # noqa: BLE001 - any parse error: compare_pdfs scores the pair 0
            return Verdict.fail(f"{shown(ctx, p)}: {name} is not a PDF that can be read ({type(exc).__name__}: {exc})")
        if not same:
            return Verdict.fail(f"{shown(ctx, p)}: {name}'s text differs from the reference's")
    return Verdict.ok(f"{shown(ctx, p)}'s {folder or 'top folder'} holds {len(names)} PDFs with the reference's text")


def pypdf2_text(data: bytes) -> str:
    """Every page's ``extract_text()`` by PyPDF2 3.0.1, joined without separators (OSWorld's
    ``compare_zip_files`` reads a PDF member so)."""
    import io

    from PyPDF2 import PdfReader

    return "".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


@judge("archive.same_members")
def archive_same_members(ctx: StepContext, path: str, reference: str, pdf_similarity: float = 0.95) -> Verdict:
    """``path`` is a zip with the same member names as ``reference`` (a zip in the suite's gold/
    folder), each member's bytes the reference's, except ``.pdf`` members (any case), whose texts
    (PyPDF2's) have a difflib ratio of at least ``pdf_similarity``: OSWorld's ``compare_zip_files``.
    A missing file, a file that is not a zip, or a member that cannot be read fails (the metric
    raises). Both zips are read in memory, within the judge's zip limits."""
    import difflib

    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{shown(ctx, p)} should be a zip archive but does not exist")
    import io

    # Read first: a file past the judge's limits is an error naming the limit, not a failed comparison.
    have_zip, gold_zip = p.read_bytes(), gold_file(ctx, reference).read_bytes()
    try:
        with zipfile.ZipFile(io.BytesIO(have_zip)) as mine, zipfile.ZipFile(io.BytesIO(gold_zip)) as gold:
            names, want = set(mine.namelist()), set(gold.namelist())
            if names != want:
                return Verdict.fail(f"{shown(ctx, p)} holds {clip(sorted(names), 200)}; it should hold"
                                    f" {clip(sorted(want), 200)} (missing {clip(sorted(want - names), 120)},"
                                    f" extra {clip(sorted(names - want), 120)})")
            for name in sorted(names):
                have, expected = mine.read(name), gold.read(name)
                if name.lower().endswith(".pdf"):
                    ratio = difflib.SequenceMatcher(None, pypdf2_text(have), pypdf2_text(expected)).ratio()
                    if ratio < pdf_similarity:
                        return Verdict.fail(f"{shown(ctx, p)}: {name}'s text is {ratio:.3f} similar to the"
                                            f" reference's, under {pdf_similarity}")
                elif have != expected:
                    return Verdict.fail(f"{shown(ctx, p)}: {name} differs from the reference's"
                                        f" ({len(have)} vs {len(expected)} bytes)")
    except Exception as exc:  # noqa: BLE001 - an unreadable zip, member or PDF: the metric raises and scores 0
        return Verdict.fail(f"{shown(ctx, p)} or {reference} cannot be compared ({type(exc).__name__}: {exc})")
    return Verdict.ok(f"{shown(ctx, p)} holds the reference's {len(names)} members")
