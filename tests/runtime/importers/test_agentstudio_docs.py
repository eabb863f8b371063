"""AgentStudio's own Writer checks (agent_studio/envs/desktop_env/evaluators/office/docs_evaluator.py),
as table-driven cases read from its source, each run through the importer's translation:
``compare_insert_equation`` (the texts equal, then as many equation paragraphs, at least one, in
each), ``evaluate_colored_words_in_tables`` (the texts equal, then every table run's strongest
channel red for a vowel, blue otherwise), ``check_tabstops`` (non-empty paragraph counts, the
words before the tab; tab stops decide only at a score of exactly 0), ``compare_references``
(mean rapidfuzz ratio of the references at least reference_base_result) and ``compare_docx_images``
(OSWorld's pictures aspect: AgentStudio's copy decides the same)."""

from __future__ import annotations

import copy
import io
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import docx
import pytest
from deskact.judges._docx_checks import indel_ratio
from deskact.runtime.importers.agentstudio import convert
from deskact.runtime.importers.common import ImportOptions, Untranslatable
from deskact.runtime.tasks.steps import StepContext, run_judge
from docx.enum.text import WD_TAB_ALIGNMENT
from docx.oxml import parse_xml
from docx.shared import Inches, RGBColor
from PIL import Image

GOLD = "${AS_ROOT}/data/0000/gold.docx"
MINE = "${AS_ROOT}/docs/mine.docx"
Doc = Any
Build = Callable[[], Doc]
_MATH = ('<m:oMathPara xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"><m:oMath><m:r>'
         '<m:t>(a+b)^2</m:t></m:r></m:oMath></m:oMathPara>')


def _doc(*paras: str) -> Doc:
    d = docx.Document()
    for text in paras:
        d.add_paragraph(text)
    return d


def _with_equations(n: int, text: str = "Factor it.") -> Doc:
    d = _doc(text)
    for _ in range(n):
        d.add_paragraph()._p.append(parse_xml(_MATH))
    return d


def _table(*words: tuple[str, tuple[int, int, int] | None]) -> Doc:
    d = _doc("Dolch words")
    table = d.add_table(rows=1, cols=len(words))
    for cell, (word, rgb) in zip(table.rows[0].cells, words):
        run = cell.paragraphs[0].add_run(word)
        if rgb is not None:
            run.font.color.rgb = RGBColor(*rgb)
    return d


def _tabbed(*lines: str, stop: float | None = None, alignment: Any = WD_TAB_ALIGNMENT.RIGHT) -> Doc:
    d = docx.Document()
    for line in lines:
        para = d.add_paragraph(line)
        if stop is not None:
            para.paragraph_format.tab_stops.add_tab_stop(Inches(stop), alignment)
    return d


def _refs(*refs: str, indicator: str = "References") -> Doc:
    return _doc("A case study.", indicator, *refs)


def _picture(colour: tuple[int, int, int]) -> Doc:
    d = _doc("A picture:")
    png = io.BytesIO()
    Image.new("RGB", (6, 4), colour).save(png, "PNG")
    d.add_paragraph().add_run().add_picture(io.BytesIO(png.getvalue()))
    return d


def _judged(ctx: StepContext, tmp_path: Path, function: str, params: dict[str, Any], gold: Doc, mine: Doc) -> bool:
    root = tmp_path / "as_root"
    (root / "data" / "0000").mkdir(parents=True)
    gold.save(str(root / "data" / "0000" / "gold.docx"))
    raw = {"task_id": "0000", "instruction": "Edit the document.",
           "eval_procedure": [{"evaluator": "docs", "function": function, "params": params}]}
    task, _ = convert(raw, "docs/0000.json", ImportOptions(out=tmp_path / "suite", files_root=root))
    assert ctx.gold is not None
    (ctx.gold / "data" / "0000").mkdir(parents=True)
    (ctx.gold / "data" / "0000" / "gold.docx").write_bytes((root / "data" / "0000" / "gold.docx").read_bytes())
    (ctx.workspace / "docs").mkdir()
    mine.save(str(ctx.workspace / "docs" / "mine.docx"))
    verdicts = []
    for item in task["judge"]:
        ((name, p),) = item.items()
        p = {k: v.replace("${WORKSPACE}", str(ctx.workspace)) if isinstance(v, str) else v for k, v in p.items()}
        verdicts.append(run_judge(name, p, ctx))
    assert not any(v.error for v in verdicts), [v.feedback for v in verdicts]
    return all(v.passed for v in verdicts)


