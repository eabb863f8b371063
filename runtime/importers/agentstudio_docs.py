"""AgentStudio's own Writer checks (its docs_evaluator.py, read from its source) -> docx judges.

These are the checks AgentStudio wrote itself rather than copied from OSWorld: an equation inserted,
words coloured in tables, its ``check_tabstops`` and its fuzzy ``compare_references``. Each
compares the agent's document with one of AgentStudio's data files (copied into gold/); both must be
``.docx`` (``.odt`` for the highlight check, which reads them with odfpy), as the source requires.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .common import Untranslatable, escape, step

if TYPE_CHECKING:
    from .agentstudio import Acc

Steps = list[dict[str, Any]]


def _pair(func: str, first: str, second: str, acc: Acc, suffix: str = ".docx") -> tuple[str, str]:
    """(the agent's document, the gold one in gold/) of two paths, one an AgentStudio data file."""
    from .agentstudio import text
    from .agentstudio_procedures import _is_data

    if _is_data(first) == _is_data(second):
        raise Untranslatable(f"docs.{func}: compares {first} with {second}; one must be an AgentStudio data file")
    result, expected = (second, first) if _is_data(first) else (first, second)
    if not (result.endswith(suffix) and expected.endswith(suffix)):
        raise Untranslatable(f"docs.{func}: only {suffix} pairs are read (AgentStudio fails any other)")
    return text(result), acc.data_file(expected, "gold")


def insert_equation(p: dict[str, Any], acc: Acc) -> Steps:
    """The same text (compare_docx_files with its defaults), then as many equation paragraphs."""
    path, gold = _pair("compare_insert_equation", str(p["docx_file1"]), str(p["docx_file2"]), acc)
    return [step("judge", "docx.compare", path=path, reference=gold, compare=["text", "equations"])]


def colored_words(p: dict[str, Any], acc: Acc) -> Steps:
    """The same text, then every table word coloured by its first letter."""
    path, gold = _pair("evaluate_colored_words_in_tables", str(p["docx_file"]), str(p["docx_ref"]), acc)
    return [step("judge", "docx.compare", path=path, reference=gold),
            step("judge", "docx.format", path=path, table_words_by_vowel=True)]


def tabstops(p: dict[str, Any], acc: Acc) -> Steps:
    """AgentStudio's check: paragraph count and words before the tab (its tab-stop score passes
    unless it is exactly 0, which the tab_words aspect keeps)."""
    kwargs = dict(p.get("kwargs") or {})
    unknown = sorted(set(kwargs) - {"word_number_split_by_tabstop", "index"})
    if unknown:
        raise Untranslatable(f"docs.check_tabstops: kwargs {unknown} not translated")
    path, gold = _pair("check_tabstops", str(p["docx_file"]), str(p["docx_ref"]), acc)
    acc.notes.append("docs.check_tabstops: AgentStudio's copy passes whatever the tab stops (unless its score is"
                     " exactly 0); the words before each paragraph's tab are what it checks, and so does the judge")
    return [step("judge", "docx.compare", path=path, reference=gold, compare=["tab_words"],
                 words_before_tab=kwargs.get("word_number_split_by_tabstop"), tab_index=int(kwargs.get("index", 0)))]


def references(p: dict[str, Any], acc: Acc) -> Steps:
    """Mean similarity of the references at least ``reference_base_result`` (0.5 by default)."""
    opts = dict(p.get("options") or {})
    unknown = sorted(set(opts) - {"reference_indicator", "reference_base_result"})
    if unknown:
        raise Untranslatable(f"docs.compare_references: options {unknown} not translated")
    path, gold = _pair("compare_references", str(p["docx_file1"]), str(p["docx_file2"]), acc)
    return [step("judge", "docx.compare", path=path, reference=gold, compare=["similar_references"],
                 reference_indicator=escape(str(opts.get("reference_indicator", "References"))),
                 min_similarity=float(opts.get("reference_base_result", 0.5)))]


def highlighted_words(p: dict[str, Any], acc: Acc) -> Steps:
    """The same text (compare_docx_files on two .odt files), then no highlighted span."""
    path, gold = _pair("check_highlighted_words", str(p["docx_file"]), str(p["docx_ref"]), acc, ".odt")
    return [step("judge", "odt.same_text", path=path, reference=gold), step("judge", "odt.no_highlight", path=path)]
