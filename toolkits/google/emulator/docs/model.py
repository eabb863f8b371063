"""The Google Docs structural model (pure, no I/O).

Stored form (compact, JSON): the body text after the opening section break,
run-length text styles, and one paragraph style per paragraph (= per "\\n").
Editing works on a flat per-character view; `to_body()` renders the
structural JSON Google returns:

- `body.content[0]` is a sectionBreak covering index 0..1;
- every paragraph ends with "\\n"; an empty document is one paragraph "\\n" at 1..2;
- indices count UTF-16 code units (an emoji takes two), as Google's do;
- text runs split where the text style changes, and at paragraph ends;
- a table is stored inline as marker characters from the Private Use Area, one per
  index Google gives the structure: TABLE_OPEN, then per row ROW, per cell CELL
  followed by the cell's paragraphs, and TABLE_CLOSE. A 2x2 table of empty cells at
  S thus spans S..S+12 with row 0 at S+1..S+6 and cell (0,0) at S+2..S+4, as the
  Docs API guide to tables lays it out. Tables do not nest here.

Edits raise `DocsError` with Google's messages (the caller prefixes
"Invalid requests[i].<kind>: ").
"""

from __future__ import annotations

import copy
import json
import re
from bisect import bisect_left
from typing import Any

Style = dict[str, Any]

DEFAULT_PARAGRAPH_STYLE: Style = {"namedStyleType": "NORMAL_TEXT", "direction": "LEFT_TO_RIGHT"}
TEXT_STYLE_FIELDS = {"bold", "italic", "underline", "strikethrough", "smallCaps", "backgroundColor",
                     "foregroundColor", "fontSize", "weightedFontFamily", "baselineOffset", "link"}
PARAGRAPH_STYLE_FIELDS = {"headingId", "namedStyleType", "alignment", "lineSpacing", "direction",
                          "spacingMode", "spaceAbove", "spaceBelow", "borderBetween", "borderTop",
                          "borderBottom", "borderLeft", "borderRight", "indentFirstLine", "indentStart",
                          "indentEnd", "tabStops", "keepLinesTogether", "keepWithNext", "avoidWidowAndOrphan",
                          "shading", "pageBreakBefore"}
NAMED_STYLES = ("NORMAL_TEXT", "TITLE", "SUBTITLE", "HEADING_1", "HEADING_2", "HEADING_3", "HEADING_4",
                "HEADING_5", "HEADING_6")


TABLE_OPEN, ROW, CELL, TABLE_CLOSE = "\ue000", "\ue001", "\ue002", "\ue003"
MARKERS = frozenset((TABLE_OPEN, ROW, CELL, TABLE_CLOSE))
MAX_TABLE_COLUMNS = 20


class DocsError(Exception):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def u16(s: str) -> int:
    """Length in UTF-16 code units (Google's index unit)."""
    return len(s) + sum(1 for ch in s if ord(ch) > 0xFFFF)


def _key(style: Style) -> str:
    return json.dumps(style, sort_keys=True)


