"""Two presentations compared as OSWorld's ``compare_pptx_files`` compares them (python-pptx).

``presentation_difference`` returns the first difference as a sentence, or None. The checks and
their order follow desktop-env's metric: slide count; per slide its background colour, notes,
shape count; per shape pair its position and size (relative ``tolerance``), a table's cells,
runs and their bold/italic/underline/colour, a text shape's text, paragraphs (alignment, text,
level) and runs (font name, size, bold, italic, colour, underline, strike-through) and the
slide's bullets; then every text shape, those inside groups too, by count and alignment.
Aspects can be left out (``ignore``) as the metric's ``examine_*`` options do; some checks the
metric always makes (shape, paragraph and run counts) cannot be. Five ``extra`` checks were written
into the metric for single OSWorld tasks (a slide number, a title text, a position in EMU): they
are kept word for word in ``_task_specific`` so that those tasks keep their verdicts.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal

from ..runtime.tasks.helpers import clip

Aspect = Literal["number_of_slides", "shape", "text", "indent", "font_name", "font_size", "font_bold",
                 "font_italic", "color_rgb", "font_underline", "strike_through", "alignment", "bullets",
                 "background_color", "note"]
Extra = Literal["image_size", "modify_height", "title_bottom_position", "table_bottom_position",
                "right_position", "top_position", "shape_for_shift_size"]
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_PICTURE, _FREEFORM, _TABLE = 13, 5, 19  # MSO_SHAPE_TYPE values


class Differs(Exception):
    """The first difference found; the message says where and what."""


def _close(a: int, b: int, tolerance: float) -> bool:
    if a == b:
        return True
    if a == 0 or b == 0:
        return False
    return abs(a - b) / max(abs(a), abs(b)) <= tolerance


def _same_box(s1: Any, s2: Any, tolerance: float) -> bool:
    return all(_close(getattr(s1, k), getattr(s2, k), tolerance) for k in ("left", "top", "width", "height"))


def _background(slide: Any) -> Any:
    fill = slide.background.fill
    if fill.type == 1:  # solid
        return fill.fore_color.rgb
    if fill.type == 5:  # the master's background
        master = slide.slide_layout.slide_master.background.fill
        return master.fore_color.rgb if master.type == 1 else None
    return None


def _notes(slide: Any) -> str:
    return slide.notes_slide.notes_text_frame.text.strip()


def _text_shapes(shapes: Any) -> Iterator[Any]:
    """Shapes with text, those inside groups too (depth first), as the metric walks them."""
    for shape in shapes:
        if hasattr(shape, "text") and hasattr(shape, "text_frame"):
            yield shape
        if hasattr(shape, "shapes"):
            yield from _text_shapes(shape.shapes)


def _unset_false(a: Any, b: Any) -> bool:
    """Bold/italic: None (inherited) and False count as the same."""
    return a == b or (a in (None, False) and b in (None, False))


def _underline_same(a: Any, b: Any) -> bool:
    if a == b:
        return True
    if a is not None and b is not None:
        return False
    return not (a is True or b is True)  # None against False passes, None against True does not


def _rgb(run: Any) -> tuple[bool, Any]:
    """(the colour has an RGB value to compare, that value), as ``hasattr(color, "rgb")`` decides."""
    color = run.font.color
    try:
        return True, color.rgb
    except AttributeError:
        return False, None


def _bullets(slide: Any) -> list[tuple[str, str, str]]:
    """(level, bullet character, text) of every paragraph with text in the slide's XML."""
    out = []
    for para in slide._element.iter(f"{_A}p"):
        text = "".join(t.text or "" for t in para.iter(f"{_A}t"))
        if not text.strip():
            continue
        ppr = para.find(f"{_A}pPr")
        if ppr is None:
            out.append(("No Level", "No Bullet", text))
            continue
        char = ppr.find(f"{_A}buChar")
        out.append((ppr.get("lvl") or "0", char.get("char") if char is not None else "No Bullet", text))
    return out


