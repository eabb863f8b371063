"""A1 notation as the Sheets API reads it.

Forms accepted (Google's "Cell reference" guide): `Sheet1!A1:B2`, `Sheet1!A:A`,
`Sheet1!1:2`, `Sheet1!A5:A` (column A from row 5 down), `Sheet1!A1`, `Sheet1`
(the whole sheet), `A1:B2` (the first visible sheet), and quoted titles with
doubled quotes inside (`'Jon''s data'!A1`). Coordinates are 0-based and
end-exclusive, like the API's GridRange; `None` means unbounded.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


class RangeError(ValueError):
    """A range string that cannot be parsed (Google answers 400 'Unable to parse range')."""


@dataclass(frozen=True)
class CellRef:
    row: int | None  # 0-based; None when the reference names only a column
    col: int | None  # 0-based; None when the reference names only a row


@dataclass(frozen=True)
class A1Range:
    sheet: str | None  # None: the first sheet (the caller resolves it)
    start_row: int | None
    end_row: int | None
    start_col: int | None
    end_col: int | None

    def bounded(self, row_count: int, col_count: int) -> tuple[int, int, int, int]:
        """Clamp open ends to the grid: (start_row, end_row, start_col, end_col)."""
        sr = self.start_row or 0
        sc = self.start_col or 0
        er = row_count if self.end_row is None else self.end_row
        ec = col_count if self.end_col is None else self.end_col
        return sr, er, sc, ec


_CELL = re.compile(r"^\$?([A-Za-z]{0,3})\$?(\d{0,7})$")


def col_to_index(letters: str) -> int:
    """'A' -> 0, 'Z' -> 25, 'AA' -> 26."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - 64)
    return n - 1


def index_to_col(index: int) -> str:
    """0 -> 'A', 26 -> 'AA'."""
    out = ""
    n = index + 1
    while n:
        n, rem = divmod(n - 1, 26)
        out = chr(65 + rem) + out
    return out


def parse_cell(text: str) -> CellRef | None:
    m = _CELL.match(text.strip())
    if not m or not (m.group(1) or m.group(2)):
        return None
    letters, digits = m.group(1), m.group(2)
    if digits and int(digits) == 0:
        return None
    return CellRef(row=int(digits) - 1 if digits else None,
                   col=col_to_index(letters) if letters else None)


def split_sheet(text: str) -> tuple[str | None, str]:
    """Split "'My sheet'!A1:B2" into ("My sheet", "A1:B2"); the part may be ''."""
    s = text.strip()
    if s.startswith("'"):
        i, buf = 1, []
        while i < len(s):
            if s[i] == "'":
                if i + 1 < len(s) and s[i + 1] == "'":
                    buf.append("'")
                    i += 2
                    continue
                break
            buf.append(s[i])
            i += 1
        else:
            raise RangeError(f"Unable to parse range: {text}")
        rest = s[i + 1:]
        if rest and not rest.startswith("!"):
            raise RangeError(f"Unable to parse range: {text}")
        return "".join(buf), rest[1:]
    if "!" in s:
        sheet, _, part = s.rpartition("!")
        return sheet, part
    return None, s


def parse_cells(part: str) -> tuple[int | None, int | None, int | None, int | None] | None:
    """Parse 'A1:B2' / 'A:A' / '1:2' / 'A5:A' / 'A1' into GridRange bounds, or None."""
    if ":" in part:
        a_txt, _, b_txt = part.partition(":")
        a, b = parse_cell(a_txt), parse_cell(b_txt)
        if a is None or b is None:
            return None
        if b.row is not None and b.col is not None and (a.row is None or a.col is None):
            a, b = b, a  # 'A:B5' reads like 'B5:A'
        full_a = a.row is not None and a.col is not None
        rows = sorted(x for x in (a.row, b.row) if x is not None)
        cols = sorted(x for x in (a.col, b.col) if x is not None)
        if full_a and b.row is not None and b.col is not None:
            return rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
        if a.row is None and b.row is None:  # 'A:C'
            return None, None, cols[0], cols[-1] + 1
        if a.col is None and b.col is None:  # '1:3'
            return rows[0], rows[-1] + 1, None, None
        if full_a and b.row is None:  # 'A5:C' -> from row 5 down
            return a.row, None, cols[0], cols[-1] + 1
        if full_a and b.col is None:  # 'C5:10' -> from column C rightwards
            return rows[0], rows[-1] + 1, a.col, None
        return None
    c = parse_cell(part)
    if c is None or c.row is None or c.col is None:
        return None
    return c.row, c.row + 1, c.col, c.col + 1


def parse_a1(text: str, sheet_titles: list[str] | None = None) -> A1Range:
    """Parse one A1 range; `sheet_titles` lets a bare name mean the whole sheet.

    A bare token that names an existing sheet is that sheet (Google resolves
    the ambiguity the same way); otherwise it must be a cell range.
    """
    if text is None or not str(text).strip():
        raise RangeError("Unable to parse range: ")
    sheet, part = split_sheet(str(text))
    if sheet is None and sheet_titles is not None and part in sheet_titles:
        return A1Range(part, None, None, None, None)
    if sheet is not None and part == "":
        return A1Range(sheet, None, None, None, None)
    bounds = parse_cells(part)
    if bounds is None:
        if sheet is None and sheet_titles is None and re.match(r"^[^:!]+$", part):
            return A1Range(part, None, None, None, None)
        raise RangeError(f"Unable to parse range: {text}")
    return A1Range(sheet, *bounds)


def quote_sheet(title: str) -> str:
    """Quote a sheet title the way Google echoes it in returned ranges."""
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", title) and parse_cell(title) is None:
        return title
    return "'" + title.replace("'", "''") + "'"


def format_range(sheet: str, sr: int, er: int, sc: int, ec: int) -> str:
    """Render bounded 0-based coordinates as 'Sheet1!A1:B2' (or 'Sheet1!A1')."""
    start = f"{index_to_col(sc)}{sr + 1}"
    if er - sr <= 1 and ec - sc <= 1:
        return f"{quote_sheet(sheet)}!{start}"
    return f"{quote_sheet(sheet)}!{start}:{index_to_col(ec - 1)}{er}"
