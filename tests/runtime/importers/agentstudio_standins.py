"""Stand-ins for AgentStudio's data files, which are not public.

AgentStudio's task files name input and gold files under ``${AS_ROOT}/data/<task id>/``; its
``data/`` folder is not published. ``make_standins(tasks, root)`` writes, under ``root/data/``, a
small file of the right type for every path the task files name (a workbook, a document, a
presentation, an image, a text file, an archive, a folder), each holding its own name, so that an
input and its gold file differ (a do-nothing agent must not pass), and ``deskact import agentstudio
--files-root root`` finds each one. They are not AgentStudio's files: they let the importer and
its coverage be measured, never a task be solved against the real gold.

    .venv/bin/python tests/runtime/importers/agentstudio_standins.py TASKS_DIR ROOT
"""

from __future__ import annotations

import io
import json
import re
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

_DATA = re.compile(r"^(?:\$\{AS_ROOT\}/)?(data/.+)$")


def named_data_files(tasks: Path) -> set[str]:
    """Every ``data/...`` path (relative to AgentStudio's root) the task files under ``tasks`` name."""
    found: set[str] = set()
    for f in sorted(tasks.rglob("*.json")):
        for value in _strings(json.loads(f.read_text(encoding="utf-8"))):
            m = _DATA.match(value)
            if m:
                found.add(m.group(1))
    return found


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for k, v in node.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)


def _xlsx(path: Path) -> None:
    from openpyxl import Workbook

    book = Workbook()
    for n in (1, 2, 3):
        sheet = book.active if n == 1 else book.create_sheet()
        sheet.title = f"Sheet{n}"
        sheet.append(["Name", "Value"])
        sheet.append([path.name, n])
    book.create_sheet("Result")
    book.save(path)


def _docx(path: Path) -> None:
    from docx import Document
    from PIL import Image

    doc = Document()
    para = doc.add_paragraph()
    if "gold" in path.name.lower():  # an expected document holds a picture its input lacks
        png = io.BytesIO()
        Image.new("RGB", (8, 8), (0, 90, 200)).save(png, "PNG")
        para.add_run().add_picture(io.BytesIO(png.getvalue()))
    para.add_run(f"Stand-in for AgentStudio's {path.name} (not public).")
    doc.save(str(path))


def _pptx(path: Path) -> None:
    from pptx import Presentation

    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[1])
    slide.shapes.title.text = f"Stand-in for {path.name}"
    prs.save(str(path))


def _image(path: Path) -> None:
    from PIL import Image

    fmt = {".jpg": "JPEG", ".jpeg": "JPEG"}.get(path.suffix.lower(), "PNG")
    shade = sum(path.name.encode()) % 256
    Image.new("RGB", (64, 48), (shade, 120, 40)).save(path, fmt)


def _odt(path: Path) -> None:
    # one paragraph; an input (not a gold file) has its words highlighted, as the task that reads
    # .odt files (remove the highlight) starts
    background = "" if "gold" in path.name.lower() else ' fo:background-color="#ffff00"'
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.text")
        z.writestr("content.xml", '<?xml version="1.0"?><office:document-content xmlns:office='
                   '"urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text='
                   '"urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style='
                   '"urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo='
                   '"urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"><office:automatic-styles>'
                   f'<style:style style:name="T1" style:family="text"><style:text-properties{background}/>'
                   "</style:style></office:automatic-styles><office:body><office:text><text:p>Stand-in for"
                   ' <text:span text:style-name="T1">AgentStudio\'s</text:span> document (not public).</text:p>'
                   "</office:text></office:body></office:document-content>")


def _zip(path: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("readme.txt", f"stand-in for {path.name}\n")
    path.write_bytes(buf.getvalue())


def _xcf(path: Path) -> None:
    # only the magic of GIMP's format: no GIMP here reads it
    path.write_bytes(b"gimp xcf v011\0" + path.name.encode())


MAKERS = {".xlsx": _xlsx, ".docx": _docx, ".pptx": _pptx, ".png": _image, ".jpg": _image, ".jpeg": _image,
          ".odt": _odt, ".zip": _zip, ".xcf": _xcf}


def make_standins(tasks: Path, root: Path) -> list[Path]:
    """Write a stand-in under ``root`` for every data file the tasks name; returns them."""
    made = []
    for rel in sorted(named_data_files(tasks)):
        path = root / rel
        if not path.suffix:  # a folder the task copies whole
            path.mkdir(parents=True, exist_ok=True)
            (path / "stand-in.txt").write_text("stand-in\n")
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            maker = MAKERS.get(path.suffix.lower())
            if maker:
                maker(path)
            else:
                path.write_text(f"stand-in,{path.name}\n" if path.suffix == ".csv" else f"[stand-in]\nfile = {path.name}\n"
                                if path.suffix == ".ini" else f"stand-in for {path.name}\n")
        made.append(path)
    return made


if __name__ == "__main__":
    print(f"{len(make_standins(Path(sys.argv[1]), Path(sys.argv[2])))} stand-in files under {sys.argv[2]}")
