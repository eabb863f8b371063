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


def _formatted(path: Path, change: str = "") -> Path:
    """A document with a centred title, an italic 14 pt run, a subscript, a page break, a struck
    last paragraph, Times New Roman runs and a page number in the footer; ``change`` spoils one."""
    from docx.enum.text import WD_BREAK, WD_PARAGRAPH_ALIGNMENT

    doc = docx.Document()
    title = doc.add_paragraph()
    title.add_run("Water facts").font.name = "Times New Roman"
    if change != "left-title":
        title.paragraph_format.alignment = WD_PARAGRAPH_ALIGNMENT.CENTER
    body = doc.add_paragraph()
    for text, italic, sub in (("H", False, False), ("2", False, change != "no-subscript"), ("O is ", False, False),
                              ("wet", True, False)):
        run = body.add_run(text)
        run.font.name = "Times New Roman" if change != "arial" or text != "wet" else "Arial"
        run.italic = italic or None
        run.font.subscript = sub or None
        if italic:
            run.font.size = Pt(14 if change != "italic-12" else 12)
    for _ in range({"no-break": 0, "two-breaks": 2}.get(change, 1)):
        page_break = body.add_run()
        page_break.font.name = "Times New Roman"
        page_break.add_break(WD_BREAK.PAGE)
    last = doc.add_paragraph()
    for text in ("Old ", "plan"):
        run = last.add_run(text)
        run.font.name = "Times New Roman"
        run.font.strike = not (change == "half-struck" and text == "plan")
    footer = doc.sections[0].footer.paragraphs[0]
    footer.text = "Page 1" if change != "no-number" else "Page"
    doc.save(str(path))
    return path


FORMAT_CASES = [
    ("is_first_line_centered", None, "", True),
    ("is_first_line_centered", None, "left-title", False),
    ("compare_font_names", {"font_name": "Times New Roman"}, "", True),
    ("compare_font_names", {"font_name": "Times New Roman"}, "arial", False),
    ("check_italic_font_size_14", "gold", "", True),
    ("check_italic_font_size_14", "gold", "italic-12", False),
    ("evaluate_strike_through_last_paragraph", "gold", "", True),
    ("evaluate_strike_through_last_paragraph", "gold", "half-struck", False),
    ("has_page_numbers_in_footers", None, "", True),
    ("has_page_numbers_in_footers", None, "no-number", False),
    ("contains_page_break", {"page_break_count": 1}, "", True),
    ("contains_page_break", {"page_break_count": 1}, "two-breaks", False),
    ("contains_page_break", {}, "two-breaks", True),
    ("contains_page_break", {}, "no-break", False),
    ("compare_subscript_contains", "gold", "", True),
    ("compare_subscript_contains", "gold", "no-subscript", False),
]


@pytest.mark.parametrize(("func", "expected", "change", "verdict"), FORMAT_CASES)
def test_writer_format_metrics(desktop_env: Any, deskact: Any, func: str, expected: Any, change: str,
                               verdict: bool) -> None:
    result = _formatted(deskact.home_file(RESULT), change)
    gold = _formatted(deskact.ctx.gold.parent / "expected.docx")
    evaluator: dict[str, Any] = {"func": func, "result": {"type": "vm_file", "path": RESULT, "dest": "essay.docx"}}
    if expected == "gold":
        evaluator["expected"] = {"type": "cloud_file", "path": GOLD_URL, "dest": "gold_essay.docx"}
        theirs = desktop_env.passes("docs", func, str(result), str(gold))
    elif expected is not None:
        evaluator["expected"] = {"type": "rule", "rules": expected}
        theirs = desktop_env.passes("docs", func, str(result), expected)
    else:
        theirs = desktop_env.passes("docs", func, str(result))
    ours = deskact.passes(evaluator, {GOLD_URL: gold})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


@pytest.mark.parametrize(("paragraphs", "verdict"), [
    (["The end.", "The Quick Brown Fox", "  It jumps over the lazy dog.", "", "The end."], True),
    (["The Quick Brown Fox", "It jumps over the lazy dog."], False),
    (["The Quick Brown Fox", "It jumps over the lazy dog.", "The end", ""], False),
])
def test_compare_docx_lines(desktop_env: Any, deskact: Any, paragraphs: list[str], verdict: bool) -> None:
    assert _agree(desktop_env, deskact, "compare_docx_lines", {}, {"paragraphs": paragraphs},
                  {"paragraphs": PARAGRAPHS}) is verdict


def _tabbed(path: Path, stops: list[tuple[float, str]], texts: tuple[str, ...] = ("John Smith\t12", "Ann Lee\t7"),
            picture_in: int | None = None) -> Path:
    """Paragraphs with tab stops (inches, alignment); a picture in paragraph ``picture_in``."""
    import io

    from docx.enum.text import WD_TAB_ALIGNMENT
    from docx.shared import Inches
    from PIL import Image

    doc = docx.Document()
    for n, text in enumerate(texts):
        para = doc.add_paragraph()
        if picture_in == n:  # the picture's run first, the text's second
            buf = io.BytesIO()
            Image.new("RGB", (8, 8), (0, 0, 255)).save(buf, "PNG")
            buf.seek(0)
            para.add_run().add_picture(buf, width=Inches(0.5))
        para.add_run(text)
        for inches, align in stops:
            para.paragraph_format.tab_stops.add_tab_stop(Inches(inches), getattr(WD_TAB_ALIGNMENT, align))
    doc.save(str(path))
    return path


