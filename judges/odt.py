"""odt.* judges: OpenDocument text files read as AgentStudio's Writer checks read them with odfpy
(its docs_evaluator.py): ``styles.xml`` first, then ``content.xml``, each in document order.

A paragraph's text is what its ``text:p`` holds directly plus the text directly inside its
``text:span`` children (spaces given as ``text:s``, tabs, links and nested spans are not read);
headings (``text:h``) are not paragraphs. Span styles are looked up among the automatic styles of
both parts, as odfpy merges them into one.
"""

from __future__ import annotations

import re
import zipfile
from typing import Any
from xml.etree import ElementTree

from ..runtime.tasks.helpers import clip, gold_file
from ..runtime.tasks.steps import StepContext, Verdict, judge

_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"
_STYLE = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_FO_BACKGROUND = "{urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0}background-color"


def _parts(data: Any) -> list[Any]:
    """The root elements of styles.xml and content.xml (those present)."""
    with zipfile.ZipFile(data) as z:
        names = set(z.namelist())
        return [ElementTree.fromstring(z.read(n)) for n in ("styles.xml", "content.xml") if n in names]


def paragraph_texts(roots: list[Any]) -> list[str]:
    texts = []
    for root in roots:
        for para in root.iter(f"{_TEXT}p"):
            parts = [para.text or ""]
            for child in para:
                if child.tag == f"{_TEXT}span":
                    parts.append(child.text or "")
                    parts += [(grand.tail or "") for grand in child]
                parts.append(child.tail or "")
            texts.append("".join(parts))
    return texts


def highlighted_span(roots: list[Any], colour: str | None = None) -> str | None:
    """The first span whose automatic style has a property with a background colour other than
    ``transparent`` (or exactly ``colour``, when given), described; None when there is none."""
    styles: dict[str, list[Any]] = {}
    for root in roots:
        for auto in root.iter(f"{_OFFICE}automatic-styles"):
            for style in auto:
                styles.setdefault(style.get(f"{_STYLE}name", ""), []).append(style)
    for root in roots:
        for span in root.iter(f"{_TEXT}span"):
            name = span.get(f"{_TEXT}style-name")
            for style in styles.get(name or "", []) if name else []:
                for prop in style:
                    found = prop.get(_FO_BACKGROUND)
                    if found not in (None, "transparent") and (colour is None or found == colour):
                        return f"the span {clip(''.join(span.itertext()), 40)} is highlighted ({found})"
    return None


def _squeezed(texts: list[str]) -> str:
    return re.sub(r"\s+", " ", "\n".join(texts)).strip()


def _read(ctx: StepContext, path: str) -> tuple[str, list[Any]] | str:
    p = ctx.path(path)
    if not p.is_file():
        return f"{p} should be an OpenDocument text but does not exist"
    if p.suffix != ".odt":
        return f"{p.name} is not an .odt file"
    try:
        return p.name, _parts(p.bytes_io())
    except (zipfile.BadZipFile, ElementTree.ParseError) as exc:
        return f"{p.name} is not an OpenDocument file: {exc}"


@judge("odt.same_text")
def odt_same_text(ctx: StepContext, path: str, reference: str) -> Verdict:
    """``path``'s paragraphs, joined and every run of whitespace squeezed to one space, equal the gold
    document ``reference``'s (AgentStudio's ``compare_docx_files`` on two .odt files, its defaults)."""
    read = _read(ctx, path)
    if isinstance(read, str):
        return Verdict.fail(read)
    name, roots = read
    gold = gold_file(ctx, reference)
    with gold.open("rb") as f:
        gold_text = _squeezed(paragraph_texts(_parts(f)))
    text = _squeezed(paragraph_texts(roots))
    if text != gold_text:
        at = next((i for i, (a, b) in enumerate(zip(text, gold_text)) if a != b), min(len(text), len(gold_text)))
        return Verdict.fail(f"{name}'s text differs from {reference}'s at {clip(text[at:at + 40] or 'its end', 50)}"
                            f" (gold: {clip(gold_text[at:at + 40] or 'its end', 50)})")
    return Verdict.ok(f"{name}'s text is the gold document's")


@judge("odt.no_highlight")
def odt_no_highlight(ctx: StepContext, path: str, colour: str | None = None) -> Verdict:
    """No ``text:span`` of ``path`` has an automatic style with a background colour other than
    ``transparent`` (AgentStudio's ``check_highlighted_words``; paragraph and named styles are not read);
    with ``colour``, none has exactly that background colour (OSWorld's: ``#ffff00``, yellow)."""
    read = _read(ctx, path)
    if isinstance(read, str):
        return Verdict.fail(read)
    name, roots = read
    found = highlighted_span(roots, colour)
    if found:
        return Verdict.fail(f"{name}: {found}")
    return Verdict.ok(f"{name} has no span highlighted{f' in {colour}' if colour else ''}")