EQUATION = {"docx_file1": GOLD, "docx_file2": MINE}
COLOURED = {"docx_ref": GOLD, "docx_file": MINE}
RED, BLUE, GREEN = (255, 0, 0), (0, 0, 255), (0, 160, 0)
TABS = {"docx_ref": GOLD, "docx_file": MINE, "kwargs": {"word_number_split_by_tabstop": 3, "index": 0}}
LINES = ("Buy the book\tonline today", "Read the preface\tbefore class")
REFS = {"docx_file1": GOLD, "docx_file2": MINE, "options": {"reference_base_result": 0.99}}
SMITH = "Smith, J. (2020). Case studies in practice. Journal of Cases, 12(3), 45-67."


@pytest.mark.parametrize(("function", "params", "gold", "mine", "passes"), [
    # compare_insert_equation
    ("compare_insert_equation", EQUATION, lambda: _with_equations(1), lambda: _with_equations(1), True),
    ("compare_insert_equation", EQUATION, lambda: _with_equations(1), lambda: _with_equations(0), False),  # missing
    ("compare_insert_equation", EQUATION, lambda: _with_equations(1), lambda: _with_equations(2), False),  # 2 != 1
    ("compare_insert_equation", EQUATION, lambda: _with_equations(1), lambda: _with_equations(1, "Factor."), False),
    # evaluate_colored_words_in_tables
    ("evaluate_colored_words_in_tables", COLOURED, lambda: _table(("apple", None), ("tree", None)),
     lambda: _table(("apple", RED), ("tree", BLUE)), True),
    ("evaluate_colored_words_in_tables", COLOURED, lambda: _table(("Egg", None), ("run", None)),
     lambda: _table(("Egg", (200, 10, 120)), ("run", (20, 90, 140))), True),  # strongest channel decides
    ("evaluate_colored_words_in_tables", COLOURED, lambda: _table(("apple", None), ("tree", None)),
     lambda: _table(("apple", BLUE), ("tree", RED)), False),
    ("evaluate_colored_words_in_tables", COLOURED, lambda: _table(("apple", None), ("tree", None)),
     lambda: _table(("apple", RED), ("tree", None)), False),  # no colour of its own
    ("evaluate_colored_words_in_tables", COLOURED, lambda: _table(("apple", None), ("tree", None)),
     lambda: _table(("apple", RED), ("tree", GREEN)), False),
    ("evaluate_colored_words_in_tables", COLOURED, lambda: _table(("apple", None), ("tree", None)),
     lambda: _table(("apple", (255, 0, 255)), ("tree", (0, 0, 255))), True),  # red == blue: red comes first
    ("evaluate_colored_words_in_tables", COLOURED, lambda: _table(("apple", None), ("pear", None)),
     lambda: _table(("apple", RED), ("tree", BLUE)), True),  # table text is not compared (body paragraphs only)
    ("evaluate_colored_words_in_tables", COLOURED, lambda: _table(("apple", None)),
     lambda: _doc("Dolch words!"), False),  # other body text
    # check_tabstops: the tab stops themselves do not decide
    ("check_tabstops", TABS, lambda: _tabbed(*LINES, stop=6), lambda: _tabbed(*LINES, stop=6), True),
    ("check_tabstops", TABS, lambda: _tabbed(*LINES, stop=6), lambda: _tabbed(*LINES), True),
    ("check_tabstops", TABS, lambda: _tabbed(*LINES, stop=6),
     lambda: _tabbed(*LINES, stop=2, alignment=WD_TAB_ALIGNMENT.CENTER), True),
    ("check_tabstops", TABS, lambda: _tabbed(*LINES, stop=6), lambda: _tabbed("Buy the book online today",
                                                                               LINES[1], stop=6), False),
    ("check_tabstops", TABS, lambda: _tabbed(*LINES, stop=6), lambda: _tabbed("Buy the\tbook online", LINES[1]), False),
    ("check_tabstops", TABS, lambda: _tabbed(*LINES, stop=6), lambda: _tabbed(LINES[0]), False),  # 1 paragraph != 2
    # compare_references with reference_base_result 0.99
    ("compare_references", REFS, lambda: _refs(SMITH), lambda: _refs(SMITH), True),
    ("compare_references", REFS, lambda: _refs(SMITH), lambda: _refs(SMITH.rstrip(".")), True),  # ratio 0.993
    ("compare_references", REFS, lambda: _refs(SMITH), lambda: _refs(SMITH.replace("(2020)", "(2021)")), False),  # 0.987
    ("compare_references", REFS, lambda: _refs(SMITH), lambda: _refs(SMITH.replace("Smith, J.", "Smyth, K.")), False),
    ("compare_references", REFS, lambda: _refs(SMITH), lambda: _refs(SMITH, indicator="Bibliography"), False),
    ("compare_references", REFS, lambda: _refs(SMITH), lambda: _refs(SMITH, SMITH), False),
    ("compare_references", {**REFS, "options": {}}, lambda: _refs(SMITH),
     lambda: _refs("Smith (2020), Case studies."), True),  # the default base is 0.5
    # compare_docx_images (OSWorld's pictures aspect)
    ("compare_docx_images", EQUATION, lambda: _picture(RED), lambda: _picture(RED), True),
    ("compare_docx_images", EQUATION, lambda: _picture(RED), lambda: _picture(BLUE), False),
    ("compare_docx_images", EQUATION, lambda: _picture(RED), lambda: _doc("A picture:"), False),
])
def test_agentstudio_writer_checks(ctx: StepContext, tmp_path: Path, function: str, params: dict[str, Any],
                                   gold: Build, mine: Build, passes: bool) -> None:
    assert _judged(ctx, tmp_path, function, copy.deepcopy(params), gold(), mine()) is passes


