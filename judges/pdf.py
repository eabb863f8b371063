"""pdf.* judges: what a PDF the agent made says, and how many pages it has (``pdf.pages``).

``pdf.same_text`` compares the text of two PDFs, every page in order, as OSWorld's
``compare_pdfs`` does (its score is 1 only for equal texts). The text is every character the
pages draw, in the order they draw them (pdfminer.six without its layout analysis, which would
reorder text by position), a line break where the baseline changes: spaces are kept as drawn,
two spaces stay two (PDFium's text merges them: a near miss it would pass).
The file is read as bytes through the task's world (``ctx.path``) and parsed in memory.
"""

from __future__ import annotations

import io
import operator
from collections.abc import Iterator
from typing import Any, Literal

from pdfminer.converter import PDFPageAggregator
from pdfminer.layout import LTChar, LTContainer
from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
from pdfminer.pdfpage import PDFPage

from ..runtime.tasks.helpers import clip, gold_file, shown
from ..runtime.tasks.steps import StepContext, Verdict, judge


def _chars(item: Any) -> Iterator[LTChar]:
    if isinstance(item, LTChar):
        yield item
    elif isinstance(item, LTContainer):
        for child in item:
            yield from _chars(child)


def pdf_text(data: bytes) -> str:
    """Every page's text in page order, one line break between pages and where a character's
    baseline differs from the one before, surrounding whitespace stripped. Raises for a file that
    is not a PDF."""
    pages = []
    # No LAParams: extract_pages would put in its defaults, and their analysis orders text by position.
    device = PDFPageAggregator(PDFResourceManager(), laparams=None)
    interpreter = PDFPageInterpreter(device.rsrcmgr, device)
    for source in PDFPage.get_pages(io.BytesIO(data)):
        interpreter.process_page(source)
        page = device.get_result()
        out: list[str] = []
        baseline = None
        for char in _chars(page):
            y = round(char.matrix[5], 1)
            if baseline is not None and y != baseline:
                out.append("\n")
            out.append(char.get_text())
            baseline = y
        pages.append("".join(out))
    return "\n".join(pages).strip()


def _first_difference(a: str, b: str) -> str:
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"at character {i}: {clip(a[max(0, i - 20):i + 40])} (reference: {clip(b[max(0, i - 20):i + 40])})"


@judge("pdf.same_text")
def pdf_same_text(ctx: StepContext, path: str, reference: str) -> Verdict:
    """``path`` is a PDF whose text (every page, in order; surrounding whitespace aside) is the text
    of ``reference`` (a PDF in the suite's gold/ folder or ${FILES}). A missing or unreadable
    file fails: OSWorld's ``compare_pdfs`` scores it 0."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{shown(ctx, p)} should be a PDF with the text of {reference} but does not exist")
    try:
        have = pdf_text(p.read_bytes())
    except Exception as exc:  # noqa: BLE001 - any parse error: the metric scores it 0
        return Verdict.fail(f"{shown(ctx, p)} is not a PDF that can be read ({exc})")
    try:
        want = pdf_text(gold_file(ctx, reference).read_bytes())
    except Exception as exc:  # noqa: BLE001 - as above
        return Verdict.fail(f"the reference {reference} is not a PDF that can be read ({exc})")
    if have == want:
        return Verdict.ok(f"{shown(ctx, p)} has the text of {reference} ({len(have)} characters)")
    return Verdict.fail(f"{shown(ctx, p)}'s text differs from {reference}'s ({len(have)} vs {len(want)} characters) "
                        + _first_difference(have, want))


_RELATIONS = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


@judge("pdf.pages")
def pdf_pages(ctx: StepContext, path: str, relation: Literal["eq", "ne", "lt", "le", "gt", "ge"], count: int) -> Verdict:
    """``path`` is a PDF whose number of pages stands in ``relation`` (``eq``, ``lt``, ... as Python's
    operator module names them) to ``count``. A missing or unreadable file fails."""
    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{shown(ctx, p)} should be a PDF but does not exist")
    try:
        pages = sum(1 for _ in PDFPage.get_pages(io.BytesIO(p.read_bytes())))
    except Exception as exc:  # noqa: BLE001 - any parse error: OSWorld's metric raises and scores 0
        return Verdict.fail(f"{shown(ctx, p)} is not a PDF that can be read ({type(exc).__name__}: {exc})")
    if getattr(operator, relation)(pages, count):
        return Verdict.ok(f"{shown(ctx, p)} has {pages} page(s) ({_RELATIONS[relation]} {count})")
    return Verdict.fail(f"{shown(ctx, p)} has {pages} page(s); it should have {_RELATIONS[relation]} {count}")