@pytest.mark.parametrize(("options", "result", "verdict"), [
    ({}, {"stops": [(3.0, "RIGHT")]}, True),
    ({}, {"stops": [(3.1, "RIGHT")]}, False),
    ({}, {"stops": [(3.0, "LEFT")]}, False),
    ({}, {"stops": []}, False),
    ({}, {"stops": [(3.0, "RIGHT")], "texts": ("John Smith\t12",)}, False),
    ({"word_number_split_by_tabstop": 2, "index": 0}, {"stops": [(3.0, "RIGHT")]}, True),
    ({"word_number_split_by_tabstop": 3, "index": 0}, {"stops": [(3.0, "RIGHT")]}, False),
])
def test_check_tabstops(desktop_env: Any, deskact: Any, options: dict[str, Any], result: dict[str, Any],
                        verdict: bool) -> None:
    gold = _tabbed(deskact.ctx.gold.parent / "expected.docx", [(3.0, "RIGHT")])
    path = _tabbed(deskact.home_file(RESULT), **result)
    evaluator = {"func": "check_tabstops", "result": {"type": "vm_file", "path": RESULT},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "gold_essay.docx"}, "options": options}
    theirs = desktop_env.passes("docs", "check_tabstops", str(path), str(gold), **options)
    ours = deskact.passes(evaluator, {GOLD_URL: gold})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


# Runs are paired by position: a picture run against a text run differs; against no run at all
# (a paragraph with fewer runs) it is not compared, as in OSWorld.
@pytest.mark.parametrize(("picture_in", "verdict"), [(1, True), (None, False), (0, False)])
def test_compare_contains_image(desktop_env: Any, deskact: Any, picture_in: int | None, verdict: bool) -> None:
    gold = _tabbed(deskact.ctx.gold.parent / "expected.docx", [], picture_in=1)
    path = _tabbed(deskact.home_file(RESULT), [], picture_in=picture_in)
    evaluator = {"func": "compare_contains_image", "result": {"type": "vm_file", "path": RESULT},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "gold_essay.docx"}}
    theirs = desktop_env.passes("docs", "compare_contains_image", str(path), str(gold))
    ours = deskact.passes(evaluator, {GOLD_URL: gold})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


@pytest.mark.parametrize(("options", "paragraphs", "verdict"), [
    ({"ignore_blanks": False}, ["The Quick Brown Fox", "It jumps over the lazy dog.", "The end."], True),
    ({"ignore_blanks": False}, ["", "The Quick Brown Fox", "It jumps over the lazy dog.", "", "", "The end."], True),
    ({"ignore_blanks": False}, ["The Quick Brown Fox", " ", "It jumps over the lazy dog.", "The end."], False),
    ({"ignore_blanks": False}, ["The Quick Brown Fox", "It jumps over the lazy dog. ", "The end."], False),
    ({}, ["The Quick  Brown Fox", "It jumps over the lazy dog.", "The end."], True),
    ({}, ["The Quick Brown Fox", "It jumps over the lazy dog."], False),
])
def test_compare_docx_files_and_ignore_new_lines(desktop_env: Any, deskact: Any, options: dict[str, Any],
                                                 paragraphs: list[str], verdict: bool) -> None:
    assert _agree(desktop_env, deskact, "compare_docx_files_and_ignore_new_lines", options,
                  {"paragraphs": paragraphs}, {"paragraphs": PARAGRAPHS}) is verdict


def _with_pictures(path: Path, colors: list[tuple[int, int, int]]) -> Path:
    import io

    from docx.shared import Inches
    from PIL import Image

    doc = docx.Document()
    for color in colors:
        buf = io.BytesIO()
        Image.new("RGB", (6, 4), color).save(buf, "PNG")
        buf.seek(0)
        doc.add_paragraph().add_run().add_picture(buf, width=Inches(0.5))
    doc.save(str(path))
    return path


@pytest.mark.parametrize(("colors", "verdict"), [
    ([(255, 0, 0), (0, 0, 255)], True),
    ([(255, 0, 0), (0, 0, 254)], False),
    ([(255, 0, 0)], False),
    ([(0, 0, 255), (255, 0, 0)], False),
])
def test_compare_docx_images(desktop_env: Any, deskact: Any, colors: list[tuple[int, int, int]], verdict: bool) -> None:
    gold = _with_pictures(deskact.ctx.gold.parent / "expected.docx", [(255, 0, 0), (0, 0, 255)])
    path = _with_pictures(deskact.home_file(RESULT), colors)
    evaluator = {"func": "compare_docx_images", "result": {"type": "vm_file", "path": RESULT},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "gold_essay.docx"}}
    theirs = desktop_env.passes("docs", "compare_docx_images", str(path), str(gold))
    ours = deskact.passes(evaluator, {GOLD_URL: gold})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


REFERENCES = ["A study", "Some text.", "References", "[1] Lee, A. (2020). Water.", "", "[2] Chan, B. (2021). Air."]


@pytest.mark.parametrize(("options", "paragraphs", "verdict"), [
    ({"content_only": True, "reference_base_result": 0.92}, REFERENCES, True),
    ({"content_only": True, "reference_base_result": 0.92}, ["Other text", *REFERENCES[2:]], True),  # only references
    ({"content_only": True, "reference_base_result": 0.92}, [*REFERENCES[:5], "[2] Chan, B. (2021). Air"], False),
    ({}, REFERENCES[:4], False),
    ({}, [p for p in REFERENCES if p != "References"], False),
    ({"reference_indicator": "Bibliography"}, ["x"], True),  # neither has one
])
def test_compare_references(desktop_env: Any, deskact: Any, options: dict[str, Any], paragraphs: list[str],
                            verdict: bool) -> None:
    assert _agree(desktop_env, deskact, "compare_references", options, {"paragraphs": paragraphs},
                  {"paragraphs": REFERENCES}) is verdict