def test_a_tab_stop_score_of_exactly_zero_fails(ctx: StepContext, tmp_path: Path) -> None:
    # one paragraph whose tab stop is a full text width away from the gold's: score 1 - 1 = 0
    mine = _tabbed("Buy the book\tonline", stop=0.5)
    section = mine.sections[0]
    width_in = (section.page_width - section.left_margin - section.right_margin) / 914400
    gold = _tabbed("Buy the book\tonline", stop=0.5 + width_in)
    assert not _judged(ctx, tmp_path, "check_tabstops", copy.deepcopy(TABS), gold, mine)


@pytest.mark.parametrize(("a", "b", "ratio"), [
    ("", "", 1.0), ("abc", "abc", 1.0), ("abc", "", 0.0), ("this is a test", "this is a test!", 28 / 29),
    ("kitten", "sitting", 8 / 13),
])
def test_indel_ratio_is_rapidfuzz_ratio(a: str, b: str, ratio: float) -> None:
    assert indel_ratio(a, b) == pytest.approx(ratio)


def test_only_docx_pairs_translate(tmp_path: Path) -> None:
    raw = {"task_id": "0000", "instruction": "x", "eval_procedure": [{"evaluator": "docs", "function":
           "compare_insert_equation", "params": {"docx_file1": "${AS_ROOT}/data/0000/gold.odt",
                                                  "docx_file2": "${AS_ROOT}/docs/mine.odt"}}]}
    with pytest.raises(Untranslatable, match="only .docx"):
        convert(raw, "docs/0000.json", ImportOptions(out=tmp_path, files_root=tmp_path))


