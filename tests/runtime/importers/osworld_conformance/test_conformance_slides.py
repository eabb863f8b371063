"""OSWorld's compare_pptx_files (desktop-env) and deskact's pptx.compare agree on right and
near-miss presentations, with the options OSWorld's tasks use."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from pptx import Presentation
from pptx.enum.text import PP_ALIGN
from pptx.util import Emu, Pt

pytestmark = pytest.mark.conformance

RESULT = "/home/user/Desktop/talk.pptx"
GOLD_URL = "https://example.org/gold/talk.pptx"


def _png() -> io.BytesIO:
    buf = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 30, 30)).save(buf, "PNG")
    buf.seek(0)
    return buf


def _deck(path: Path, change: str = "") -> Path:
    """A three-slide deck (title, bullets with notes, a table and a picture); ``change`` makes one
    near miss of it."""
    prs = Presentation()
    title = prs.slides.add_slide(prs.slide_layouts[0])
    title.shapes.title.text = "Quarterly Review" if change != "title" else "Quarterly review"
    title.placeholders[1].text = "Sales and outlook"
    if change == "center":
        title.placeholders[1].text_frame.paragraphs[0].alignment = PP_ALIGN.CENTER
    shape = title.shapes.title
    if change in ("move", "nudge"):  # a nudge of 0.1 % of the left edge is within OSWorld's tolerance
        top = shape.top  # inherited from the layout: setting left alone would write top 0
        shape.left = Emu(shape.left + (300000 if change == "move" else shape.left // 1000))
        shape.top = top

    body = prs.slides.add_slide(prs.slide_layouts[1])
    body.shapes.title.text = "Highlights"
    frame = body.placeholders[1].text_frame
    frame.text = "Revenue up"
    for text, level in (("Europe", 1), ("Costs down", 0)):
        para = frame.add_paragraph()
        para.text, para.level = text, level
    if change == "level":
        frame.paragraphs[1].level = 0
    run = frame.paragraphs[0].runs[0]
    run.font.size = Pt(28) if change != "size" else Pt(30)
    if change == "bold":
        run.font.bold = True
    if change == "not-bold":
        run.font.bold = False  # explicitly not bold: the same as unset
    body.notes_slide.notes_text_frame.text = "Mention the new office." if change != "notes" else "Skip."

    table_slide = prs.slides.add_slide(prs.slide_layouts[5])
    table_slide.shapes.title.text = "Numbers"
    table = table_slide.shapes.add_table(2, 2, Emu(500000), Emu(1500000), Emu(4000000), Emu(800000)).table
    for (r, c), text in {(0, 0): "Region", (0, 1): "Sales", (1, 0): "EU", (1, 1): "12"}.items():
        table.cell(r, c).text = text
    if change == "table-bold":
        table.cell(1, 1).text_frame.paragraphs[0].runs[0].font.bold = True
    width = Emu(1200000) if change != "resize-picture" else Emu(1500000)
    left = Emu(5000000) if change != "move-picture" else Emu(5600000)
    table_slide.shapes.add_picture(_png(), left, Emu(3000000), width=width)
    if change == "extra-slide":
        prs.slides.add_slide(prs.slide_layouts[6])
    prs.save(str(path))
    return path


CASES = [
    ({}, "", True),
    ({}, "nudge", True),
    ({}, "not-bold", True),
    ({}, "title", False),
    ({}, "center", False),
    ({}, "move", False),
    ({}, "level", False),
    ({}, "size", False),
    ({}, "bold", False),
    ({}, "notes", False),
    ({}, "table-bold", False),
    ({}, "extra-slide", False),
    ({"examine_shape": False}, "move", True),
    ({"examine_shape": False}, "title", False),
    ({"examine_note": False}, "notes", True),
    ({"examine_font_size": False}, "size", True),
    ({"examine_font_bold": False}, "bold", True),
    ({"examine_font_bold": False}, "table-bold", False),  # tables' bold is compared whatever the options
    # An alignment adds the paragraph's properties, where the bullets then find a level (0, not none).
    ({"examine_alignment": False}, "center", False),
    ({"examine_alignment": False, "examine_bullets": False}, "center", True),
    ({"examine_indent": False}, "level", False),  # the bullets still carry the level
    ({"examine_indent": False, "examine_bullets": False}, "level", True),
    ({"examine_number_of_slides": False}, "extra-slide", True),
    ({"examine_shape": False, "examine_image_size": True}, "move-picture", True),
    ({"examine_shape": False, "examine_image_size": True}, "resize-picture", False),
    ({"examine_shape": False, "examine_modify_height": True}, "resize-picture", False),
    ({"examine_shape": False, "examine_modify_height": True}, "move-picture", True),
    ({"examine_aligment": False}, "center", False),  # a typo in one OSWorld task: the option is never read
]


@pytest.mark.parametrize(("options", "change", "verdict"), CASES)
def test_compare_pptx_files(desktop_env: Any, deskact: Any, options: dict[str, Any], change: str,
                            verdict: bool) -> None:
    gold = _deck(deskact.ctx.gold.parent / "expected.pptx")
    result = _deck(deskact.home_file(RESULT), change)
    evaluator = {"func": "compare_pptx_files", "result": {"type": "vm_file", "path": RESULT, "dest": "talk.pptx"},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "gold_talk.pptx"},
                 "options": options}
    theirs = desktop_env.passes("slides", "compare_pptx_files", str(result), str(gold), **options)
    ours = deskact.passes(evaluator, {GOLD_URL: gold})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


def _positions(path: Path, title_top: int = 1000000, picture: tuple[int, int] = (1000000, 3000000),
               table_top: int = 1500000, elaborate_top: int = 2000000, note_top: int = 3000000) -> Path:
    """Three blank slides: two text boxes, a picture, a table, placed where asked (EMU)."""
    prs = Presentation()
    first = prs.slides.add_slide(prs.slide_layouts[6])
    first.shapes.add_textbox(Emu(500000), Emu(title_top), Emu(4000000), Emu(600000)).text = "Product Comparison"
    first.shapes.add_textbox(Emu(500000), Emu(elaborate_top), Emu(4000000), Emu(600000)).text = \
        "Elaborate on what you want to discuss."
    first.shapes.add_textbox(Emu(500000), Emu(note_top), Emu(4000000), Emu(600000)).text = "Note"
    second = prs.slides.add_slide(prs.slide_layouts[6])
    second.shapes.add_picture(_png(), Emu(picture[0]), Emu(picture[1]), width=Emu(1200000))
    third = prs.slides.add_slide(prs.slide_layouts[6])
    third.shapes.add_table(1, 1, Emu(500000), Emu(table_top), Emu(2000000), Emu(400000)).table.cell(0, 0).text = "x"
    prs.save(str(path))
    return path


@pytest.mark.parametrize(("option", "moved", "verdict"), [
    ("examine_title_bottom_position", {"title_top": 4000000}, True),
    ("examine_title_bottom_position", {}, False),
    ("examine_title_bottom_position", {"title_top": 3000000}, False),  # lower, but above 3600000 EMU
    # a text shape with the same text may move; a shape without text may not
    ("examine_title_bottom_position", {"title_top": 4000000, "note_top": 3500000}, True),
    ("examine_title_bottom_position", {"title_top": 4000000, "picture": (1500000, 3000000)}, False),
    ("examine_table_bottom_position", {"table_top": 4000000}, True),
    ("examine_table_bottom_position", {"table_top": 1000000}, False),
    ("examine_right_position", {"picture": (5000000, 3000000)}, True),
    ("examine_right_position", {"picture": (4000000, 3000000)}, False),
    ("examine_top_position", {"picture": (1000000, 1500000)}, True),
    ("examine_top_position", {"picture": (1000000, 2500000)}, False),
    ("examine_shape_for_shift_size", {"elaborate_top": 2500000}, True),
    ("examine_shape_for_shift_size", {"note_top": 3500000}, False),
])
def test_compare_pptx_files_task_specific_positions(desktop_env: Any, deskact: Any, option: str,
                                                    moved: dict[str, Any], verdict: bool) -> None:
    options = {"examine_shape": False, option: True}
    gold = _positions(deskact.ctx.gold.parent / "expected.pptx")
    result = _positions(deskact.home_file(RESULT), **moved)
    evaluator = {"func": "compare_pptx_files", "result": {"type": "vm_file", "path": RESULT},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "gold_talk.pptx"}, "options": options}
    theirs = desktop_env.passes("slides", "compare_pptx_files", str(result), str(gold), **options)
    ours = deskact.passes(evaluator, {GOLD_URL: gold})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


def _styled(path: Path, height: int = 5143500, transition: str | None = "dissolve", on_slide: int = 0,
            number_colors: tuple[str, ...] = ("FF0000", "000000")) -> Path:
    """Two slides, a transition on one, solid RGB colours in the slide master (the second to last
    is where OSWorld looks for the slide number's colour)."""
    from lxml import etree

    prs = Presentation()
    prs.slide_height = Emu(height)
    for _ in range(2):
        prs.slides.add_slide(prs.slide_layouts[6])
    p_ns, a_ns = "http://schemas.openxmlformats.org/presentationml/2006/main", \
        "http://schemas.openxmlformats.org/drawingml/2006/main"
    if transition is not None:
        node = etree.SubElement(prs.slides[on_slide]._element, f"{{{p_ns}}}transition")
        etree.SubElement(node, f"{{{p_ns}}}{transition}")
    for value in number_colors:
        fill = etree.SubElement(prs.slide_masters[0]._element, f"{{{a_ns}}}solidFill")
        etree.SubElement(fill, f"{{{a_ns}}}srgbClr").set("val", value)
    prs.save(str(path))
    return path


@pytest.mark.parametrize(("func", "rules", "change", "verdict"), [
    ("check_slide_orientation_Portrait", None, {"height": 12192000}, True),
    ("check_slide_orientation_Portrait", None, {}, False),
    ("check_transition", {"slide_idx": 0, "transition_type": "dissolve"}, {}, True),
    ("check_transition", {"slide_idx": 0, "transition_type": "dissolve"}, {"transition": "fade"}, False),
    ("check_transition", {"slide_idx": 0, "transition_type": "dissolve"}, {"on_slide": 1}, False),
    ("check_transition", {"slide_idx": 1, "transition_type": "dissolve"}, {"on_slide": 1}, True),
    ("check_transition", {"slide_idx": 5, "transition_type": "dissolve"}, {}, False),
    ("check_page_number_colors", {"color": "red"}, {}, True),
    ("check_page_number_colors", {"color": "red"}, {"number_colors": ("000000", "000000")}, False),
    ("check_page_number_colors", {"color": "black"}, {"number_colors": ("000000", "FF0000")}, True),
    # OSWorld reads "0000FF" as 00, 0F, F: never blue
    ("check_page_number_colors", {"color": "blue"}, {"number_colors": ("0000FF", "000000")}, False),
    ("check_page_number_colors", {"color": "red"}, {"number_colors": ("FF0000",)}, False),
])
def test_impress_format_metrics(desktop_env: Any, deskact: Any, func: str, rules: dict[str, Any] | None,
                                change: dict[str, Any], verdict: bool) -> None:
    result = _styled(deskact.home_file(RESULT), **change)
    evaluator: dict[str, Any] = {"func": func, "result": {"type": "vm_file", "path": RESULT}}
    if rules is None:
        theirs = desktop_env.passes("slides", func, str(result))
    else:
        evaluator["expected"] = {"type": "rule", "rules": rules}
        theirs = desktop_env.passes("slides", func, str(result), rules)
    ours = deskact.passes(evaluator)
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


def _backgrounds(path: Path, colors: list[str | None], master: str | None = None) -> Path:
    """Slides with their own solid background colour, or (None) following the master's."""
    from pptx.dml.color import RGBColor

    prs = Presentation()
    if master is not None:
        prs.slide_masters[0].background.fill.solid()
        prs.slide_masters[0].background.fill.fore_color.rgb = RGBColor.from_string(master)
    for color in colors:
        slide = prs.slides.add_slide(prs.slide_layouts[6])
        if color is not None:
            slide.background.fill.solid()
            slide.background.fill.fore_color.rgb = RGBColor.from_string(color)
    prs.save(str(path))
    return path


@pytest.mark.parametrize(("rules", "slides", "verdict"), [
    ({"rgb": [0, 0, 255]}, {"colors": ["0000FF", "0000FF"]}, True),
    ({"rgb": [0, 0, 255]}, {"colors": ["0000FF", "0000FE"]}, False),
    ({"rgb": [0, 0, 255]}, {"colors": ["0000FF", None], "master": "0000FF"}, True),
    ({"rgb": [0, 0, 255]}, {"colors": ["0000FF", None]}, False),
    ({"rgb": [0, 0, 255], "original_rgb": [0, 0, 255]}, {"colors": ["0000FF"]}, False),
])
def test_evaluate_presentation_fill_to_rgb_distance(desktop_env: Any, deskact: Any, rules: dict[str, Any],
                                                    slides: dict[str, Any], verdict: bool) -> None:
    result = _backgrounds(deskact.home_file(RESULT), **slides)
    evaluator = {"func": "evaluate_presentation_fill_to_rgb_distance", "result": {"type": "vm_file", "path": RESULT},
                 "expected": {"type": "rule", "rules": rules}}
    theirs = desktop_env.passes("slides", "evaluate_presentation_fill_to_rgb_distance", str(result), rules)
    ours = deskact.passes(evaluator)
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback


def _pictured(path: Path, box: tuple[int, int, int, int] | None, color: tuple[int, int, int] = (200, 30, 30)) -> Path:
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    if box is not None:
        buf = io.BytesIO()
        Image.new("RGB", (40, 30), color).save(buf, "PNG")
        buf.seek(0)
        left, top, width, height = box
        slide.shapes.add_picture(buf, Emu(left), Emu(top), Emu(width), Emu(height))
    prs.save(str(path))
    return path


@pytest.mark.parametrize(("box", "color", "verdict"), [
    ((0, 0, 9144000, 6858000), (200, 30, 30), True),
    ((100000, 100000, 9000000, 6700000), (200, 30, 30), True),  # within half an inch
    ((0, 0, 4572000, 3429000), (200, 30, 30), False),
    ((2286000, 1714500, 4572000, 3429000), (200, 30, 30), False),
    ((0, 0, 9144000, 6858000), (30, 200, 30), False),  # another picture
])
def test_check_image_stretch_and_center(desktop_env: Any, deskact: Any, box: tuple[int, int, int, int],
                                        color: tuple[int, int, int], verdict: bool) -> None:
    original = _pictured(deskact.ctx.gold.parent / "expected.pptx", (1000000, 1000000, 2000000, 1500000))
    result = _pictured(deskact.home_file(RESULT), box, color)
    evaluator = {"func": "check_image_stretch_and_center", "result": {"type": "vm_file", "path": RESULT},
                 "expected": {"type": "cloud_file", "path": GOLD_URL, "dest": "gold_talk.pptx"}}
    theirs = desktop_env.passes("slides", "check_image_stretch_and_center", str(result), str(original))
    ours = deskact.passes(evaluator, {GOLD_URL: original})
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({deskact.feedback}); desktop-env does not"
    assert ours is verdict, deskact.feedback
