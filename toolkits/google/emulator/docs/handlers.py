"""Docs v1: documents create/get/batchUpdate over the model in `model.py`.

Documents are `docs.document` records keyed by their Drive file id; a new
document is registered in Drive as application/vnd.google-apps.document, and
the Drive hooks here export it (text/plain with Google's UTF-8 BOM, HTML,
Markdown, DOCX) and import text/plain or DOCX uploads into it.
"""

from __future__ import annotations

import copy
import hashlib
import html
import io
from typing import Any

from .. import drive
from ..common import check_revision, each_request, load_record, rename_hook
from ..drive.types import DOCUMENT, GoogleType, register_type
from ..errors import ApiError
from ..framework import Request, handler
from ..store import Store
from .model import (
    NAMED_STYLES,
    PARAGRAPH_STYLE_FIELDS,
    TEXT_STYLE_FIELDS,
    DocsError,
    Flat,
    parse_fields,
    text_to_flat,
)

KIND = "docs.document"

_DOCUMENT_STYLE = {
    "background": {"color": {}}, "pageNumberStart": 1,
    "marginTop": {"magnitude": 72, "unit": "PT"}, "marginBottom": {"magnitude": 72, "unit": "PT"},
    "marginRight": {"magnitude": 72, "unit": "PT"}, "marginLeft": {"magnitude": 72, "unit": "PT"},
    "pageSize": {"height": {"magnitude": 792, "unit": "PT"}, "width": {"magnitude": 612, "unit": "PT"}},
    "marginHeader": {"magnitude": 36, "unit": "PT"}, "marginFooter": {"magnitude": 36, "unit": "PT"},
    "useCustomHeaderFooterMargins": True, "documentFormat": {"documentMode": "PAGES"},
}
_FONT_SIZES = {"NORMAL_TEXT": 11, "TITLE": 26, "SUBTITLE": 15, "HEADING_1": 20, "HEADING_2": 16,
               "HEADING_3": 14, "HEADING_4": 12, "HEADING_5": 11, "HEADING_6": 11}


def _named_styles() -> dict[str, Any]:
    styles = []
    for name in NAMED_STYLES:
        ts: dict[str, Any] = {"fontSize": {"magnitude": _FONT_SIZES[name], "unit": "PT"}}
        if name == "NORMAL_TEXT":
            ts.update({"bold": False, "italic": False, "underline": False, "strikethrough": False,
                       "smallCaps": False, "weightedFontFamily": {"fontFamily": "Arial", "weight": 400},
                       "foregroundColor": {"color": {"rgbColor": {}}}, "backgroundColor": {},
                       "baselineOffset": "NONE"})
        styles.append({"namedStyleType": name, "textStyle": ts,
                       "paragraphStyle": {"namedStyleType": name, "direction": "LEFT_TO_RIGHT",
                                          "alignment": "START", "lineSpacing": 115}})
    return {"styles": styles}


def new_document(doc_id: str, title: str, flat: Flat | None = None) -> dict[str, Any]:
    return {"documentId": doc_id, "title": title, "revision": 1, "body": (flat or Flat.empty()).dump(), "lists": {}}


def load(store: Store, doc_id: str) -> dict[str, Any]:
    return load_record(store, KIND, "documentId", doc_id)


def revision_id(doc: dict[str, Any]) -> str:
    return "ALm37B" + hashlib.sha1(f"{doc['documentId']}:{doc['revision']}".encode()).hexdigest()[:40]


def to_resource(doc: dict[str, Any], include_tabs: bool = False) -> dict[str, Any]:
    """The Document JSON of documents.get."""
    flat = Flat.load(doc["body"])
    tab_body: dict[str, Any] = {"body": {"content": flat.to_content()}, "documentStyle": copy.deepcopy(_DOCUMENT_STYLE),
                                "namedStyles": _named_styles()}
    if doc.get("lists"):
        tab_body["lists"] = copy.deepcopy(doc["lists"])
    out: dict[str, Any] = {"title": doc["title"]}
    if include_tabs:
        out["tabs"] = [{"tabProperties": {"tabId": "t.0", "title": "Tab 1", "index": 0}, "documentTab": tab_body}]
    else:
        out.update(tab_body)
    out.update(revisionId=revision_id(doc), suggestionsViewMode="SUGGESTIONS_INLINE", documentId=doc["documentId"])
    return out


