"""Cell values read straight from a workbook's XML, as OSWorld's ``read_cell_value`` reads them.

OSWorld's fuzzy range rules and cell checks do not go through openpyxl: a number is the float of
its stored text (so 3 reads 3.0 and a date reads as its serial number), a shared or inline
string is its text, a formula's cached text result is that text, an error is its code, and
anything else (a boolean, a missing cell, a cell without a value) is None. Texts OSWorld reads
through xmltodict (formula results, inline strings) are stripped, and an inline string whose
element has attributes (openpyxl writes ``xml:space="preserve"``) reads as xmltodict's dict. The sheet file is
``xl/worksheets/sheet<sheetId>.xml``, found by the sheet's name in ``xl/workbook.xml``.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

from ...runtime.tasks.step_paths import StepPath

_NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


class RawSheet:
    """One sheet's cells by coordinate; an unreadable workbook or sheet gives no cells at all."""

    def __init__(self, path: Path | StepPath, sheet: str | int) -> None:
        """``sheet`` is a name, or a position in the workbook's sheet order (0 is the first). An
        agent's file (``StepPath``) is read through its descriptor, never opened again by name."""
        self.cells: dict[str, ElementTree.Element] = {}
        self.shared: list[str] = []
        self.found = False
        try:
            with zipfile.ZipFile(path.bytes_io() if isinstance(path, StepPath) else path) as z:
                self.shared = _shared_strings(z)
                book = ElementTree.fromstring(z.read("xl/workbook.xml"))
                sheets = [(s.get("name"), s.get("sheetId")) for s in book.iter(f"{_NS}sheet")]
                name = sheets[sheet][0] if isinstance(sheet, int) else sheet
                root = ElementTree.fromstring(z.read(f"xl/worksheets/sheet{dict(sheets)[name]}.xml"))
        except (OSError, KeyError, IndexError, zipfile.BadZipFile, ElementTree.ParseError):
            return
        self.found = True
        for row in root.iter(f"{_NS}row"):
            for cell in row.findall(f"{_NS}c"):
                self.cells.setdefault(cell.get("r") or "", cell)

    def value(self, coordinate: str) -> Any:
        cell = self.cells.get(coordinate)
        if cell is None:
            return None
        kind, v = cell.get("t"), cell.find(f"{_NS}v")
        try:
            if kind in (None, "n"):
                return float(v.text or "") if v is not None else None
            if kind == "s":
                return self.shared[int(v.text or "")] if v is not None else None
            if kind in ("str", "e"):
                return _parsed_text(v)
            if kind == "inlineStr":
                t = cell.find(f"{_NS}is/{_NS}t")
                if t is not None and t.attrib:  # xmltodict gives such an element as a dict
                    return {**{"@" + k[1:].replace("}", ":"): a for k, a in t.attrib.items()},
                            **({"#text": text} if (text := _parsed_text(t)) else {})}
                return _parsed_text(t)
        except (ValueError, IndexError):
            return None
        return None


def _parsed_text(element: ElementTree.Element | None) -> str | None:
    """An element's text as OSWorld gets it through xmltodict: stripped, None when empty."""
    text = (element.text or "").strip() if element is not None else ""
    return text or None


def _shared_strings(z: zipfile.ZipFile) -> list[str]:
    try:
        root = ElementTree.fromstring(z.read("xl/sharedStrings.xml"))
    except (KeyError, ElementTree.ParseError):
        return []
    return ["".join(t.text or "" for t in si.iter(f"{_NS}t")) for si in root.findall(f"{_NS}si")]
