"""epub.same: an EPUB's table of contents, package file and HTML pages against a reference's, as
OSWorld's ``compare_epub`` (desktop-env 1.0.2) reads them.

The metric takes from each book (a zip): ``toc.ncx`` without its lines holding ``navPoint``,
``content.opf`` without its lines holding ``dc:identifier`` (each when the zip has it at its top),
and every ``.html`` member with its line breaks removed, parsed by lxml's HTML parser and written
back pretty-printed. It writes each to a folder beside the file, so an HTML page inside a folder of
the zip makes it raise (it never makes the folder): the score is 0. It sorts the files by name,
pairs the book's with the reference's in that order (``zip``: the shorter list decides how many
pairs), and scores the sum of difflib's line ratios over the pairs divided by the number of the
book's files. That is 1 only when the book has files, the reference has at least as many, and
each pair has the same lines: what this judge checks. A reference with more files than the book
passes the book whose files match the reference's first ones, as in OSWorld. Text is UTF-8, as
the metric decodes it. The books are read in memory, within the judge's zip limits.
"""

from __future__ import annotations

import io
import zipfile

from ..runtime.tasks.helpers import gold_file, shown
from ..runtime.tasks.steps import StepContext, Verdict, judge

_FILTERED = {"toc.ncx": "navPoint", "content.opf": "dc:identifier"}
"""Top-level member -> the text whose lines the metric drops from it."""


def epub_files(data: bytes) -> list[tuple[str, list[str]]]:
    """(name, lines) of each file the metric compares, sorted by name; [] for a file that is not a
    zip (the metric's own answer). Raises ValueError (or a decoding or parsing error) where the
    metric raises."""
    import lxml.html

    try:
        book = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        return []
    with book:
        names = book.namelist()
        listed: list[str] = []
        lines: dict[str, list[str]] = {}
        for name, dropped in _FILTERED.items():
            if name in names:
                lines[name] = [line for line in book.read(name).decode().splitlines() if dropped not in line]
                listed.append(name)
        for name in names:
            if not name.endswith(".html"):
                continue
            if "/" in name:
                raise ValueError(f"{name} is in a folder of the book: OSWorld's metric fails writing it out")
            text = "".join(ch for ch in book.read(name).decode() if ch not in "\r\n")
            page = lxml.html.fromstring(text.encode())
            # A later member of the same name overwrites the file the metric wrote for an earlier one.
            lines[name] = lxml.html.tostring(page, pretty_print=True, encoding="unicode").splitlines()
            listed.append(name)
    return [(name, lines[name]) for name in sorted(listed)]


def _first_difference(a: list[str], b: list[str]) -> str:
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    have = a[i][:120] if i < len(a) else "(no line)"
    want = b[i][:120] if i < len(b) else "(no line)"
    return f"line {i + 1}: {have!r} (reference: {want!r})"


@judge("epub.same")
def epub_same(ctx: StepContext, path: str, reference: str) -> Verdict:
    """``path`` is an EPUB whose ``toc.ncx`` (``navPoint`` lines aside), ``content.opf``
    (``dc:identifier`` lines aside) and HTML pages (re-serialized by lxml), sorted by name, have
    the lines of the first as many files of ``reference`` (an EPUB in the suite's gold/ folder), as
    OSWorld's ``compare_epub`` scores them. A missing file, a book with nothing to compare or with an
    HTML page in a folder fails."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{shown(ctx, p)} should be an EPUB but does not exist")
    books = []
    # Read first: a file past the judge's limits is an error naming the limit, not a failed comparison.
    for what, data in ((shown(ctx, p), p.read_bytes()), (reference, gold_file(ctx, reference).read_bytes())):
        try:
            books.append(epub_files(data))
        except Exception as exc:  # noqa: BLE001 - whatever the metric's reading raises scores 0
            return Verdict.fail(f"{what} cannot be read as OSWorld's compare_epub reads it ({type(exc).__name__}: {exc})")
    mine, gold = books
    if not mine:
        return Verdict.fail(f"{shown(ctx, p)} has no toc.ncx, content.opf or HTML page to compare (or is not a zip)")
    if len(gold) < len(mine):
        return Verdict.fail(f"{shown(ctx, p)} has {len(mine)} files to compare; the reference only {len(gold)}:"
                            f" {[n for n, _ in mine]} against {[n for n, _ in gold]}")
    for (name, have), (gold_name, want) in zip(mine, gold):
        if have != want:
            return Verdict.fail(f"{shown(ctx, p)}: {name} differs from the reference's {gold_name} at "
                                + _first_difference(have, want))
    return Verdict.ok(f"{shown(ctx, p)}'s {len(mine)} files have the lines of the reference's")
