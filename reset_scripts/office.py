"""office.* reset steps: build .xlsx/.docx/.pptx fixtures from YAML, no binary files needed.

    reset:
      - office.xlsx: {path: "${WORKSPACE}/sales.xlsx", sheets: {Q1: [[Region, Sales], [North, 10], [South, "=B2*2"]]}}
      - office.docx: {path: "${WORKSPACE}/memo.docx", paragraphs: ["Title", {text: "Body", bold: true}]}
      - office.pptx: {path: "${WORKSPACE}/deck.pptx", slides: [{title: Hello, body: [one, two]}]}
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from ..runtime.tasks.helpers import make_dirs, step_path
from ..runtime.tasks.steps import StepContext, StepFailed, reset_step


def _save(ctx: StepContext, path: str, step: str, save: Callable[[io.BytesIO], None]) -> None:
    """A document saved in memory, then written through ``step_path`` (parents made, new files the
    world root's): never saved by a host path the agent could have swapped for a symlink."""
    data = io.BytesIO()
    save(data)
    target = step_path(ctx, path, step)
    make_dirs(ctx, target.parent)
    target.write_bytes(data.getvalue(), owner=(ctx.world.uid, ctx.world.uid) if ctx.world is not None else None)

Alignment = Literal["left", "center", "right", "justify"]


class Paragraph(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str
    style: str | None = None
    """A Word style name such as "Heading 1"."""
    bold: bool | None = None
    italic: bool | None = None
    alignment: Alignment | None = None


class Slide(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str | None = None
    body: str | list[str] | None = None
    """Bullet text: a string, or one bullet per list item."""
    layout: int | None = None
    """Index into the default template's layouts (0 title, 1 title+content, 5 title only, 6 blank)."""


@reset_step("office.xlsx")
def office_xlsx(ctx: StepContext, path: str, sheets: dict[str, list[list[Any]]]) -> None:
    """Write a workbook: one sheet per key, rows as lists; strings starting with "=" are formulas."""
    from openpyxl import Workbook

    if not sheets:
        raise StepFailed("office.xlsx: `sheets` is empty; a workbook needs at least one sheet")
    wb = Workbook()
    wb.remove(wb.active)
    for name, rows in sheets.items():
        ws = wb.create_sheet(title=name)
        for row in rows:
            ws.append(row)
    _save(ctx, path, "office.xlsx", wb.save)


_DOCX_ALIGN = {"left": "LEFT", "center": "CENTER", "right": "RIGHT", "justify": "JUSTIFY"}


@reset_step("office.docx")
def office_docx(ctx: StepContext, path: str, paragraphs: list[str | Paragraph]) -> None:
    """Write a Word document: each item a plain string or {text, style, bold, italic, alignment}."""
    import docx
    from docx.enum.text import WD_ALIGN_PARAGRAPH

    document = docx.Document()
    for item in paragraphs:
        para = Paragraph(text=item) if isinstance(item, str) else item
        try:
            p = document.add_paragraph(style=para.style)
        except KeyError:
            raise StepFailed(f"office.docx: unknown style {para.style!r} in {path}") from None
        run = p.add_run(para.text)
        run.bold, run.italic = para.bold, para.italic
        if para.alignment:
            p.alignment = getattr(WD_ALIGN_PARAGRAPH, _DOCX_ALIGN[para.alignment])
    _save(ctx, path, "office.docx", document.save)


@reset_step("office.pptx")
def office_pptx(ctx: StepContext, path: str, slides: list[Slide]) -> None:
    """Write a presentation: each slide {title, body, layout}; body lines become bullets."""
    from pptx import Presentation

    prs = Presentation()
    for i, s in enumerate(slides):
        layout_index = s.layout if s.layout is not None else (1 if s.body else 5 if s.title else 6)
        if not 0 <= layout_index < len(prs.slide_layouts):
            raise StepFailed(f"office.pptx: slide {i} layout {layout_index} out of range 0..{len(prs.slide_layouts) - 1}")
        slide = prs.slides.add_slide(prs.slide_layouts[layout_index])
        if s.title is not None:
            if slide.shapes.title is None:
                raise StepFailed(f"office.pptx: slide {i} layout {layout_index} has no title placeholder")
            slide.shapes.title.text = s.title
        if s.body:
            body = next((ph for ph in slide.placeholders if ph.placeholder_format.idx == 1), None)
            if body is None:
                raise StepFailed(f"office.pptx: slide {i} layout {layout_index} has no body placeholder")
            lines = [s.body] if isinstance(s.body, str) else s.body
            body.text_frame.text = "\n".join(lines)
    _save(ctx, path, "office.pptx", prs.save)
