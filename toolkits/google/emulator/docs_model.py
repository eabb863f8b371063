"""The Google Docs structural model (pure, no I/O).

Stored form (compact, JSON): the body text after the opening section break,
run-length text styles, and one paragraph style per paragraph (= per "\\n").
Editing works on a flat per-character view; `to_body()` renders the
structural JSON Google returns:

- `body.content[0]` is a sectionBreak covering index 0..1;
- every paragraph ends with "\\n"; an empty document is one paragraph "\\n" at 1..2;
- indices count UTF-16 code units (an emoji takes two), as Google's do;
- text runs split where the text style changes, and at paragraph ends.

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
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        p = self.pos_of(index)
        # Inserted text takes the style of the character before it, unless it
        # starts a paragraph (then of the character after), as in Docs.
        if p > 0 and self.chars[p - 1] != "\n":
            base = self.styles[p - 1]
        else:
            base = self.styles[p]
        base = {k: v for k, v in base.items() if k != "link"} if p > 0 and self.chars[p - 1] == "\n" else base
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
        first_para = self.para_of(ps)
        removed_nl = self.chars[ps:pe].count("\n")
        at_para_start = ps == 0 or self.chars[ps - 1] == "\n"
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
        return "".join(self.chars).split("\n")[:-1]

    def plain_text(self) -> str:
        return "".join(self.chars)

    def to_content(self, lists: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        content: list[dict[str, Any]] = [{"endIndex": 1, "sectionBreak": {"sectionStyle": {
            "columnSeparatorStyle": "NONE", "contentDirection": "LEFT_TO_RIGHT", "sectionType": "CONTINUOUS"}}}]
        pos, index, para = 0, 1, 0
        n = len(self.chars)
        while pos < n:
            p_start_index = index
            elements: list[dict[str, Any]] = []
            run_start_index, run_chars, run_style = index, [], None
            while True:
                ch = self.chars[pos]
                st = self.styles[pos]
                if run_style is not None and st is not run_style and st != run_style:
                    elements.append(_run(run_start_index, index, "".join(run_chars), run_style))
                    run_start_index, run_chars = index, []
                run_style = st
                run_chars.append(ch)
                index += 2 if ord(ch) > 0xFFFF else 1
                pos += 1
                if ch == "\n":
                    break
            elements.append(_run(run_start_index, index, "".join(run_chars), run_style or {}))
            body: dict[str, Any] = {"elements": elements, "paragraphStyle": copy.deepcopy(self.paras[para])}
            if self.bullets[para]:
                body["bullet"] = copy.deepcopy(self.bullets[para])
            content.append({"startIndex": p_start_index, "endIndex": index, "paragraph": body})
            para += 1
        return content


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
