"""docx.runs and pptx.runs: the font, size and emphasis of the text that holds a phrase.

A run's look comes from the run itself or, when it says nothing, from what it
inherits: in Word its character style, its paragraph's style chain and the
document defaults (theme fonts resolved); in PowerPoint its paragraph, the
shape's list style, the layout and master placeholders and the master's text
styles. So a heading made Arial through its style counts as Arial, like a
person sees it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ..reset_scripts._common import clip
from ..runtime.tasks.steps import StepContext, Verdict, judge
from .docx import _Missing, _open, paragraph_alignment

Props = dict[str, Any]
PROPS = ("font", "size", "bold", "italic", "underline", "color")


def covering_runs(runs: list[Any], text: str, phrase: str) -> list[Any]:
    """The runs that hold some non-blank character of each occurrence of ``phrase`` in ``text``."""
    spans, start = [], text.find(phrase)
    while start >= 0:
        spans.append((start, start + len(phrase)))
        start = text.find(phrase, start + 1)
    out, pos = [], 0
    for run in runs:
        end = pos + len(run.text)
        if run.text.strip() and any(a < end and pos < b for a, b in spans):
            out.append(run)
        pos = end
    return out


def mismatches(have: Props, want: Props) -> list[str]:
    out = []
    for key, value in want.items():
        got = have.get(key)
        same = (got is not None and abs(float(got) - float(value)) < 0.01) if key == "size" else (
            str(got).lstrip("#").upper() == str(value).lstrip("#").upper() if key == "color" else got == value)
        if not same:
            out.append(f"{key} {got!r} (want {value!r})")
    return out


def verdict(where: str, phrase: str, found: list[tuple[str, Props]], want: Props) -> Verdict:
    if not found:
        return Verdict.fail(f"{where}: no text {clip(phrase, 80)} found")
    wrong = [f"{clip(t, 40)}: " + ", ".join(bad) for t, props in found if (bad := mismatches(props, want))]
    if wrong:
        return Verdict.fail(f"{where}: the text {clip(phrase, 60)} has " + "; ".join(wrong[:5]))
    return Verdict.ok(f"{where}: {clip(phrase, 60)} has " + ", ".join(f"{k} {v!r}" for k, v in want.items()))


# --- Word -------------------------------------------------------------------------------------------

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


# --- PowerPoint ---------------------------------------------------------------------------------


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
    slides = list(Presentation(str(p)).slides)
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