_ODT_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text='
           '"urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"'
           ' xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"')


def _odt(path: Path, body: str, background: str | None = None, styles_xml: str = "") -> None:
    colour = f' fo:background-color="{background}"' if background else ""
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        if styles_xml:
            z.writestr("styles.xml", f'<office:document-styles {_ODT_NS}>{styles_xml}</office:document-styles>')
        z.writestr("content.xml", f'<office:document-content {_ODT_NS}><office:automatic-styles><style:style'
                   f' style:name="T1" style:family="text"><style:text-properties{colour}/></style:style>'
                   f"</office:automatic-styles><office:body><office:text>{body}</office:text></office:body>"
                   "</office:document-content>")


SPAN = '<text:p>Call the <text:span text:style-name="T1">participant</text:span> today.</text:p>'
HIGHLIGHT = {"docx_ref": "${AS_ROOT}/data/0000/gold.odt", "docx_file": "${AS_ROOT}/docs/mine.odt"}
_STYLED_SPAN = ('<office:automatic-styles><style:style style:name="T9" style:family="text"><style:text-properties'
                ' fo:background-color="#ffff00"/></style:style></office:automatic-styles>')


@pytest.mark.parametrize(("gold_body", "mine_body", "background", "styles_xml", "passes"), [
    (SPAN, SPAN, None, "", True),
    (SPAN, SPAN, "transparent", "", True),
    (SPAN, SPAN, "#ffff00", "", False),
    (SPAN, "<text:p>Call the participant today.</text:p>", "#ffff00", "", True),  # no span left: nothing read
    (SPAN, "<text:p>Call the participant   today.</text:p>", None, "", True),  # whitespace squeezed
    (SPAN, "<text:p>Call the participant tomorrow.</text:p>", None, "", False),
    (SPAN, '<text:p>Call the<text:s/>participant today.</text:p>', None, "", False),  # text:s is not read
    (SPAN, f"<text:h>Script</text:h>{SPAN}", None, "", True),  # headings are not paragraphs
    # a span styled by styles.xml's automatic styles (odfpy merges both parts' into one)
    (SPAN, f'{SPAN}<text:p><text:span text:style-name="T9"></text:span></text:p>', None, _STYLED_SPAN, False),
])
def test_agentstudio_highlight_check(ctx: StepContext, tmp_path: Path, gold_body: str, mine_body: str,
                                     background: str | None, styles_xml: str, passes: bool) -> None:
    root = tmp_path / "as_root"
    (root / "data" / "0000").mkdir(parents=True)
    _odt(root / "data" / "0000" / "gold.odt", gold_body)
    raw = {"task_id": "0000", "instruction": "Remove the highlight.",
           "eval_procedure": [{"evaluator": "docs", "function": "check_highlighted_words", "params": HIGHLIGHT}]}
    task, _ = convert(raw, "docs/0000.json", ImportOptions(out=tmp_path / "suite", files_root=root))
    assert ctx.gold is not None
    (ctx.gold / "data" / "0000").mkdir(parents=True)
    (ctx.gold / "data" / "0000" / "gold.odt").write_bytes((root / "data" / "0000" / "gold.odt").read_bytes())
    (ctx.workspace / "docs").mkdir()
    _odt(ctx.workspace / "docs" / "mine.odt", mine_body, background, styles_xml)
    verdicts = []
    for item in task["judge"]:
        ((name, p),) = item.items()
        p = {k: v.replace("${WORKSPACE}", str(ctx.workspace)) for k, v in p.items()}
        verdicts.append(run_judge(name, p, ctx))
    assert not any(v.error for v in verdicts), [v.feedback for v in verdicts]
    assert all(v.passed for v in verdicts) is passes
