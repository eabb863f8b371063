"""docx.words: the words of a Word document's body paragraphs, counted and each checked against a list.

OSWorld's ``fuzzy_place_math`` splits the text of every body paragraph (python-docx's reading:
tables, headers and text boxes aside) at whitespace and scores the mean, over exactly three
words, of each word's best rapidfuzz ratio against a list of answers. That mean is 1 only when
there are three words and each one equals an answer (the ratio is 1 only for equal strings):
what this judge checks, with the count a parameter.
"""

from __future__ import annotations

from ..runtime.tasks.helpers import clip, shown
from ..runtime.tasks.steps import StepContext, Verdict, judge


@judge("docx.words")
def docx_words(ctx: StepContext, path: str, count: int, allowed: list[str]) -> Verdict:
    """The body paragraphs of ``path`` (a .docx), their text split at whitespace, give exactly
    ``count`` words, each one of ``allowed`` (the whole word, exactly). A missing or unreadable
    document fails."""
    import docx

    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{shown(ctx, p)} should be a Word document but does not exist")
    try:
        document = docx.Document(p.bytes_io())
    except Exception as exc:  # noqa: BLE001 - any parse error: the metric raises and scores 0
        return Verdict.fail(f"{shown(ctx, p)} is not a Word document that can be read ({type(exc).__name__}: {exc})")
    words = [word for paragraph in document.paragraphs for word in paragraph.text.split()]
    if len(words) != count:
        return Verdict.fail(f"{shown(ctx, p)} has {len(words)} word(s), not {count}: {clip(words, 300)}")
    known = set(allowed)
    others = [w for w in words if w not in known]
    if others:
        return Verdict.fail(f"{shown(ctx, p)}: {clip(others, 300)} is not one of the {len(known)} accepted answers")
    return Verdict.ok(f"{shown(ctx, p)} has {count} words, each an accepted answer")