def document_text(store: Store, doc_id: str) -> str:
    """The body as plain text (one line per paragraph)."""
    return Flat.load(load(store, doc_id)["body"]).plain_text()


# ---------------------------------------------------------------- Drive hooks

def _create_empty(store: Store, file_id: str, title: str) -> None:
    store.put(KIND, file_id, new_document(file_id, title))


def _copy(store: Store, src: str, dst: str, title: str) -> None:
    doc = copy.deepcopy(store.get(KIND, src)) or new_document(dst, title)
    doc.update(documentId=dst, title=title, revision=1)
    store.put(KIND, dst, doc)


def _export_text(store: Store, file_id: str) -> bytes:
    # Google's text/plain export starts with a UTF-8 byte order mark.
    return b"\xef\xbb\xbf" + document_text(store, file_id).encode("utf-8")


def _flat_paragraphs(content: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Paragraphs in reading order; a table's cell paragraphs come row by row."""
    out = []
    for el in content:
        if "paragraph" in el:
            out.append(el["paragraph"])
        for row in el.get("table", {}).get("tableRows", []):
            for cell in row["tableCells"]:
                out.extend(_flat_paragraphs(cell["content"]))
    return out


def _paragraphs(store: Store, file_id: str) -> list[tuple[str, dict[str, Any], list[tuple[str, dict[str, Any]]]]]:
    # The exports write a table's cells as paragraphs of their own (no table markup).
    flat = Flat.load(load(store, file_id)["body"])
    out = []
    for para in _flat_paragraphs(flat.to_content()[1:]):
        runs = [(e["textRun"]["content"].rstrip("\n"), e["textRun"]["textStyle"]) for e in para["elements"]]
        out.append(("".join(r for r, _ in runs), para["paragraphStyle"], runs))
    return out


def _export_html(store: Store, file_id: str) -> bytes:
    tags = {"TITLE": "h1", "SUBTITLE": "h2", "HEADING_1": "h1", "HEADING_2": "h2", "HEADING_3": "h3",
            "HEADING_4": "h4", "HEADING_5": "h5", "HEADING_6": "h6"}
    parts = [(f"<html><head><meta content=\"text/html; charset=UTF-8\" http-equiv=\"content-type\">"
              f"<title>{html.escape(load(store, file_id)['title'])}</title></head><body>")]
    for _, pstyle, runs in _paragraphs(store, file_id):
        tag = tags.get(pstyle.get("namedStyleType", ""), "p")
        inner = ""
        for text, ts in runs:
            piece = html.escape(text)
            if ts.get("bold"):
                piece = f"<b>{piece}</b>"
            if ts.get("italic"):
                piece = f"<i>{piece}</i>"
            if ts.get("underline"):
                piece = f"<u>{piece}</u>"
            inner += piece
        parts.append(f"<{tag}>{inner}</{tag}>")
    parts.append("</body></html>")
    return "".join(parts).encode("utf-8")


def _export_markdown(store: Store, file_id: str) -> bytes:
    prefix = {"TITLE": "# ", "SUBTITLE": "## ", "HEADING_1": "# ", "HEADING_2": "## ", "HEADING_3": "### ",
              "HEADING_4": "#### ", "HEADING_5": "##### ", "HEADING_6": "###### "}
    lines = []
    for text, pstyle, runs in _paragraphs(store, file_id):
        body = "".join(f"**{t}**" if ts.get("bold") and t.strip() else t for t, ts in runs)
        lines.append(prefix.get(pstyle.get("namedStyleType", ""), "") + body if text else "")
    return ("\n\n".join(lines) + "\n").encode("utf-8")


def _export_docx(store: Store, file_id: str) -> bytes:
    import docx
    out = docx.Document()
    levels = {"TITLE": 0, "HEADING_1": 1, "HEADING_2": 2, "HEADING_3": 3, "HEADING_4": 4, "HEADING_5": 5,
              "HEADING_6": 6}
    for _, pstyle, runs in _paragraphs(store, file_id):
        named = pstyle.get("namedStyleType", "NORMAL_TEXT")
        para = out.add_heading("", level=levels[named]) if named in levels else out.add_paragraph()
        for text, ts in runs:
            run = para.add_run(text)
            run.bold = ts.get("bold")
            run.italic = ts.get("italic")
            run.underline = ts.get("underline")
    buf = io.BytesIO()
    out.save(buf)
    return buf.getvalue()


def _import_text(store: Store, file_id: str, title: str, data: bytes) -> None:
    text = data.decode("utf-8-sig", "replace")
    store.put(KIND, file_id, new_document(file_id, title, text_to_flat(text)))


def _import_docx(store: Store, file_id: str, title: str, data: bytes) -> None:
    import docx
    src = docx.Document(io.BytesIO(data))
    flat = Flat([], [], [], [])
    for para in src.paragraphs:
        style_name = (para.style.name if para.style is not None else "") or ""
        named = "NORMAL_TEXT"
        if style_name == "Title":
            named = "TITLE"
        elif style_name.startswith("Heading "):
            level = style_name.split()[-1]
            named = f"HEADING_{level}" if level.isdigit() and 1 <= int(level) <= 6 else "NORMAL_TEXT"
        for run in para.runs:
            ts = {k: True for k in ("bold", "italic", "underline") if getattr(run, k)}
            flat.chars.extend(run.text)
            flat.styles.extend([ts] * len(run.text))
        flat.chars.append("\n")
        flat.styles.append({})
        flat.paras.append({"namedStyleType": named, "direction": "LEFT_TO_RIGHT"})
        flat.bullets.append(None)
    if not flat.chars:
        flat = Flat.empty()
    store.put(KIND, file_id, new_document(file_id, title, flat))


_DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
register_type(GoogleType(
    DOCUMENT, _create_empty, lambda store, fid: store.delete(KIND, fid), _copy, rename_hook(KIND, "title"),
    exporters={"text/plain": _export_text, "text/html": _export_html, "text/markdown": _export_markdown,
               _DOCX: _export_docx},
    importers={"text/plain": _import_text, "text/markdown": _import_text, _DOCX: _import_docx},
    text=lambda store, fid: document_text(store, fid) if store.get(KIND, fid) else ""))


# ------------------------------------------------------------------ handlers

@handler("docs.documents.create")
def documents_create(req: Request) -> dict[str, Any]:
    # Google ignores everything but the title ("other fields ... are ignored").
    title = (req.body or {}).get("title") or "Untitled document"
    doc_id = drive.new_file_id()
    doc = new_document(doc_id, title)
    req.store.put(KIND, doc_id, doc)
    drive.register_file(req.store, req.user, file_id=doc_id, name=title, mime_type=DOCUMENT)
    return to_resource(doc)


@handler("docs.documents.get")
def documents_get(req: Request) -> dict[str, Any]:
    doc = load(req.store, req.params["documentId"])
    return to_resource(doc, include_tabs=bool(req.params.get("includeTabsContent")))


def _location(loc: dict[str, Any] | None) -> None:
    loc = loc or {}
    if loc.get("segmentId"):
        raise DocsError(f"The segment_id '{loc['segmentId']}' does not exist (this document has no headers, "
                        "footers or footnotes).")
    if loc.get("tabId") not in (None, "", "t.0"):
        raise DocsError(f"The tab_id '{loc['tabId']}' does not exist.")


def _range(body: dict[str, Any]) -> tuple[int, int]:
    rng = body.get("range")
    if not isinstance(rng, dict):
        raise DocsError("range is required.")
    _location(rng)
    if "startIndex" not in rng or "endIndex" not in rng:
        raise DocsError("range.startIndex and range.endIndex are required.")
    return int(rng["startIndex"]), int(rng["endIndex"])


def _insert_index(flat: Flat, body: dict[str, Any]) -> int:
    """Where an insert request (insertText, insertTable) puts its content: ``location`` or the
    segment's end (before the body's final newline)."""
    if "location" in body:
        _location(body["location"])
        return int(body["location"].get("index", 0))
    if "endOfSegmentLocation" in body:
        _location(body["endOfSegmentLocation"])
        return flat.end_index - 1
    raise DocsError("Either location or endOfSegmentLocation must be set.")


def _apply_request(doc: dict[str, Any], flat: Flat, kind: str, body: dict[str, Any]) -> dict[str, Any]:
    if kind == "insertText":
        text = body.get("text")
        if text is None:
            raise DocsError("text is required.")
        flat.insert_text(_insert_index(flat, body), str(text))
        return {}
    if kind == "insertTable":
        return _insert_table(flat, body)
    if kind in ("insertTableRow", "deleteTableRow"):
        loc = body.get("tableCellLocation") or {}
        start = loc.get("tableStartLocation") or {}
        _location(start)
        if "index" not in start:
            raise DocsError("tableCellLocation.tableStartLocation.index is required.")
        if kind == "insertTableRow":
            flat.insert_table_row(int(start["index"]), int(loc.get("rowIndex", 0)), bool(body.get("insertBelow")))
        else:
            flat.delete_table_row(int(start["index"]), int(loc.get("rowIndex", 0)))
        return {}
    if kind == "deleteContentRange":
        flat.delete_range(*_range(body))
        return {}
    if kind == "replaceAllText":
        ct = body.get("containsText") or {}
        if body.get("tabsCriteria"):
            ids = (body["tabsCriteria"] or {}).get("tabIds") or []
            if any(t != "t.0" for t in ids):
                raise DocsError(f"Unknown tab ids {ids}.")
        n = flat.replace_all(str(ct.get("text") or ""), str(body.get("replaceText") or ""), bool(ct.get("matchCase")))
        return {"replaceAllText": {"occurrencesChanged": n} if n else {}}
    if kind == "updateTextStyle":
        fields = parse_fields(body.get("fields"), TEXT_STYLE_FIELDS, "TextStyle")
        flat.update_text_style(*_range(body), body.get("textStyle") or {}, fields)
        return {}
    if kind == "updateParagraphStyle":
        fields = parse_fields(body.get("fields"), PARAGRAPH_STYLE_FIELDS, "ParagraphStyle")
        style = body.get("paragraphStyle") or {}
        named = style.get("namedStyleType")
        if named is not None and named not in NAMED_STYLES:
            raise DocsError(f"Invalid namedStyleType {named!r}; use one of {list(NAMED_STYLES)}.")
        flat.update_paragraph_style(*_range(body), style, fields)
        return {}
    if kind == "createParagraphBullets":
        paras = flat.paragraphs_in(*_range(body))
        preset = body.get("bulletPreset") or "BULLET_DISC_CIRCLE_SQUARE"
        list_id = "kix." + hashlib.sha1(f"{doc['documentId']}:{len(doc['lists'])}".encode()).hexdigest()[:12]
        glyph = {"glyphType": "DECIMAL"} if preset.startswith("NUMBERED") else {"glyphSymbol": "●"}
        doc["lists"][list_id] = {"listProperties": {"nestingLevels": [
            dict(glyph, bulletAlignment="START", indentFirstLine={"magnitude": 18, "unit": "PT"},
                 indentStart={"magnitude": 36, "unit": "PT"}, startNumber=1, textStyle={"underline": False},
                 glyphFormat="%0." if preset.startswith("NUMBERED") else "%0")]}, "preset": preset}
        for k in paras:
            flat.bullets[k] = {"listId": list_id, "textStyle": {}}
        return {}
    if kind == "deleteParagraphBullets":
        for k in flat.paragraphs_in(*_range(body)):
            flat.bullets[k] = None
        return {}
    raise ApiError(501, f"Docs batchUpdate request '{kind}' is not emulated by deskact", "notImplemented")


def _insert_table(flat: Flat, body: dict[str, Any]) -> dict[str, Any]:
    for key in ("rows", "columns"):
        if not isinstance(body.get(key), int) or isinstance(body.get(key), bool):
            raise DocsError(f"{key} is required and must be a whole number, not {body.get(key)!r}.")
    flat.insert_table(_insert_index(flat, body), body["rows"], body["columns"])
    return {}


@handler("docs.documents.batchUpdate")
def documents_batch_update(req: Request) -> dict[str, Any]:
    doc = load(req.store, req.params["documentId"])
    body = req.body or {}
    check_revision(body, revision_id(doc), "the latest revision of the document")
    flat = Flat.load(doc["body"])
    replies = []
    for where, kind, payload in each_request(body.get("requests") or []):
        try:
            replies.append(_apply_request(doc, flat, kind, payload))
        except DocsError as exc:
            raise ApiError(exc.status, f"Invalid {where}: {exc.message}", "badRequest") from None
    if replies:
        doc["body"] = flat.dump()
        doc["revision"] += 1
        req.store.put(KIND, doc["documentId"], doc)
        drive.touch_file(req.store, doc["documentId"])
    return {"replies": replies, "writeControl": {"requiredRevisionId": revision_id(doc)},
            "documentId": doc["documentId"]}