class Flat:
    """A body as parallel per-character lists, for editing."""

    def __init__(self, chars: list[str], styles: list[Style], paras: list[Style], bullets: list[Any]) -> None:
        self.chars = chars
        self.styles = styles
        self.paras = paras  # one paragraph style per "\n"
        self.bullets = bullets  # one bullet (or None) per paragraph

    # ---------------------------------------------------------- (de)serialise
    @classmethod
    def load(cls, body: dict[str, Any]) -> Flat:
        chars = list(body["text"])
        styles: list[Style] = []
        for length, style in body["runs"]:
            styles.extend([style] * length)
        return cls(chars, styles, [dict(p) for p in body["paras"]], list(body.get("bullets") or [None] * len(body["paras"])))

    def dump(self) -> dict[str, Any]:
        runs: list[list[Any]] = []
        for st in self.styles:
            # Runs share one dict, so the identity test is the fast path.
            if runs and (runs[-1][1] is st or runs[-1][1] == st):
                runs[-1][0] += 1
            else:
                runs.append([1, st])
        return {"text": "".join(self.chars), "runs": runs, "paras": self.paras, "bullets": self.bullets}

    @classmethod
    def empty(cls) -> Flat:
        return cls(["\n"], [{}], [dict(DEFAULT_PARAGRAPH_STYLE)], [None])

    # --------------------------------------------------------------- indices
    def offsets(self) -> list[int]:
        """offs[i] = document index of chars[i] (the body starts at 1)."""
        offs, pos = [], 1
        for ch in self.chars:
            offs.append(pos)
            pos += 2 if ord(ch) > 0xFFFF else 1
        return offs

    @property
    def end_index(self) -> int:
        return 1 + u16("".join(self.chars))

    def pos_of(self, index: int, offs: list[int] | None = None) -> int:
        """List position of document index `index` (which must not split a surrogate pair)."""
        offs = offs if offs is not None else self.offsets()
        if index == self.end_index:
            return len(self.chars)
        p = bisect_left(offs, index)
        if p >= len(offs) or offs[p] != index:
            raise DocsError(f"Index {index} splits a UTF-16 surrogate pair.")
        return p

    def para_of(self, pos: int) -> int:
        """Paragraph number holding list position `pos`."""
        return self.chars[:pos].count("\n")

    # ----------------------------------------------------------------- edits
    def insert_text(self, index: int, text: str) -> None:
        end = self.end_index
        if index < 1:
            raise DocsError("The insertion index must be inside the bounds of an existing paragraph. "
                            "You can still create new paragraphs by inserting newlines.")
        if index >= end:
            raise DocsError(f"Index {index} must be less than the end index of the referenced segment, {end}.")
        if not text:
            return
        if MARKERS.intersection(text):
            raise DocsError("text must not contain the Private Use characters U+E000..U+E003.")
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        p = self.pos_of(index)
        if self.chars[p] in MARKERS:
            # The index of a table, row or cell is not inside any paragraph.
            raise DocsError("The insertion index must be inside the bounds of an existing paragraph. "
                            "You can still create new paragraphs by inserting newlines.")
        # Inserted text takes the style of the character before it, unless it
        # starts a paragraph (then of the character after), as in Docs.
        starts_para = p == 0 or self.chars[p - 1] == "\n" or self.chars[p - 1] in MARKERS
        base = self.styles[p] if starts_para else self.styles[p - 1]
        base = {k: v for k, v in base.items() if k != "link"} if p > 0 and starts_para else base
        k = self.para_of(p)
        new_paras = [dict(self.paras[k]) for _ in range(text.count("\n"))]
        new_bullets = [copy.deepcopy(self.bullets[k]) for _ in range(text.count("\n"))]
        self.chars[p:p] = list(text)
        self.styles[p:p] = [base] * len(text)
        self.paras[k:k] = new_paras
        self.bullets[k:k] = new_bullets

    def delete_range(self, start: int, end: int) -> None:
        last = self.end_index
        if start >= end:
            raise DocsError("The range should not be empty.")
        if start < 1:
            raise DocsError("Invalid deletion range. Cannot delete the requested range.")
        if end >= last:
            raise DocsError("The range cannot include the newline character at the end of the segment.")
        offs = self.offsets()
        ps, pe = self.pos_of(start, offs), self.pos_of(end, offs)
        self._check_table_cut(ps, pe)
        first_para = self.para_of(ps)
        removed_nl = self.chars[ps:pe].count("\n")
        at_para_start = ps == 0 or self.chars[ps - 1] == "\n" or self.chars[ps - 1] in MARKERS
        del self.chars[ps:pe]
        del self.styles[ps:pe]
        if removed_nl:
            # The merged paragraph keeps the first paragraph's style, unless
            # the deletion began at a paragraph start: then the surviving
            # (last) paragraph keeps its own.
            if at_para_start:
                del self.paras[first_para:first_para + removed_nl]
                del self.bullets[first_para:first_para + removed_nl]
            else:
                del self.paras[first_para + 1:first_para + 1 + removed_nl]
                del self.bullets[first_para + 1:first_para + 1 + removed_nl]

    def _check_table_cut(self, ps: int, pe: int) -> None:
        """A deletion may hold whole tables but not part of one's structure, nor a cell's last
        newline or the newline before a table (Docs keeps a paragraph in every cell and before a table)."""
        depth = 0
        for ch in self.chars[ps:pe]:
            if ch == TABLE_OPEN:
                depth += 1
            elif ch == TABLE_CLOSE:
                depth -= 1
            elif ch in MARKERS and depth == 0:
                raise DocsError("Invalid deletion range. Cannot delete the requested range: "
                                "it crosses a table cell's boundary.")
            if depth < 0:
                raise DocsError("Invalid deletion range. Cannot delete part of a table.")
        if depth:
            raise DocsError("Invalid deletion range. Cannot delete part of a table.")
        if self.chars[pe - 1] == "\n" and self.chars[pe] in MARKERS:
            where = "before a table" if self.chars[pe] == TABLE_OPEN else "at the end of a table cell"
            raise DocsError(f"Invalid deletion range. Cannot delete the newline {where}.")

    # ----------------------------------------------------------------- tables
    def _new_row(self, columns: int) -> tuple[list[str], list[Style]]:
        chars = [ROW] + [c for _ in range(columns) for c in (CELL, "\n")]
        return chars, [{}] * len(chars)

    def _splice(self, pos: int, chars: list[str], styles: list[Style]) -> None:
        """Insert structure at list position `pos`, with a default paragraph per newline."""
        k = self.para_of(pos)
        n = chars.count("\n")
        self.chars[pos:pos] = chars
        self.styles[pos:pos] = styles
        self.paras[k:k] = [dict(DEFAULT_PARAGRAPH_STYLE) for _ in range(n)]
        self.bullets[k:k] = [None] * n

    def insert_table(self, index: int, rows: int, columns: int) -> None:
        """insertTable: a newline goes in at `index`, then the table after it, as in Docs."""
        if rows < 1 or columns < 1:
            raise DocsError("rows and columns must be at least 1.")
        if columns > MAX_TABLE_COLUMNS:
            raise DocsError(f"A table cannot have more than {MAX_TABLE_COLUMNS} columns.")
        if 1 <= index < self.end_index and self._depth(self.pos_of(index)):
            raise DocsError("Tables inside table cells are not supported by the deskact emulator.", 501)
        self.insert_text(index, "\n")
        chars = [TABLE_OPEN]
        for _ in range(rows):
            chars += self._new_row(columns)[0]
        chars.append(TABLE_CLOSE)
        self._splice(self.pos_of(index) + 1, chars, [{}] * len(chars))

    def _depth(self, pos: int) -> int:
        before = self.chars[:pos]
        return before.count(TABLE_OPEN) - before.count(TABLE_CLOSE)

    def table_rows(self, index: int) -> tuple[list[int], int, int]:
        """(list positions of each ROW, position of TABLE_CLOSE, column count) of the table starting at `index`."""
        p = self.pos_of(index) if 1 <= index < self.end_index else -1
        if p < 0 or self.chars[p] != TABLE_OPEN:
            raise DocsError(f"Invalid table start location {index}: no table starts there.")
        rows, q = [], p + 1
        while self.chars[q] != TABLE_CLOSE:
            if self.chars[q] == ROW:
                rows.append(q)
            q += 1
        return rows, q, self.chars[rows[0]:(rows[1] if len(rows) > 1 else q)].count(CELL)

    def insert_table_row(self, table_index: int, row_index: int, below: bool) -> None:
        rows, close, columns = self.table_rows(table_index)
        if not 0 <= row_index < len(rows):
            raise DocsError(f"Invalid rowIndex {row_index}: the table has {len(rows)} rows.")
        at = (rows[row_index + 1] if row_index + 1 < len(rows) else close) if below else rows[row_index]
        self._splice(at, *self._new_row(columns))

    def delete_table_row(self, table_index: int, row_index: int) -> None:
        rows, close, _ = self.table_rows(table_index)
        if not 0 <= row_index < len(rows):
            raise DocsError(f"Invalid rowIndex {row_index}: the table has {len(rows)} rows.")
        if len(rows) == 1:
            raise DocsError("Cannot delete the only row of a table; delete the table with deleteContentRange.")
        start, end = rows[row_index], (rows[row_index + 1] if row_index + 1 < len(rows) else close)
        k, n = self.para_of(start), self.chars[start:end].count("\n")
        del self.chars[start:end]
        del self.styles[start:end]
        del self.paras[k:k + n]
        del self.bullets[k:k + n]

    def _check_range(self, start: int, end: int) -> tuple[int, int]:
        if start >= end:
            raise DocsError("The range should not be empty.")
        if start < 1 or end > self.end_index:
            raise DocsError(f"Index {max(end, start)} must be less than the end index of the referenced segment, "
                            f"{self.end_index}." if end > self.end_index else
                            "The range must start at index 1 or later.")
        offs = self.offsets()
        return self.pos_of(start, offs), self.pos_of(end, offs)

    def update_text_style(self, start: int, end: int, style: Style, fields: list[list[str]]) -> None:
        ps, pe = self._check_range(start, end)
        cache: dict[int, Style] = {}
        for i in range(ps, pe):
            k = id(self.styles[i])
            if k not in cache:
                new = copy.deepcopy(self.styles[i])
                _apply(new, style, fields)
                cache[k] = new
            self.styles[i] = cache[k]

    def paragraphs_in(self, start: int, end: int) -> range:
        ps, pe = self._check_range(start, end)
        return range(self.para_of(ps), self.para_of(max(pe - 1, ps)) + 1)

    def update_paragraph_style(self, start: int, end: int, style: Style, fields: list[list[str]]) -> None:
        for k in self.paragraphs_in(start, end):
            _apply(self.paras[k], style, fields)
            self.paras[k].setdefault("namedStyleType", "NORMAL_TEXT")
            self.paras[k].setdefault("direction", "LEFT_TO_RIGHT")

    def replace_all(self, needle: str, replacement: str, match_case: bool) -> int:
        if not needle:
            raise DocsError("containsText.text must not be empty.")
        if MARKERS.intersection(needle + replacement):
            raise DocsError("containsText.text and replaceText must not contain the Private Use characters U+E000..U+E003.")
        text = "".join(self.chars)
        rx = re.compile(re.escape(needle), 0 if match_case else re.IGNORECASE)
        hits = [m for m in rx.finditer(text) if "\n" not in m.group(0)]
        offs = self.offsets()
        for m in reversed(hits):
            style = self.styles[m.start()]
            del self.chars[m.start():m.end()]
            del self.styles[m.start():m.end()]
            if replacement:
                rep = replacement.replace("\r\n", "\n")
                k = self.para_of(m.start())
                self.chars[m.start():m.start()] = list(rep)
                self.styles[m.start():m.start()] = [style] * len(rep)
                self.paras[k:k] = [dict(self.paras[k]) for _ in range(rep.count("\n"))]
                self.bullets[k:k] = [copy.deepcopy(self.bullets[k]) for _ in range(rep.count("\n"))]
        del offs
        return len(hits)

    # ------------------------------------------------------------------ views
    def paragraph_texts(self) -> list[str]:
        return self.plain_text().split("\n")[:-1]

    def plain_text(self) -> str:
        """The text with table structure dropped: each cell paragraph is a line of its own."""
        return "".join(ch for ch in self.chars if ch not in MARKERS)

    def to_content(self, lists: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        content: list[dict[str, Any]] = [{"endIndex": 1, "sectionBreak": {"sectionStyle": {
            "columnSeparatorStyle": "NONE", "contentDirection": "LEFT_TO_RIGHT", "sectionType": "CONTINUOUS"}}}]
        cur = _Cursor()
        while cur.pos < len(self.chars):
            content.append(self._table(cur) if self.chars[cur.pos] == TABLE_OPEN else self._paragraph(cur))
        return content

    def _paragraph(self, cur: _Cursor) -> dict[str, Any]:
        p_start_index = cur.index
        elements: list[dict[str, Any]] = []
        run_start_index, run_chars, run_style = cur.index, [], None
        while True:
            ch = self.chars[cur.pos]
            st = self.styles[cur.pos]
            if run_style is not None and st is not run_style and st != run_style:
                elements.append(_run(run_start_index, cur.index, "".join(run_chars), run_style))
                run_start_index, run_chars = cur.index, []
            run_style = st
            run_chars.append(ch)
            cur.index += 2 if ord(ch) > 0xFFFF else 1
            cur.pos += 1
            if ch == "\n":
                break
        elements.append(_run(run_start_index, cur.index, "".join(run_chars), run_style or {}))
        body: dict[str, Any] = {"elements": elements, "paragraphStyle": copy.deepcopy(self.paras[cur.para])}
        if self.bullets[cur.para]:
            body["bullet"] = copy.deepcopy(self.bullets[cur.para])
        cur.para += 1
        return {"startIndex": p_start_index, "endIndex": cur.index, "paragraph": body}

    def _table(self, cur: _Cursor) -> dict[str, Any]:
        start = cur.index
        cur.step()  # TABLE_OPEN
        rows: list[dict[str, Any]] = []
        while self.chars[cur.pos] == ROW:
            row_start, cells = cur.index, []
            cur.step()
            while self.chars[cur.pos] == CELL:
                cell_start, paras = cur.index, []
                cur.step()
                while self.chars[cur.pos] not in MARKERS:
                    paras.append(self._paragraph(cur))
                cells.append({"startIndex": cell_start, "endIndex": cur.index, "content": paras,
                              "tableCellStyle": {"rowSpan": 1, "columnSpan": 1, "backgroundColor": {},
                                                 "contentAlignment": "TOP"}})
            rows.append({"startIndex": row_start, "endIndex": cur.index, "tableCells": cells,
                         "tableRowStyle": {"minRowHeight": {"unit": "PT"}}})
        cur.step()  # TABLE_CLOSE
        columns = len(rows[0]["tableCells"]) if rows else 0
        return {"startIndex": start, "endIndex": cur.index, "table": {
            "rows": len(rows), "columns": columns, "tableRows": rows,
            "tableStyle": {"tableColumnProperties": [{"widthType": "EVENLY_DISTRIBUTED"}] * columns}}}


class _Cursor:
    """Where rendering is: list position, document index and paragraph number."""

    def __init__(self) -> None:
        self.pos, self.index, self.para = 0, 1, 0

    def step(self) -> None:
        self.pos += 1
        self.index += 1


def _run(start: int, end: int, text: str, style: Style) -> dict[str, Any]:
    return {"startIndex": start, "endIndex": end, "textRun": {"content": text, "textStyle": copy.deepcopy(style)}}


def _apply(dest: Style, src: Style, fields: list[list[str]]) -> None:
    for path in fields:
        if path == ["*"]:
            dest.clear()
            dest.update(copy.deepcopy(src))
            continue
        s: Any = src
        for part in path:
            s = s.get(part) if isinstance(s, dict) else None
        d = dest
        for part in path[:-1]:
            d = d.setdefault(part, {})
        if s is None:
            d.pop(path[-1], None)
        else:
            d[path[-1]] = copy.deepcopy(s)
    # A style with nothing left in a sub-object drops it, as Google does.
    for key in [k for k, v in dest.items() if v == {}]:
        del dest[key]


def parse_fields(mask: Any, allowed: set[str], what: str) -> list[list[str]]:
    if mask is None or not str(mask).strip():
        raise DocsError("fields is required: name the style properties to update (or '*').")
    paths = [p.strip().split(".") for p in str(mask).split(",") if p.strip()]
    for p in paths:
        if p != ["*"] and p[0] not in allowed:
            raise DocsError(f"Invalid field '{'.'.join(p)}' for {what}; known: {sorted(allowed)}.")
    return paths


def text_to_flat(text: str) -> Flat:
    """Content for a document made from plain text (a text/plain import)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.endswith("\n"):
        text += "\n"
    n = text.count("\n")
    return Flat(list(text), [{}] * len(text), [dict(DEFAULT_PARAGRAPH_STYLE) for _ in range(n)], [None] * n)
