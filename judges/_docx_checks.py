"""Single-document checks of OSWorld's Writer metrics (desktop-env's docs.py), read with python-docx
the way those metrics read them: direct formatting only (a run's own font, a paragraph's own
alignment), not what styles give. Each function returns what is wrong, or None."""

from __future__ import annotations

from typing import Any

from ..runtime.tasks.helpers import clip


def first_line_not_centered(doc: Any) -> str | None:
    """``is_first_line_centered``: the first paragraph (empty or not) is centred by its own setting."""
    from docx.enum.text import WD_PARAGRAPH_ALIGNMENT

    if not doc.paragraphs:
        return "the document has no paragraph"
    first = doc.paragraphs[0]
    if first.paragraph_format.alignment == WD_PARAGRAPH_ALIGNMENT.CENTER:
        return None
    return f"the first paragraph ({clip(first.text, 50)}) is not centred (its own alignment: {first.paragraph_format.alignment})"


def runs_not_in_font(doc: Any, font: str) -> str | None:
    """``compare_font_names``: every run of the body's paragraphs names ``font`` itself."""
    for para in doc.paragraphs:
        for run in para.runs:
            if run.font.name != font:
                return f"the run {clip(run.text, 40)} is in {run.font.name or 'the style font'}, not {font}"
    return None


def italic_runs_not_sized(doc: Any, size: float) -> str | None:
    """``check_italic_font_size_14``: every italic run (its own setting) has its own size ``size`` pt."""
    for para in doc.paragraphs:
        for run in para.runs:
            if run.italic and (run.font.size is None or run.font.size.pt != size):
                actual = f"{run.font.size.pt:g} pt" if run.font.size is not None else "the style size"
                return f"the italic run {clip(run.text, 40)} is {actual}, not {size:g} pt"
    return None


def last_paragraph_not_struck(doc: Any) -> str | None:
    """``evaluate_strike_through_last_paragraph``: every run of the last paragraph is struck through."""
    if not doc.paragraphs:
        return "the document has no paragraph"
    for run in doc.paragraphs[-1].runs:
        if not run.font.strike:
            return f"the last paragraph's run {clip(run.text, 40)} is not struck through"
    return None


def footer_without_number(doc: Any) -> str | None:
    """``has_page_numbers_in_footers``: each section's footer starts with a paragraph holding a digit."""
    for n, section in enumerate(doc.sections, 1):
        footer = section.footer
        text = footer.paragraphs[0].text if footer.paragraphs else ""
        if not any(ch.isdigit() for ch in text):
            return f"section {n}'s footer ({clip(text, 40)}) shows no page number"
    return None


def page_breaks(doc: Any) -> int:
    """``contains_page_break``: page breaks (``w:br w:type="page"``) in the body paragraphs' runs."""
    from docx.oxml.ns import qn

    return sum(1 for para in doc.paragraphs for run in para.runs for br in run.element.iter(qn("w:br"))
               if br.get(qn("w:type")) == "page")


def no_shared_subscript(actual: Any, gold: Any) -> str | None:
    """``compare_subscript_contains``: some run is subscript in both documents at the same place
    (paragraph and run position), as the metric pairs them."""
    for para_a, para_g in zip(actual.paragraphs, gold.paragraphs):
        for run_a, run_g in zip(para_a.runs, para_g.runs):
            if run_a.font.subscript and run_g.font.subscript:
                return None
    return "no run is subscript where the gold document has a subscript run"


def different_line_sets(actual: Any, gold: Any) -> str | None:
    """``compare_docx_lines``: the same set of non-empty paragraphs (stripped), in any order, repeats ignored."""
    lines_a = {p.text.strip() for p in actual.paragraphs if p.text.strip()}
    lines_g = {p.text.strip() for p in gold.paragraphs if p.text.strip()}
    if lines_a == lines_g:
        return None
    missing, extra = sorted(lines_g - lines_a), sorted(lines_a - lines_g)
    parts = ([f"lacks {clip(missing[:3], 120)}"] if missing else []) + ([f"has extra {clip(extra[:3], 120)}"] if extra else [])
    return "its lines differ: it " + " and ".join(parts)


def different_images(actual: Any, gold: Any) -> str | None:
    """``compare_contains_image``: paired runs (same paragraph and run position) both hold a
    picture (``graphicData``) or both do not."""
    for n, (para_a, para_g) in enumerate(zip(actual.paragraphs, gold.paragraphs), 1):
        for run_a, run_g in zip(para_a.runs, para_g.runs):
            has_a, has_g = "graphicData" in run_a._element.xml, "graphicData" in run_g._element.xml
            if has_a != has_g:
                return f"paragraph {n} {'has' if has_a else 'lacks'} a picture where the gold document {'does not' if has_a else 'has one'}"
    return None


