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


# --- AgentStudio's own Writer checks (agent_studio/envs/desktop_env/evaluators/office/docs_evaluator.py) ---

def different_equations(actual: Any, gold: Any) -> str | None:
    """AgentStudio's ``compare_insert_equation``: both documents have paragraphs holding an equation
    (``<m:oMath`` in the paragraph's XML), as many in each; what the equations say is not compared."""
    def count(doc: Any) -> int:
        return sum(1 for para in doc.paragraphs if "<m:oMath" in para._element.xml)

    n_a, n_g = count(actual), count(gold)
    if not n_a or not n_g:
        return "it has no equation" if not n_a else "the gold document has no equation"
    if n_a != n_g:
        return f"it has {n_a} paragraphs with an equation; the gold document {n_g}"
    return None


def tab_words_difference(actual: Any, gold: Any, words_before_tab: int | None, tab_index: int = 0) -> str | None:
    """AgentStudio's ``check_tabstops``: as many non-empty paragraphs as the gold document; with
    ``words_before_tab``, each paragraph's ``tab_index``-th tab-separated part has that many words;
    the page has its width and margins set. Its tab-stop score fails only when it is exactly 0 (it
    returns early, passing, when two paired paragraphs have different tab stop counts or alignments),
    and so does this."""
    import re

    from docx.enum.text import WD_TAB_ALIGNMENT

    paras_a = [p for p in actual.paragraphs if p.text.strip()]
    paras_g = [p for p in gold.paragraphs if p.text.strip()]
    if len(paras_a) != len(paras_g):
        return f"it has {len(paras_a)} non-empty paragraphs; the gold document has {len(paras_g)}"
    if words_before_tab is not None:
        for para in paras_a:
            parts = para.text.split("\t")
            if tab_index >= len(parts):  # AgentStudio's check raises IndexError here
                return f"the paragraph {clip(para.text, 50)} has no part {tab_index} between tabs"
            words = [w for w in re.split(r"\s", parts[tab_index]) if w.strip()]
            if len(words) != words_before_tab:
                return f"the paragraph {clip(para.text, 50)} has {len(words)} words before its tab, not {words_before_tab}"
    section = actual.sections[0]
    if section.page_width is None or section.left_margin is None or section.right_margin is None:
        return "its page width or margins are not set"
    if not paras_g:
        return "it has no paragraph with text (AgentStudio's check divides by their number)"
    width = section.page_width - section.left_margin - section.right_margin

    def kept(para: Any) -> list[Any]:
        return [t for t in para.paragraph_format.tab_stops if not (
            t.alignment == WD_TAB_ALIGNMENT.CLEAR or (t.alignment == WD_TAB_ALIGNMENT.LEFT and t.position == 0))]

    minus = 0.0
    for para_g, para_a in zip(paras_g, paras_a):
        tabs_g, tabs_a = kept(para_g), kept(para_a)
        if len(tabs_g) != len(tabs_a) or any(g.alignment != a.alignment for g, a in zip(tabs_g, tabs_a)):
            return None
        minus += sum(abs(g.position - a.position) for g, a in zip(tabs_g, tabs_a)) / width
    if 1 - minus / len(paras_g) == 0:
        return "its tab stops are as far from the gold document's as AgentStudio's score allows (score 0)"
    return None


def indel_ratio(a: str, b: str) -> float:
    """rapidfuzz's ``fuzz.ratio`` / 100: 1 - the insertions and deletions turning ``a`` into ``b``
    over both lengths (2 x their longest common subsequence / both lengths); two empty texts are 1."""
    if not a and not b:
        return 1.0
    prev = [0] * (len(b) + 1)
    for ch in a:
        cur = [0]
        for j, other in enumerate(b):
            cur.append(prev[j] + 1 if ch == other else max(prev[j + 1], cur[j]))
        prev = cur
    return 2 * prev[-1] / (len(a) + len(b))


def references_not_similar(actual: Any, gold: Any, indicator: str, min_similarity: float) -> str | None:
    """AgentStudio's ``compare_references``: both documents have a paragraph that is exactly
    ``indicator``; the non-blank paragraphs after the first such one are as many as the gold's, and
    their mean ``indel_ratio`` with the gold's, one by one, is at least ``min_similarity``."""
    paras_a, paras_g = [p.text for p in actual.paragraphs], [p.text for p in gold.paragraphs]
    if indicator not in paras_a or indicator not in paras_g:
        return f"{'it' if indicator not in paras_a else 'the gold document'} has no {indicator!r} paragraph"
    refs_a = [p for p in paras_a[paras_a.index(indicator) + 1:] if p.strip()]
    refs_g = [p for p in paras_g[paras_g.index(indicator) + 1:] if p.strip()]
    if len(refs_a) != len(refs_g):
        return f"it lists {len(refs_a)} references; the gold document {len(refs_g)}"
    if not refs_g:  # AgentStudio divides by their number
        return "neither document lists a reference"
    mean = sum(indel_ratio(a, g) for a, g in zip(refs_a, refs_g)) / len(refs_g)
    if mean < min_similarity:
        return f"its references are {mean:.3f} similar to the gold document's, below {min_similarity:g}"
    return None


def table_word_not_coloured(doc: Any) -> str | None:
    """AgentStudio's ``evaluate_colored_words_in_tables``: every run with text in the tables has its own
    RGB colour, whose strongest channel (the first of equals) is red where the run's first letter is a
    vowel (aeiou, any case) and blue otherwise."""
    for table in doc.tables:
        for row in table.rows:
            for cell in row.cells:
                for para in cell.paragraphs:
                    for run in para.runs:
                        if not run.text:
                            continue
                        rgb = run.font.color.rgb
                        want = 0 if run.text[0].lower() in "aeiou" else 2
                        if rgb is None:
                            return f"the table word {clip(run.text, 30)} has no colour of its own"
                        channels = list(rgb)
                        if channels.index(max(channels)) != want:
                            return f"the table word {clip(run.text, 30)} is #{rgb}, not {('red', '', 'blue')[want]}"
    return None
