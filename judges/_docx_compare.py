"""Two Word documents compared as OSWorld's docs metrics compare them (read with python-docx).

Each function returns the first difference as a sentence, or None when the documents agree.
Semantics (from desktop-env's ``compare_docx_files``, ``compare_docx_tables`` and
``compare_line_spacing``): the body's paragraphs (not those inside tables) are compared;
``ignore_blanks`` (on by default) joins them and squeezes every run of whitespace to one space,
so only the words and their order count; without it, the paragraph lists must match one by one.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from ..runtime.tasks.helpers import clip

Aspect = Literal["text", "tables", "line_spacing", "line_set", "subscript", "images", "tab_stops", "pictures",
                 "references", "equations", "tab_words", "similar_references"]
ASPECTS: tuple[Aspect, ...] = ("text", "tables", "line_spacing", "line_set", "subscript", "images", "tab_stops",
                               "pictures", "references", "equations", "tab_words", "similar_references")
"""The order the aspects are checked in: OSWorld's (text first), then AgentStudio's own checks."""


def _squeezed(paragraphs: list[str]) -> str:
    return re.sub(r"\s+", " ", "\n".join(paragraphs)).strip()


def _first_divergence(actual: str, gold: str) -> str:
    """Where two texts part: a few words of each from the first differing character."""
    at = next((i for i, (a, g) in enumerate(zip(actual, gold)) if a != g), min(len(actual), len(gold)))
    start = actual.rfind(" ", 0, max(at - 20, 0)) + 1
    return (f"from {clip(actual[start:at + 40] or 'the end', 70)} where the gold document has"
            f" {clip(gold[start:at + 40] or 'nothing more', 70)}")


def text_difference(actual: Any, gold: Any, ignore_blanks: bool = True, ignore_case: bool = False,
                    ignore_order: bool = False, delete_empty_lines: bool = False,
                    drop_empty_paragraphs: bool = False) -> str | None:
    """The body text of ``actual`` against ``gold`` (python-docx Documents); ``drop_empty_paragraphs``
    leaves out paragraphs with no text at all first (``delete_empty_lines``: blank ones, later)."""
    paras_a = [p.text for p in actual.paragraphs if p.text != "" or not drop_empty_paragraphs]
    paras_g = [p.text for p in gold.paragraphs if p.text != "" or not drop_empty_paragraphs]
    if ignore_order:
        paras_a, paras_g = sorted(paras_a), sorted(paras_g)
    if delete_empty_lines:
        paras_a = [p for p in paras_a if p.strip()]
        paras_g = [p for p in paras_g if p.strip()]
    if ignore_blanks:
        text_a, text_g = _squeezed(paras_a), _squeezed(paras_g)
        if ignore_case:
            text_a, text_g = text_a.lower(), text_g.lower()
        return None if text_a == text_g else "the text differs " + _first_divergence(text_a, text_g)
    if len(paras_a) != len(paras_g):
        return f"it has {len(paras_a)} paragraphs; the gold document has {len(paras_g)}"
    for i, (a, g) in enumerate(zip(paras_a, paras_g)):
        if (a.lower() != g.lower()) if ignore_case else (a != g):
            return f"paragraph {i + 1} is {clip(a, 100)} (gold: {clip(g, 100)})"
    return None


def tables_difference(actual: Any, gold: Any) -> str | None:
    """Same number of tables, each with the same rows x columns and cell texts (stripped)."""
    tables_a, tables_g = actual.tables, gold.tables
    if len(tables_a) != len(tables_g):
        return f"it has {len(tables_a)} tables; the gold document has {len(tables_g)}"
    for n, (ta, tg) in enumerate(zip(tables_a, tables_g), 1):
        shape_a, shape_g = (len(ta.rows), len(ta.columns)), (len(tg.rows), len(tg.columns))
        if shape_a != shape_g:
            return f"table {n} is {shape_a[0]}x{shape_a[1]}; the gold one is {shape_g[0]}x{shape_g[1]}"
        for r in range(shape_a[0]):
            for c in range(shape_a[1]):
                a, g = ta.cell(r, c).text.strip(), tg.cell(r, c).text.strip()
                if a != g:
                    return f"table {n} row {r + 1} column {c + 1} is {clip(a, 80)} (gold: {clip(g, 80)})"
    return None


def line_spacing_difference(actual: Any, gold: Any) -> str | None:
    """Same number of paragraphs, each with the same line spacing (python-docx's value: a
    multiple such as 1.5, a fixed Length, or None when the paragraph inherits it)."""
    paras_a, paras_g = actual.paragraphs, gold.paragraphs
    if len(paras_a) != len(paras_g):
        return f"it has {len(paras_a)} paragraphs; the gold document has {len(paras_g)}"
    for i, (a, g) in enumerate(zip(paras_a, paras_g)):
        sa, sg = a.paragraph_format.line_spacing, g.paragraph_format.line_spacing
        if sa != sg:
            return (f"paragraph {i + 1} ({clip(a.text, 40)}) has line spacing {_spacing(sa)}"
                    f" (gold: {_spacing(sg)})")
    return None


def _spacing(value: Any) -> str:
    if value is None:
        return "inherited"
    if isinstance(value, float):
        return f"{value:g} lines"
    return f"{value.pt:g} pt"


def document_difference(actual: Any, gold: Any, compare: list[Aspect], words_before_tab: int | None = None,
                        tab_index: int = 0, reference_indicator: str = "References", min_similarity: float = 0.5,
                        **text_options: bool) -> str | None:
    """The first difference over ``compare``'s aspects, in OSWorld's order (text first)."""
    from ._docx_checks import (
        different_equations,
        different_images,
        different_line_sets,
        different_pictures,
        different_references,
        different_tab_stops,
        no_shared_subscript,
        references_not_similar,
        tab_words_difference,
    )

    checks = {"text": lambda: text_difference(actual, gold, **text_options),
              "tables": lambda: tables_difference(actual, gold),
              "line_spacing": lambda: line_spacing_difference(actual, gold),
              "line_set": lambda: different_line_sets(actual, gold),
              "subscript": lambda: no_shared_subscript(actual, gold),
              "images": lambda: different_images(actual, gold),
              "tab_stops": lambda: different_tab_stops(actual, gold, words_before_tab, tab_index),
              "pictures": lambda: different_pictures(actual, gold),
              "references": lambda: different_references(actual, gold, reference_indicator),
              "equations": lambda: different_equations(actual, gold),
              "tab_words": lambda: tab_words_difference(actual, gold, words_before_tab, tab_index),
              "similar_references": lambda: references_not_similar(actual, gold, reference_indicator, min_similarity)}
    for aspect in ASPECTS:
        if aspect in compare and (found := checks[aspect]()) is not None:
            return found
    return None