def different_tab_stops(actual: Any, gold: Any, words_before_tab: int | None = None, tab_index: int = 0) -> str | None:
    """``check_tabstops`` at its full score: the same number of non-empty paragraphs, each with the
    same tab stops (alignment and position; cleared ones and a left one at 0 left out); with
    ``words_before_tab``, every paragraph's ``tab_index``-th tab-separated part has that many words."""
    import re

    from docx.enum.text import WD_TAB_ALIGNMENT

    paras_a = [p for p in actual.paragraphs if p.text.strip()]
    paras_g = [p for p in gold.paragraphs if p.text.strip()]
    if len(paras_a) != len(paras_g):
        return f"it has {len(paras_a)} non-empty paragraphs; the gold document has {len(paras_g)}"
    if not paras_a:
        return "it has no paragraph with text (OSWorld's check divides by their number)"
    if words_before_tab is not None:
        for para in paras_a:
            parts = para.text.split("\t")
            words = [w for w in re.split(r"\s", parts[tab_index]) if w.strip()] if tab_index < len(parts) else None
            if words is None or len(words) != words_before_tab:
                return f"the paragraph {clip(para.text, 50)} does not have {words_before_tab} words before its tab"

    def kept(stops: Any) -> list[Any]:
        return [t for t in stops if not (t.alignment == WD_TAB_ALIGNMENT.CLEAR
                                         or (t.alignment == WD_TAB_ALIGNMENT.LEFT and t.position == 0))]

    for para_a, para_g in zip(paras_a, paras_g):
        tabs_a, tabs_g = kept(para_a.paragraph_format.tab_stops), kept(para_g.paragraph_format.tab_stops)
        same = len(tabs_a) == len(tabs_g) and all(
            a.alignment == g.alignment and a.position == g.position for a, g in zip(tabs_a, tabs_g))
        if not same:
            show = lambda tabs: [(str(t.alignment).split(".")[-1].split(" ")[0], t.position) for t in tabs]  # noqa: E731
            return f"the paragraph {clip(para_a.text, 40)} has tab stops {show(tabs_a)} (gold: {show(tabs_g)})"
    return None


def different_pictures(actual: Any, gold: Any) -> str | None:
    """``compare_docx_images``: the images the document part relates to, in relationship order, are
    as many as the gold's and decode to the same pixels one by one."""
    import io

    from PIL import Image

    def pictures(doc: Any) -> list[bytes]:
        return [rel.target_part.blob for rel in doc.part.rels.values() if "image" in rel.reltype]

    pics_a, pics_g = pictures(actual), pictures(gold)
    if len(pics_a) != len(pics_g):
        return f"it holds {len(pics_a)} images; the gold document holds {len(pics_g)}"
    for n, (a, g) in enumerate(zip(pics_a, pics_g), 1):
        if Image.open(io.BytesIO(a)).tobytes() != Image.open(io.BytesIO(g)).tobytes():
            return f"image {n} differs from the gold document's image {n}"
    return None


def different_references(actual: Any, gold: Any, indicator: str = "References") -> str | None:
    """``compare_references`` at its full score: the non-blank paragraphs after the first paragraph
    that is exactly ``indicator`` are the gold's, one by one (neither document having one passes)."""
    paras_a, paras_g = [p.text for p in actual.paragraphs], [p.text for p in gold.paragraphs]
    if indicator not in paras_a and indicator not in paras_g:
        return None
    if indicator not in paras_a or indicator not in paras_g:
        which = "it has" if indicator in paras_a else "it has no"
        return f"{which} a {indicator!r} paragraph; the gold document {'does not' if indicator in paras_a else 'does'}"
    refs_a = [p for p in paras_a[paras_a.index(indicator) + 1:] if p.strip()]
    refs_g = [p for p in paras_g[paras_g.index(indicator) + 1:] if p.strip()]
    if len(refs_a) != len(refs_g):
        return f"it lists {len(refs_a)} references; the gold document {len(refs_g)}"
    for n, (a, g) in enumerate(zip(refs_a, refs_g), 1):
        if a != g:
            return f"reference {n} is {clip(a, 80)} (gold: {clip(g, 80)})"
    return None