def _alignment(para: Any) -> Any:
    from pptx.enum.text import PP_ALIGN

    return PP_ALIGN.LEFT if para.alignment is None else para.alignment


def _show(value: Any) -> str:
    return clip(value, 60) if isinstance(value, str) else str(value)


class _Compare:
    def __init__(self, ignore: set[str], extra: set[str], tolerance: float) -> None:
        self.on = lambda aspect: aspect not in ignore
        self.extra, self.tolerance = extra, tolerance

    def slides(self, prs1: Any, prs2: Any) -> None:
        slides1, slides2 = list(prs1.slides), list(prs2.slides)
        if len(slides1) != len(slides2) and self.on("number_of_slides"):
            raise Differs(f"it has {len(slides1)} slides; the gold presentation has {len(slides2)}")
        for n, (s1, s2) in enumerate(zip(slides1, slides2), 1):
            self.slide_number = n
            self.slide(n, s1, s2)

    def slide(self, n: int, s1: Any, s2: Any) -> None:
        where = f"slide {n}"
        if self.on("background_color") and (b1 := _background(s1)) != (b2 := _background(s2)):
            raise Differs(f"{where} has background {b1} (gold: {b2})")
        if self.on("note") and (n1 := _notes(s1)) != (n2 := _notes(s2)):
            raise Differs(f"{where} has notes {clip(n1, 80)} (gold: {clip(n2, 80)})")
        if len(s1.shapes) != len(s2.shapes):
            raise Differs(f"{where} has {len(s1.shapes)} shapes; the gold slide has {len(s2.shapes)}")
        self.bullets_checked = False
        for i, (sh1, sh2) in enumerate(zip(s1.shapes, s2.shapes), 1):
            self.shape(f"{where} shape {i} ({sh1.name})", s1, sh1, sh2)
        texts1, texts2 = list(_text_shapes(s1.shapes)), list(_text_shapes(s2.shapes))
        if len(texts1) != len(texts2):
            raise Differs(f"{where} has {len(texts1)} shapes with text; the gold slide has {len(texts2)}")
        if self.on("alignment"):
            for t1, t2 in zip(texts1, texts2):
                label = f"{where} text {clip(t1.text.strip(), 40)}"
                if self.on("text") and t1.text.strip() != t2.text.strip():
                    raise Differs(f"{label} should be {clip(t2.text.strip(), 60)}")
                paras1, paras2 = t1.text_frame.paragraphs, t2.text_frame.paragraphs
                if len(paras1) != len(paras2):
                    raise Differs(f"{label} has {len(paras1)} paragraphs (gold: {len(paras2)})")
                for p1, p2 in zip(paras1, paras2):
                    if _alignment(p1) != _alignment(p2):
                        raise Differs(f"{label}: {clip(p1.text, 40)} is aligned {_alignment(p1).name.lower()}"
                                      f" (gold: {_alignment(p2).name.lower()})")

    def shape(self, where: str, slide: Any, sh1: Any, sh2: Any) -> None:
        box = (f"at {sh1.left},{sh1.top} size {sh1.width}x{sh1.height} (gold: at {sh2.left},{sh2.top}"
               f" size {sh2.width}x{sh2.height})")
        if not self.task_specific(sh1, sh2):
            raise Differs(f"{where} is {box}")
        if self.on("shape") and not _same_box(sh1, sh2, self.tolerance):
            raise Differs(f"{where} is {box}")
        if "image_size" in self.extra:
            if sh1.shape_type == _PICTURE and sh2.shape_type == _PICTURE:
                sized = _close(sh1.width, sh2.width, self.tolerance) and _close(sh1.height, sh2.height, self.tolerance)
            else:
                sized = _same_box(sh1, sh2, self.tolerance)
            if not sized:
                raise Differs(f"{where} is {box}")
        if "modify_height" in self.extra:
            no_text = not hasattr(sh1, "text") and not hasattr(sh2, "text")
            if no_text or (sh1.shape_type == _FREEFORM and sh2.shape_type == _FREEFORM):
                fits = _close(sh1.height, sh2.height, self.tolerance)
            else:
                fits = _same_box(sh1, sh2, self.tolerance)
            if not fits:
                raise Differs(f"{where} is {box}")
        if sh1.shape_type == _TABLE:
            self.table(where, sh1.table, sh2.table)
        if hasattr(sh1, "text") and hasattr(sh2, "text"):
            self.text(where, slide, sh1, sh2)

    def task_specific(self, sh1: Any, sh2: Any) -> bool:
        """The metric's checks for single tasks: where a shape must have moved (EMU thresholds)."""
        n, same = self.slide_number, _same_box(sh1, sh2, self.tolerance)
        texts = hasattr(sh1, "text") and hasattr(sh2, "text")
        if "title_bottom_position" in self.extra:
            if texts and sh1.text == sh2.text:
                if sh1.text == "Product Comparison" and (sh1.top <= sh2.top or sh1.top < 3600000):
                    return False
            elif not same:
                return False
        if "table_bottom_position" in self.extra:
            if n == 3 and sh1.shape_type == _TABLE and sh2.shape_type == _TABLE:
                if sh1.top <= sh2.top or sh1.top < 3600000:
                    return False
            elif not same:
                return False
        if "right_position" in self.extra and n == 2 and not hasattr(sh1, "text") and not hasattr(sh2, "text"):
            if sh1.left <= sh2.left or sh1.left < 4320000:
                return False
        if "top_position" in self.extra and n == 2 and sh1.shape_type == _PICTURE and sh2.shape_type == _PICTURE:
            if sh1.top >= sh2.top or sh1.top > 1980000:
                return False
        if "shape_for_shift_size" in self.extra and not same:
            return texts and sh1.text == sh2.text == "Elaborate on what you want to discuss."
        return True

    def table(self, where: str, t1: Any, t2: Any) -> None:
        if (len(t1.rows), len(t1.columns)) != (len(t2.rows), len(t2.columns)):
            raise Differs(f"{where}: the table is {len(t1.rows)}x{len(t1.columns)}"
                          f" (gold: {len(t2.rows)}x{len(t2.columns)})")
        for r in range(len(t1.rows)):
            for c in range(len(t1.columns)):
                cell = f"{where} cell {r + 1},{c + 1}"
                paras1, paras2 = t1.cell(r, c).text_frame.paragraphs, t2.cell(r, c).text_frame.paragraphs
                if len(paras1) != len(paras2):
                    raise Differs(f"{cell} has {len(paras1)} paragraphs (gold: {len(paras2)})")
                for p1, p2 in zip(paras1, paras2):
                    if len(p1.runs) != len(p2.runs):
                        raise Differs(f"{cell}: {clip(p1.text, 40)} has {len(p1.runs)} runs (gold: {len(p2.runs)})")
                    for r1, r2 in zip(p1.runs, p2.runs):
                        self.table_run(f"{cell} run {clip(r1.text, 40)}", r1, r2)

    def table_run(self, where: str, r1: Any, r2: Any) -> None:
        (has1, c1), (has2, c2) = _rgb(r1), _rgb(r2)
        if has1 and has2 and c1 != c2 and self.on("color_rgb"):
            raise Differs(f"{where} has colour {c1} (gold: {c2})")
        # The metric compares these in tables whatever the options say.
        for name in ("bold", "italic"):
            if not _unset_false(getattr(r1.font, name), getattr(r2.font, name)):
                raise Differs(f"{where} has {name} {getattr(r1.font, name)} (gold: {getattr(r2.font, name)})")
        if not _underline_same(r1.font.underline, r2.font.underline):
            raise Differs(f"{where} has underline {r1.font.underline} (gold: {r2.font.underline})")

    def text(self, where: str, slide: Any, sh1: Any, sh2: Any) -> None:
        if self.on("text") and sh1.text.strip() != sh2.text.strip():
            raise Differs(f"{where} has the text {clip(sh1.text.strip(), 80)} (gold: {clip(sh2.text.strip(), 80)})")
        paras1, paras2 = sh1.text_frame.paragraphs, sh2.text_frame.paragraphs
        if len(paras1) != len(paras2):
            raise Differs(f"{where} has {len(paras1)} paragraphs (gold: {len(paras2)})")
        for k, (p1, p2) in enumerate(zip(paras1, paras2), 1):
            para = f"{where} paragraph {k} ({clip(p1.text, 40)})"
            if self.on("alignment") and _alignment(p1) != _alignment(p2):
                raise Differs(f"{para} is aligned {_alignment(p1).name.lower()} (gold: {_alignment(p2).name.lower()})")
            if self.on("text") and p1.text != p2.text:
                raise Differs(f"{para} should read {clip(p2.text, 60)}")
            if self.on("indent") and p1.level != p2.level:
                raise Differs(f"{para} is at level {p1.level} (gold: {p2.level})")
            if len(p1.runs) != len(p2.runs):
                raise Differs(f"{para} has {len(p1.runs)} runs (gold: {len(p2.runs)})")
            for r1, r2 in zip(p1.runs, p2.runs):
                self.text_run(f"{para} run {clip(r1.text, 40)}", slide, r1, r2)

    def text_run(self, where: str, slide: Any, r1: Any, r2: Any) -> None:
        f1, f2 = r1.font, r2.font
        plain = {"font_name": ("font", f1.name, f2.name), "font_size": ("size", f1.size, f2.size)}
        for aspect, (what, v1, v2) in plain.items():
            if self.on(aspect) and v1 != v2:
                raise Differs(f"{where} has {what} {_show(v1)} (gold: {_show(v2)})")
        for aspect, name in (("font_bold", "bold"), ("font_italic", "italic")):
            if self.on(aspect) and not _unset_false(getattr(f1, name), getattr(f2, name)):
                raise Differs(f"{where} has {name} {getattr(f1, name)} (gold: {getattr(f2, name)})")
        (has1, c1), (has2, c2) = _rgb(r1), _rgb(r2)
        if has1 and has2 and c1 != c2 and self.on("color_rgb"):
            raise Differs(f"{where} has colour {c1} (gold: {c2})")
        if self.on("font_underline") and not _underline_same(f1.underline, f2.underline):
            raise Differs(f"{where} has underline {f1.underline} (gold: {f2.underline})")
        strike1, strike2 = (f._element.attrib.get("strike", "noStrike") for f in (f1, f2))
        if self.on("strike_through") and strike1 != strike2:
            raise Differs(f"{where} has strike-through {strike1} (gold: {strike2})")
        # The metric reads the bullets of the run's whole slide, the same for every run.
        if self.on("bullets") and not self.bullets_checked:
            self.bullets_checked = True
            b1, b2 = _bullets(slide), _bullets(r2.part.slide)
            if len(b1) != len(b2):
                raise Differs(f"{where}: the slide has {len(b1)} paragraphs with text (gold: {len(b2)})")
            for (l1, ch1, t1), (l2, ch2, t2) in zip(b1, b2):
                if (t1, ch1, l1) != (t2, ch2, l2):
                    raise Differs(f"{where}: the bullet paragraph {clip(t1, 40)} has bullet {ch1!r} at level"
                                  f" {l1} (gold: {clip(t2, 40)} with {ch2!r} at level {l2})")


def presentation_difference(actual: Any, gold: Any, ignore: list[str] | None = None,
                            extra: list[str] | None = None, tolerance: float = 0.005) -> str | None:
    """The first difference between two python-pptx Presentations, or None when they agree."""
    try:
        _Compare(set(ignore or ()), set(extra or ()), tolerance).slides(actual, gold)
    except Differs as exc:
        return str(exc)
    return None
