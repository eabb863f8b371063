"""docx.* judges: Word documents read with python-docx.

Alignment and bold are read as Word resolves them: the paragraph's or run's
own setting, else its style chain, else the default (left, not bold).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Literal

from ..runtime.tasks.helpers import Regex, check_text, clip, gold_file, normalize
from ..runtime.tasks.step_paths import StepPath
from ..runtime.tasks.steps import StepContext, Verdict, judge
from . import odt as _odt  # noqa: F401 - registers odt.* (Writer's own format) with the docx judges
from ._docx_compare import Aspect, document_difference
from ._run_style import PROPS, Props, covering_runs, verdict

Alignment = Literal["left", "center", "right", "justify"]

# w:jc values (ECMA-376 and the "start"/"end" LibreOffice may write) -> our names.
_JC = {"left": "left", "start": "left", "center": "center", "right": "right", "end": "right",
       "both": "justify", "distribute": "justify", "mediumKashida": "justify",
       "highKashida": "justify", "lowKashida": "justify", "thaiDistribute": "justify"}


def _open(ctx: StepContext, path: str) -> tuple[StepPath, Any]:
    import docx

    p = ctx.path(path)
    if not p.is_file():
        raise _Missing(f"{p} should be a Word document but does not exist")
    return p, docx.Document(p.bytes_io())


class _Missing(Exception):
    pass


def document_text(doc: Any) -> str:
    """Paragraphs, then table cells row by row, one per line."""
    lines = [p.text for p in doc.paragraphs]
    for table in doc.tables:
        for row in table.rows:
            lines.append("\t".join(cell.text for cell in row.cells))
    return "\n".join(lines)


@judge("docx.text", one_of=("equals", "contains", "regex"))
def docx_text(
    ctx: StepContext, path: str, equals: str | None = None, contains: str | None = None,
    regex: Regex | None = None, keep_blank: bool = False,
) -> Verdict:
    """The document's text (paragraphs joined by newlines, then tables) equals/contains/matches.
    ``equals`` ignores empty paragraphs unless ``keep_blank`` (then an emptied paragraph counts)."""
    try:
        p, doc = _open(ctx, path)
    except _Missing as exc:
        return Verdict.fail(str(exc))
    text = document_text(doc)
    if equals is not None and not keep_blank:  # blank paragraphs are layout, not content
        text = "\n".join(line for line in text.split("\n") if line.strip())
        equals = "\n".join(line for line in normalize(equals).split("\n") if line.strip())
    return check_text(f"the text of {p.name}", text, equals, contains, regex)


def _qn(tag: str) -> str:
    from docx.oxml.ns import qn

    return qn(tag)


def _jc(element: Any) -> str | None:
    ppr = element.find(_qn("w:pPr")) if element is not None else None
    jc = ppr.find(_qn("w:jc")) if ppr is not None else None
    return jc.get(_qn("w:val")) if jc is not None else None


def paragraph_alignment(paragraph: Any) -> str:
    val = _jc(paragraph._p)
    style = paragraph.style
    while val is None and style is not None:
        val = _jc(style.element)
        style = style.base_style
    return _JC.get(val or "left", val or "left")


def run_bold(run: Any, paragraph: Any) -> bool:
    if run.bold is not None:
        return bool(run.bold)
    for style in (run.style, paragraph.style):
        while style is not None:
            bold = getattr(style.font, "bold", None)
            if bold is not None:
                return bool(bold)
            style = style.base_style
    return False


@judge("docx.paragraph")
def docx_paragraph(
    ctx: StepContext, path: str, index: int, text: str | None = None, contains: str | None = None,
    alignment: Alignment | None = None, bold: bool | None = None, italic: bool | None = None,
    style: str | None = None,
) -> Verdict:
    """Check the ``index``-th non-empty paragraph (0-based; -1 is the last): its text,
    alignment (left/center/right/justify), bold/italic (all its text, or none of it) and style."""
    try:
        p, doc = _open(ctx, path)
    except _Missing as exc:
        return Verdict.fail(str(exc))
    paras = [para for para in doc.paragraphs if para.text.strip()]
    if not -len(paras) <= index < len(paras):
        return Verdict.fail(
            f"{p.name} has only {len(paras)} non-empty paragraphs, so there is no paragraph {index}"
            f" (texts: {clip([x.text for x in paras[:8]], 200)})"
        )
    para = paras[index]
    label = f"{p.name} paragraph {index} ({clip(para.text, 60)})"
    problems = []
    if text is not None and para.text.strip() != text.strip():
        problems.append(f"text should be {clip(text, 80)} but is {clip(para.text, 120)}")
    if contains is not None and contains not in para.text:
        problems.append(f"text should contain {clip(contains, 80)}")
    if alignment is not None and (actual := paragraph_alignment(para)) != alignment:
        problems.append(f"alignment should be {alignment} but is {actual}")
    runs = [r for r in para.runs if r.text.strip()]
    if bold is not None:
        flags = [run_bold(r, para) for r in runs]
        if bold and not all(flags):
            problems.append(f"should be bold but {clip(' '.join(r.text for r, b in zip(runs, flags) if not b), 60)} is not")
        if not bold and any(flags):
            problems.append(f"should not be bold but {clip(' '.join(r.text for r, b in zip(runs, flags) if b), 60)} is")
    if italic is not None:
        flags = [bool(r.italic if r.italic is not None else (r.style.font.italic or para.style.font.italic)) for r in runs]
        if (italic and not all(flags)) or (not italic and any(flags)):
            problems.append(f"should {'' if italic else 'not '}be italic")
    if style is not None and para.style.name != style:
        problems.append(f"style should be {style!r} but is {para.style.name!r}")
    if problems:
        return Verdict.fail(f"{label}: " + "; ".join(problems))
    return Verdict.ok(f"{label} is as expected")


# --- docx.runs: the font, size and emphasis of the text that holds a phrase -----------
# A run's look comes from the run itself or, when it says nothing, from what it inherits:
# its character style, its paragraph's style chain and the document defaults (theme fonts
# resolved). So a heading made Arial through its style counts as Arial, like a person sees it.

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"


def _chain(style: Any) -> Iterator[Any]:
    while style is not None:
        yield style
        style = style.base_style


def _docx_getters() -> dict[str, Callable[[Any], Any]]:
    def color(f: Any) -> Any:
        return str(f.color.rgb) if f.color is not None and f.color.type is not None and f.color.rgb else None

    return {"font": lambda f: f.name, "size": lambda f: f.size.pt if f.size is not None else None,
            "bold": lambda f: f.bold, "italic": lambda f: f.italic,
            "underline": lambda f: None if f.underline is None else bool(f.underline), "color": color}


def _theme_fonts(doc: Any) -> dict[str, str]:
    from lxml import etree

    for part in doc.part.package.iter_parts():
        if str(part.partname).startswith("/word/theme/"):
            root = etree.fromstring(part.blob)
            return {kind: el.get("typeface") for kind in ("major", "minor")
                    if (el := root.find(f".//{_A}{kind}Font/{_A}latin")) is not None}
    return {}


def _docx_defaults(doc: Any) -> Props:
    rpr = doc.styles.element.find(f"{_W}docDefaults/{_W}rPrDefault/{_W}rPr")
    out: Props = {"bold": False, "italic": False, "underline": False, "color": None}
    if rpr is None:
        return out
    fonts, size = rpr.find(f"{_W}rFonts"), rpr.find(f"{_W}sz")
    if fonts is not None:
        theme = fonts.get(f"{_W}asciiTheme") or ""
        out["font"] = fonts.get(f"{_W}ascii") or _theme_fonts(doc).get(theme[:5])
    if size is not None:
        out["size"] = int(size.get(f"{_W}val")) / 2
    return out


def docx_run_props(run: Any, paragraph: Any, defaults: Props) -> Props:
    """What a person sees for ``run``: the first source (run, its character style chain, the paragraph
    style chain) that sets each property, else the document default."""
    sources = [run.font] + [s.font for s in _chain(run.style)] + [s.font for s in _chain(paragraph.style)]
    out: Props = {}
    for key, get in _docx_getters().items():
        out[key] = next((v for f in sources if (v := get(f)) is not None), defaults.get(key))
    return out


@judge("docx.runs")
def docx_runs(ctx: StepContext, path: str, text: str, font: str | None = None, size: float | None = None,
              bold: bool | None = None, italic: bool | None = None, underline: bool | None = None,
              color: str | None = None, alignment: str | None = None) -> Verdict:
    """Every run holding (part of) each occurrence of ``text`` has the ``font`` name, ``size`` (pt),
    ``bold``/``italic``/``underline`` and ``color`` (RGB hex) given, counting what it inherits from
    its styles and the document defaults; ``alignment`` checks the paragraphs (left/center/right/justify)."""
    try:
        p, doc = _open(ctx, path)
    except _Missing as exc:
        return Verdict.fail(str(exc))
    want = {k: v for k, v in zip(PROPS, (font, size, bold, italic, underline, color)) if v is not None}
    defaults = _docx_defaults(doc)
    runs: list[tuple[str, Props]] = []
    aligned: list[tuple[str, Props]] = []
    for para in doc.paragraphs:
        if text in para.text:
            aligned.append((para.text, {"alignment": paragraph_alignment(para)}))
            runs += [(r.text, docx_run_props(r, para, defaults)) for r in covering_runs(para.runs, para.text, text)]
    if alignment is not None:
        checked = verdict(p.name, text, aligned, {"alignment": alignment})
        if not checked.passed or not want:
            return checked
    return verdict(p.name, text, runs, want)


@judge("docx.compare")
def docx_compare(ctx: StepContext, path: str, reference: str,
                 compare: list[Aspect] = ["text"],  # noqa: B006 - never mutated
                 ignore_blanks: bool = True, ignore_case: bool = False, ignore_order: bool = False,
                 delete_empty_lines: bool = False, drop_empty_paragraphs: bool = False,
                 words_before_tab: int | None = None, tab_index: int = 0,
                 reference_indicator: str = "References", min_similarity: float = 0.5) -> Verdict:
    """``path`` matches the gold document ``reference`` (in the suite's gold/ folder) in the
    ``compare`` aspects, as OSWorld's docs metrics decide: ``text``, the body's paragraphs
    (``ignore_blanks``: only the words and their order count, whitespace squeezed; otherwise
    paragraph by paragraph; ``drop_empty_paragraphs`` leaves out those with no text at all,
    ``ignore_order`` sorts the paragraphs, ``delete_empty_lines`` drops blank ones); ``tables``, every table's size and stripped cell texts; ``line_spacing``,
    every paragraph's line spacing; ``line_set``, the set of non-empty paragraphs in any order;
    ``subscript``, some run is subscript in both at the same paragraph and run position;
    ``images``, paired runs both hold a picture or both do not; ``tab_stops``, the same non-empty
    paragraphs with the same tab stops (and, with ``words_before_tab``, that many words in each
    paragraph's ``tab_index``-th tab-separated part); ``pictures``, the same images (decoded
    pixels) in the same order; ``references``, the same non-blank paragraphs after the first one
    reading ``reference_indicator``. AgentStudio's own checks: ``equations``, both documents have
    paragraphs holding an equation, as many in each; ``tab_words``, its ``check_tabstops`` (the
    non-empty paragraph count and ``words_before_tab``; the tab stops fail only at a score of exactly
    0); ``similar_references``, both have the ``reference_indicator`` paragraph and as many references
    after it, their mean similarity (rapidfuzz's ratio) at least ``min_similarity``. Feedback names
    the first difference."""
    import docx

    try:
        p, doc = _open(ctx, path)
    except _Missing as exc:
        return Verdict.fail(str(exc))
    gold = docx.Document(str(gold_file(ctx, reference)))
    found = document_difference(doc, gold, list(compare), words_before_tab, tab_index, reference_indicator,
                                min_similarity,
                                ignore_blanks=ignore_blanks,
                                ignore_case=ignore_case, ignore_order=ignore_order, delete_empty_lines=delete_empty_lines,
                                drop_empty_paragraphs=drop_empty_paragraphs)
    if found:
        return Verdict.fail(f"{p.name} differs from the gold document {reference}: {found}")
    return Verdict.ok(f"{p.name} matches the gold document ({', '.join(compare)})")


@judge("docx.format")
def docx_format(ctx: StepContext, path: str, first_line_centered: bool = False, font: str | None = None,
                italic_size: float | None = None, last_paragraph_struck: bool = False,
                footer_page_numbers: bool = False, page_breaks: int | None = None,
                any_page_break: bool = False, table_words_by_vowel: bool = False) -> Verdict:
    """Formatting checks of OSWorld's Writer metrics, on the document's own settings (not what its
    styles give): ``first_line_centered`` (the first paragraph, even empty), ``font`` (every run of
    the body names it), ``italic_size`` (every italic run has that size in pt),
    ``last_paragraph_struck`` (every run of the last paragraph), ``footer_page_numbers`` (each
    section's footer starts with a paragraph holding a digit), ``page_breaks`` (exactly that many
    page breaks in the body's runs), ``any_page_break`` (at least one) and ``table_words_by_vowel``
    (AgentStudio's ``evaluate_colored_words_in_tables``: every run with text in the tables has its
    own colour, red-dominant where it starts with a vowel, blue-dominant otherwise)."""
    from . import _docx_checks as checks

    try:
        p, doc = _open(ctx, path)
    except _Missing as exc:
        return Verdict.fail(str(exc))
    problems = [found for wanted, check in (
        (first_line_centered, lambda: checks.first_line_not_centered(doc)),
        (font is not None, lambda: checks.runs_not_in_font(doc, font or "")),
        (italic_size is not None, lambda: checks.italic_runs_not_sized(doc, italic_size or 0)),
        (last_paragraph_struck, lambda: checks.last_paragraph_not_struck(doc)),
        (footer_page_numbers, lambda: checks.footer_without_number(doc)),
        (table_words_by_vowel, lambda: checks.table_word_not_coloured(doc)),
    ) if wanted and (found := check()) is not None]
    if page_breaks is not None or any_page_break:
        count = checks.page_breaks(doc)
        if page_breaks is not None and count != page_breaks:
            problems.append(f"it has {count} page breaks, not {page_breaks}")
        elif any_page_break and count == 0:
            problems.append("it has no page break")
    if problems:
        return Verdict.fail(f"{p.name}: " + "; ".join(problems))
    return Verdict.ok(f"{p.name} is formatted as expected")
