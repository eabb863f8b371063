"""OSWorld's docs metrics (desktop-env) and deskact's docx.compare agree on right and near-miss documents."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import docx
import pytest
from docx.shared import Pt

pytestmark = pytest.mark.conformance

RESULT = "/home/user/Desktop/essay.docx"
GOLD_URL = "https://example.org/gold/essay.docx"
PARAGRAPHS = ["The Quick Brown Fox", "It jumps over the lazy dog.", "", "The end."]


def _document(path: Path, paragraphs: list[str], table: list[list[str]] | None = None,
              spacing: dict[int, float] | None = None) -> Path:
    doc = docx.Document()
    for i, text in enumerate(paragraphs):
        para = doc.add_paragraph(text)
        if spacing and i in spacing:
            para.paragraph_format.line_spacing = spacing[i]
    if table:
        t = doc.add_table(rows=len(table), cols=len(table[0]))
        for r, row in enumerate(table):
            for c, text in enumerate(row):
                t.cell(r, c).text = text
    doc.save(str(path))
    return path


def _agree(desktop_env: Any, deskact: Any, func: str, options: dict[str, Any], result: dict[str, Any],
           gold: dict[str, Any]) -> bool:
    """Both sides' verdicts on the same two files; asserts they are the same and returns it."""
    gold_path = _document(deskact.ctx.gold.parent / "expected.docx", **gold)
    result_path = _document(deskact.home_file(RESULT), **result)
    evaluator = {"func": func, "result": {"type": "vm_file", "path": RESULT, "dest": "essay.docx"},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "gold_essay.docx"},
                 "options": options}
    theirs = desktop_env.passes("docs", func, str(result_path), str(gold_path), **options)
    ours = deskact.passes(evaluator, {GOLD_URL: gold_path})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}), desktop-env does not"
    return ours


CASES = [
    # (options, result paragraphs, verdict): the gold is PARAGRAPHS
    ({}, PARAGRAPHS, True),
    ({}, ["The  Quick Brown Fox", "It jumps over the lazy dog.", "The end."], True),  # blanks squeezed
    ({}, ["The Quick Brown Fox", "It jumps over the lazy cat.", "", "The end."], False),
    ({}, ["It jumps over the lazy dog.", "The Quick Brown Fox", "", "The end."], False),
    ({}, ["the quick brown fox", "It jumps over the lazy dog.", "", "The end."], False),
    ({"ignore_blanks": False}, PARAGRAPHS, True),
    ({"ignore_blanks": False}, ["The Quick Brown Fox", "It jumps over the lazy dog.", "The end."], False),
    ({"ignore_blanks": False}, ["The Quick Brown Fox ", "It jumps over the lazy dog.", "", "The end."], False),
    ({"ignore_blanks": True, "ignore_case": True}, ["the quick brown fox", *PARAGRAPHS[1:]], True),
    ({"ignore_blanks": True, "ignore_case": True}, ["the quick brown cat", *PARAGRAPHS[1:]], False),
    ({"ignore_blanks": True, "ignore_case": True, "ignore_order": True},
     ["The end.", "", "It jumps over the lazy dog.", "THE QUICK BROWN FOX"], True),
    ({"ignore_blanks": True, "ignore_case": True, "ignore_order": True},
     ["The end.", "", "It jumps over the lazy dog."], False),
]


@pytest.mark.parametrize(("options", "paragraphs", "verdict"), CASES)
def test_compare_docx_files(desktop_env: Any, deskact: Any, options: dict[str, Any], paragraphs: list[str],
                            verdict: bool) -> None:
    assert _agree(desktop_env, deskact, "compare_docx_files", options, {"paragraphs": paragraphs},
                  {"paragraphs": PARAGRAPHS}) is verdict


TABLE = [["Name", "Score"], ["Ann", "3"], ["Bob", "5"]]


@pytest.mark.parametrize(("table", "verdict"), [
    (TABLE, True),
    ([["Name", "Score"], ["Ann", " 3 "], ["Bob", "5"]], True),  # cell texts are stripped
    ([["Name", "Score"], ["Ann", "3"], ["Bob", "6"]], False),
    ([*TABLE, ["Cy", "1"]], False),
])
def test_compare_docx_tables(desktop_env: Any, deskact: Any, table: list[list[str]], verdict: bool) -> None:
    # the paragraphs differ on purpose: only the tables are compared
    assert _agree(desktop_env, deskact, "compare_docx_tables", {}, {"paragraphs": ["draft"], "table": table},
                  {"paragraphs": PARAGRAPHS, "table": TABLE}) is verdict


@pytest.mark.parametrize(("paragraphs", "spacing", "verdict"), [
    (PARAGRAPHS, {0: 2.0, 1: 1.5}, True),
    (PARAGRAPHS, {0: 2.0, 1: 2.0}, False),
    (PARAGRAPHS, {0: 2.0}, False),
    (["The Quick Brown Fox", "It jumps over the lazy cat.", "", "The end."], {0: 2.0, 1: 1.5}, False),
])
def test_compare_line_spacing(desktop_env: Any, deskact: Any, paragraphs: list[str], spacing: dict[int, float],
                              verdict: bool) -> None:
    assert _agree(desktop_env, deskact, "compare_line_spacing", {}, {"paragraphs": paragraphs, "spacing": spacing},
                  {"paragraphs": PARAGRAPHS, "spacing": {0: 2.0, 1: 1.5}}) is verdict


def test_feedback_names_the_difference(deskact: Any) -> None:
    gold = _document(deskact.ctx.gold.parent / "expected.docx", PARAGRAPHS)
    _document(deskact.home_file(RESULT), ["The Quick Brown Fox", "It jumps over the lazy cat.", "", "The end."])
    evaluator = {"func": "compare_docx_files", "result": {"type": "vm_file", "path": RESULT},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "gold_essay.docx"}}
    assert not deskact.passes(evaluator, {GOLD_URL: gold})
    assert "lazy cat" in deskact.feedback and "lazy dog" in deskact.feedback, deskact.feedback
