"""OSWorld's evaluate_colored_words_in_tables (desktop-env docs.py: compare_docx_files, then each
table run's colour within CIEDE2000 3.5 of red for a vowel, of blue otherwise) and deskact's
docx.compare with docx.table_word_colours agree (writer-8472fece: colour a word list for a child)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.conformance

RESULT = "/home/user/Desktop/Dolch_Sight_Words_Primer.docx"
GOLD_URL = "https://example.org/gold/primer.docx"
WORDS = [["a", "and", "away"], ["big", "blue", "can"], ["come", "down", "find"]]
RED, BLUE = (255, 0, 0), (0, 0, 255)


def _doc(path: Path, colours: dict[str, tuple[int, int, int] | None], words: list[list[str]] = WORDS,
         heading: str = "Dolch Sight Words: Primer") -> Path:
    import docx
    from docx.shared import RGBColor

    document = docx.Document()
    document.add_paragraph(heading)
    table = document.add_table(rows=len(words), cols=len(words[0]))
    for r, row in enumerate(words):
        for c, word in enumerate(row):
            run = table.cell(r, c).paragraphs[0].add_run(word)
            colour = colours.get(word, RED if word[0] in "aeiou" else BLUE)
            if colour is not None:
                run.font.color.rgb = RGBColor(*colour)
    document.save(str(path))
    return path


CASES = [
    ({}, True),
    ({"away": (250, 10, 10)}, True),  # close to red
    ({"away": (200, 40, 40)}, False),
    ({"can": (20, 20, 235)}, True),
    ({"can": (60, 60, 200)}, False),
    ({"and": BLUE}, False),  # a vowel in blue
    ({"big": RED}, False),
    ({"find": None}, False),  # no colour of its own: the metric cannot measure it
    ({"a": (255, 0, 1)}, True),
]


@pytest.mark.parametrize(("colours", "verdict"), CASES)
def test_evaluate_colored_words_in_tables(desktop_env: Any, deskact: Any, colours: dict[str, Any], verdict: bool) -> None:
    gold = _doc(deskact.ctx.gold.parent / "gold.docx", {})
    result = _doc(deskact.home_file(RESULT), colours)
    evaluator = {"func": "evaluate_colored_words_in_tables",
                 "result": {"type": "vm_file", "path": RESULT, "dest": "Dolch_Sight_Words_Primer.docx"},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "Dolch_Sight_Words_Primer_Gold.docx"}}
    theirs = desktop_env.passes("docs", "evaluate_colored_words_in_tables", str(result), str(gold))
    ours = deskact.passes(evaluator, {GOLD_URL: gold})
    assert ours == theirs == verdict, f"deskact {ours} ({deskact.feedback}); desktop-env {theirs}"


@pytest.mark.parametrize(("heading", "words", "verdict"), [
    ("Dolch Sight Words: Primer!", WORDS, False),  # the body's text differs from the gold's
    # compare_docx_files reads the body's paragraphs, not the tables': a changed word there passes
    ("Dolch Sight Words: Primer", [["a", "and", "away"], ["big", "blue", "can"], ["come", "down", "fund"]], True),
])
def test_the_body_text_must_be_the_golds(desktop_env: Any, deskact: Any, heading: str, words: list[list[str]],
                                         verdict: bool) -> None:
    gold = _doc(deskact.ctx.gold.parent / "gold.docx", {})
    result = _doc(deskact.home_file(RESULT), {}, words, heading)
    evaluator = {"func": "evaluate_colored_words_in_tables",
                 "result": {"type": "vm_file", "path": RESULT, "dest": "Dolch_Sight_Words_Primer.docx"},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "Dolch_Sight_Words_Primer_Gold.docx"}}
    theirs = desktop_env.passes("docs", "evaluate_colored_words_in_tables", str(result), str(gold))
    ours = deskact.passes(evaluator, {GOLD_URL: gold})
    assert ours == theirs == verdict, f"deskact {ours} ({deskact.feedback}); desktop-env {theirs}"
