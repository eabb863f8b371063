"""pptx.* judges: slides read with python-pptx.

A title's alignment is resolved like PowerPoint does: the paragraph's own
``algn``, else the shape's list style, else the layout's placeholder, else
the master's title style, else left.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal

from ..runtime.tasks.helpers import clip, gold_file
from ..runtime.tasks.step_paths import StepPath
from ..runtime.tasks.steps import StepContext, Verdict, judge
from ._pptx_compare import Aspect, Extra, presentation_difference
from ._run_style import PROPS, Props, covering_runs, verdict

Alignment = Literal["left", "center", "right", "justify"]
_ALGN = {"l": "left", "ctr": "center", "r": "right", "just": "justify", "dist": "justify",
         "justLow": "justify", "thaiDist": "justify"}
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"


def _open(ctx: StepContext, path: str) -> tuple[StepPath, Any]:
    from pptx import Presentation

    p = ctx.path(path)
    if not p.is_file():
        raise FileNotFoundError(f"{p} should be a presentation but does not exist")
    return p, Presentation(p.bytes_io())


def _lvl1_algn(txbody: Any) -> str | None:
    if txbody is None:
        return None
    node = txbody.find(f"{_A}lstStyle/{_A}lvl1pPr")
    return node.get("algn") if node is not None else None


def title_alignment(slide: Any, shape: Any) -> str:
    para = shape.text_frame.paragraphs[0]._p
    ppr = para.find(f"{_A}pPr")
    algn = ppr.get("algn") if ppr is not None else None
    algn = algn or _lvl1_algn(shape._element.find(f"{_P}txBody"))
    if algn is None and shape.is_placeholder:
        idx = shape.placeholder_format.idx
        layout_ph = next((ph for ph in slide.slide_layout.placeholders if ph.placeholder_format.idx == idx), None)
        if layout_ph is not None:
            lp = layout_ph.text_frame.paragraphs[0]._p.find(f"{_A}pPr") if layout_ph.has_text_frame else None
            algn = (lp.get("algn") if lp is not None else None) or _lvl1_algn(layout_ph._element.find(f"{_P}txBody"))
    if algn is None:
        master = slide.slide_layout.slide_master._element
        node = master.find(f"{_P}txStyles/{_P}titleStyle/{_A}lvl1pPr")
        algn = node.get("algn") if node is not None else None
    return _ALGN.get(algn or "l", algn or "left")


def slide_text(slide: Any) -> str:
    parts = []
    for shape in slide.shapes:
        if shape.has_text_frame:
            parts.append(shape.text_frame.text)
        if getattr(shape, "has_table", False) and shape.has_table:
            parts.extend(cell.text for row in shape.table.rows for cell in row.cells)
    return "\n".join(parts)


@judge("pptx.slide")
def pptx_slide(
    ctx: StepContext, path: str, index: int, title: str | None = None,
    alignment: Alignment | None = None, contains: str | None = None,
) -> Verdict:
    """Check slide ``index`` (0-based; -1 is the last): its title text, the title's
    alignment, and/or that some text on the slide contains ``contains``."""
    try:
        p, prs = _open(ctx, path)
    except FileNotFoundError as exc:
        return Verdict.fail(str(exc))
    slides = list(prs.slides)
    if not -len(slides) <= index < len(slides):
        return Verdict.fail(f"{p.name} has {len(slides)} slides, so there is no slide {index}")
    slide = slides[index]
    shape = slide.shapes.title
    actual_title = shape.text_frame.text if shape is not None else None
    label = f"{p.name} slide {index}"
    problems = []
    if title is not None:
        if actual_title is None:
            problems.append(f"should have the title {clip(title, 80)} but has no title placeholder")
        elif actual_title.strip() != title.strip():
            problems.append(f"title should be {clip(title, 80)} but is {clip(actual_title, 120)}")
    if alignment is not None:
        if shape is None:
            problems.append(f"title should be aligned {alignment} but the slide has no title")
        elif (actual := title_alignment(slide, shape)) != alignment:
            problems.append(f"title alignment should be {alignment} but is {actual}")
    if contains is not None and contains not in (text := slide_text(slide)):
        problems.append(f"should contain {clip(contains, 80)} but its text is {clip(text, 160)}")
    if problems:
        return Verdict.fail(f"{label}: " + "; ".join(problems))
    return Verdict.ok(f"{label} is as expected")


@judge("pptx.count")
def pptx_count(ctx: StepContext, path: str, count: int) -> Verdict:
    """The presentation has exactly ``count`` slides."""
    try:
        p, prs = _open(ctx, path)
    except FileNotFoundError as exc:
        return Verdict.fail(str(exc))
    n = len(prs.slides)
    if n == count:
        return Verdict.ok(f"{p.name} has {count} slides")
    titles = [s.shapes.title.text_frame.text if s.shapes.title is not None else None for s in prs.slides]
    return Verdict.fail(f"{p.name} should have {count} slides but has {n} (titles: {clip(titles, 160)})")


# --- pptx.runs: the font, size and emphasis of the text that holds a phrase -----------
# A run's look comes from the run itself or, when it says nothing, from what it inherits: its
# paragraph, the shape's list style, the layout and master placeholders and the master's text
# styles, as a person sees it.


def _pptx_rpr_props(rpr: Any) -> Props:
    """Properties set on one a:rPr / a:defRPr element (None where it says nothing)."""
    if rpr is None:
        return {}
    out: Props = {}
    if rpr.get("sz"):
        out["size"] = int(rpr.get("sz")) / 100
    for key, attr in (("bold", "b"), ("italic", "i")):
        if rpr.get(attr) is not None:
            out[key] = rpr.get(attr) in ("1", "true")
    if rpr.get("u") is not None:
        out["underline"] = rpr.get("u") != "none"
    latin = rpr.find(f"{_A}latin")
    if latin is not None and latin.get("typeface"):
        out["font"] = latin.get("typeface")
    srgb = rpr.find(f"{_A}solidFill/{_A}srgbClr")
    if srgb is not None:
        out["color"] = srgb.get("val")
    return out


def _level_rpr(lst: Any, level: int) -> Any:
    return None if lst is None else lst.find(f"{_A}lvl{level + 1}pPr/{_A}defRPr")


def _placeholder_chain(shape: Any) -> Iterator[Any]:
    """The shape, then the layout placeholder and master placeholder it inherits from."""
    while shape is not None:
        yield shape
        shape = getattr(shape, "_base_placeholder", None) if shape.is_placeholder else None


def pptx_run_props(run: Any, paragraph: Any, shape: Any, slide: Any) -> Props:
    level = paragraph.level
    sources = [run._r.find(f"{_A}rPr"), paragraph._p.find(f"{_A}pPr/{_A}defRPr")]
    for s in _placeholder_chain(shape):
        body = s._element.find(f".//{_A}lstStyle") if s.has_text_frame else None
        sources.append(_level_rpr(body, level))
    master = slide.slide_layout.slide_master._element
    kind = "titleStyle" if shape.is_placeholder and "TITLE" in str(shape.placeholder_format.type) else (
        "bodyStyle" if shape.is_placeholder else "otherStyle")
    styles = master.find(f"{{http://schemas.openxmlformats.org/presentationml/2006/main}}txStyles/"
                         f"{{http://schemas.openxmlformats.org/presentationml/2006/main}}{kind}")
    sources.append(_level_rpr(styles, level))
    out: Props = {"bold": False, "italic": False, "underline": False}
    for source in reversed(sources):  # the nearest source wins
        out.update(_pptx_rpr_props(source))
    return out


@judge("pptx.runs")
def pptx_runs(ctx: StepContext, path: str, text: str, slide: int | None = None, font: str | None = None,
              size: float | None = None, bold: bool | None = None, italic: bool | None = None,
              underline: bool | None = None, color: str | None = None) -> Verdict:
    """Every run holding (part of) ``text`` (on slide ``slide``, 0-based, or any slide) has the ``font``,
    ``size`` (pt), ``bold``/``italic``/``underline`` and ``color`` (RGB hex) given, counting what it
    inherits from its paragraph, placeholder, layout and master."""
    from pptx import Presentation

    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p} should be a presentation but does not exist")
    slides = list(Presentation(p.bytes_io()).slides)
    chosen = slides if slide is None else slides[slide:slide + 1] if -len(slides) <= slide < len(slides) else []
    want = {k: v for k, v in zip(PROPS, (font, size, bold, italic, underline, color)) if v is not None}
    found = []
    for s in chosen:
        for shape in s.shapes:
            if not shape.has_text_frame:
                continue
            for para in shape.text_frame.paragraphs:
                text_of = "".join(r.text for r in para.runs)
                if text in text_of:
                    found += [(r.text, pptx_run_props(r, para, shape, s))
                              for r in covering_runs(list(para.runs), text_of, text)]
    where = p.name + (f" slide {slide}" if slide is not None else "")
    return verdict(where, text, found, want)


@judge("pptx.compare")
def pptx_compare(ctx: StepContext, path: str, reference: str, ignore: list[Aspect] | None = None,
                 extra: list[Extra] | None = None, tolerance: float = 0.005) -> Verdict:
    """``path`` matches the gold presentation ``reference`` (in the suite's gold/ folder) as OSWorld's
    ``compare_pptx_files`` decides: the slide count, each slide's background colour, notes and
    shapes (position and size within the relative ``tolerance``, table cells, text, paragraphs'
    alignment and level, runs' font name, size, bold, italic, colour, underline and
    strike-through, the bullets) and its text shapes inside groups. ``ignore`` leaves aspects out
    (OSWorld's ``examine_<aspect>: false``); ``extra`` adds ``image_size`` (pictures compared by
    size only), ``modify_height`` (shapes without text by height only), or one of the checks the
    metric has for single tasks (``title_bottom_position``, ``table_bottom_position``,
    ``right_position``, ``top_position``, ``shape_for_shift_size``: a shape moved past a fixed
    position). Feedback names the first difference."""
    from pptx import Presentation

    try:
        p, prs = _open(ctx, path)
    except FileNotFoundError as exc:
        return Verdict.fail(str(exc))
    gold = Presentation(str(gold_file(ctx, reference)))
    found = presentation_difference(prs, gold, ignore=ignore, extra=extra, tolerance=tolerance)
    if found:
        return Verdict.fail(f"{p.name} differs from the gold presentation {reference}: {found}")
    return Verdict.ok(f"{p.name} matches the gold presentation")


@judge("pptx.format")
def pptx_format(ctx: StepContext, path: str, portrait: bool = False, transition: str | None = None,
                transition_slide: int = 0, number_color: Literal["red", "blue", "green", "black"] | None = None,
                background_rgb: list[int] | None = None, not_background_rgb: list[int] | None = None,
                stretched_picture_of: str | None = None) -> Verdict:
    """Presentation-wide checks of OSWorld's Impress metrics: ``portrait`` (slides taller than
    wide), ``transition`` (slide ``transition_slide``, 0-based, has a transition of that kind, such
    as ``dissolve``, read from its XML), ``number_color`` (the second-to-last solid RGB colour of
    the first slide master, where OSWorld's ``check_page_number_colors`` finds the slide number's
    colour, is clearly red, blue or green, or near black), ``background_rgb`` (every slide's
    background, its own or the master's, is that solid colour; ``not_background_rgb``: and not
    this one), ``stretched_picture_of`` (the first picture of that gold presentation's first
    slide fills the first slide, centred, within half an inch)."""
    from pptx import Presentation

    from ._pptx_checks import background_not_rgb, image_not_stretched, master_number_color, slide_transition

    try:
        p, prs = _open(ctx, path)
    except FileNotFoundError as exc:
        return Verdict.fail(str(exc))
    problems = []
    if portrait and not prs.slide_width < prs.slide_height:
        problems.append(f"its slides are {prs.slide_width}x{prs.slide_height} EMU, not portrait")
    if transition is not None and (found := slide_transition(p, transition_slide, transition)) is not None:
        problems.append(found)
    if number_color is not None and (found := master_number_color(p, number_color)) is not None:
        problems.append(found)
    if background_rgb is not None and (found := background_not_rgb(prs, background_rgb, not_background_rgb)):
        problems.append(found)
    if stretched_picture_of is not None:
        original = Presentation(str(gold_file(ctx, stretched_picture_of)))
        if (found := image_not_stretched(prs, original)) is not None:
            problems.append(found)
    if problems:
        return Verdict.fail(f"{p.name}: " + "; ".join(problems))
    return Verdict.ok(f"{p.name} is as expected")
