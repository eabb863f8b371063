"""pdf.* judges: what a PDF the agent made says, and how many pages it has (``pdf.pages``).

``pdf.same_text`` compares the text of two PDFs, every page in order, as OSWorld's
``compare_pdfs`` does (its score is 1 only for equal texts). The text is every character the
pages draw, in the order they draw them (pdfminer.six without its layout analysis, which would
reorder text by position), a line break where the baseline changes: spaces are kept as drawn,
two spaces stay two (PDFium's text merges them: a near miss it would pass). After a page's
contents come the texts its visible annotations draw (a filled form field's value is drawn by its
widget's appearance stream), each on lines of its own, as PyMuPDF reads them: without them, a form
filled with a wrong value would pass.
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
from pdfminer.pdftypes import PDFStream, dict_value, int_value, list_value, resolve1
from pdfminer.psparser import PSLiteral
from pdfminer.utils import MATRIX_IDENTITY, Matrix, apply_matrix_pt, mult_matrix

from ..runtime.tasks.helpers import clip, gold_file, shown
from ..runtime.tasks.steps import StepContext, Verdict, judge


def _chars(item: Any) -> Iterator[LTChar]:
    if isinstance(item, LTChar):
        yield item
    elif isinstance(item, LTContainer):
        for child in item:
            yield from _chars(child)


def _lines(page: Any) -> str:
    out: list[str] = []
    baseline = None
    for char in _chars(page):
        y = round(char.matrix[5], 1)
        if baseline is not None and y != baseline:
            out.append("\n")
        out.append(char.get_text())
        baseline = y
    return "".join(out)


_HIDDEN = 2 | 32
"""Annotation flags Hidden and NoView: not drawn, so not read."""


def _appearances(page: PDFPage) -> Iterator[tuple[Any, Matrix]]:
    """Each visible annotation's normal appearance stream (a filled form field's value is drawn by
    it, not by the page's contents) with the matrix that places its box on the annotation's Rect."""
    for ref in list_value(resolve1(page.annots) or []):
        try:
            found = _appearance(dict_value(resolve1(ref)))
        except (ValueError, TypeError, AttributeError):  # a malformed annotation draws nothing
            continue
        if found is not None:
            yield found


def _appearance(annot: dict[Any, Any]) -> tuple[Any, Matrix] | None:
    """One annotation's normal appearance and its placing matrix (PDF 32000, 12.5.5), or None."""
    if int_value(resolve1(annot.get("F", 0)) or 0) & _HIDDEN:
        return None
    normal = resolve1(dict_value(resolve1(annot.get("AP", {})) or {}).get("N"))
    if isinstance(normal, dict):  # appearance states (a check box): the one /AS names
        state = resolve1(annot.get("AS"))
        normal = resolve1(normal.get(state.name)) if isinstance(state, PSLiteral) else None
    if not isinstance(normal, PDFStream):
        return None
    a, b, c, d, e, f = (float(v) for v in list_value(resolve1(normal.attrs.get("Matrix", MATRIX_IDENTITY))))
    matrix: Matrix = (a, b, c, d, e, f)
    box = [float(v) for v in list_value(resolve1(normal.attrs.get("BBox", [0, 0, 0, 0])))]
    rect = [float(v) for v in list_value(resolve1(annot.get("Rect", [0, 0, 0, 0])))]
    corners = [apply_matrix_pt(matrix, (x, y)) for x in (box[0], box[2]) for y in (box[1], box[3])]
    tx0, ty0 = min(c[0] for c in corners), min(c[1] for c in corners)
    tx1, ty1 = max(c[0] for c in corners), max(c[1] for c in corners)
    sx = (max(rect[0], rect[2]) - min(rect[0], rect[2])) / (tx1 - tx0) if tx1 > tx0 else 1.0
    sy = (max(rect[1], rect[3]) - min(rect[1], rect[3])) / (ty1 - ty0) if ty1 > ty0 else 1.0
    to_rect = (sx, 0.0, 0.0, sy, min(rect[0], rect[2]) - tx0 * sx, min(rect[1], rect[3]) - ty0 * sy)
    return normal, mult_matrix(matrix, to_rect)


def _page_matrix(page: PDFPage) -> Matrix:
    """The page's base matrix, as pdfminer's own process_page makes it."""
    (x0, y0, x1, y1) = page.mediabox
    return {90: (0, -1, 1, 0, -y0, x1), 180: (-1, 0, 0, -1, x1, y1),
            270: (0, 1, -1, 0, y1, -x0)}.get(page.rotate, (1, 0, 0, 1, -x0, -y0))


def pdf_text(data: bytes) -> str:
    """Every page's text in page order, one line break between pages and where a character's
    baseline differs from the one before, surrounding whitespace stripped; after a page's contents,
    the text its visible annotations draw (filled form fields), each on lines of its own, as
    PyMuPDF's text reads it. Raises for a file that is not a PDF."""
    pages = []
    # No LAParams: extract_pages would put in its defaults, and their analysis orders text by position.
    device = PDFPageAggregator(PDFResourceManager(), laparams=None)
    interpreter = PDFPageInterpreter(device.rsrcmgr, device)
    for source in PDFPage.get_pages(io.BytesIO(data)):
        interpreter.process_page(source)
        parts = [_lines(device.get_result())]
        ctm = _page_matrix(source)
        for stream, matrix in _appearances(source):
            device.begin_page(source, ctm)
            resources = dict_value(resolve1(stream.attrs.get("Resources"))) or source.resources
            interpreter.render_contents(resources, [stream], ctm=mult_matrix(matrix, ctm))
            device.end_page(source)
            parts.append(_lines(device.get_result()))
        pages.append("\n".join(p for p in parts if p))
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
