"""Docs v1 emulator conformance through google-api-python-client, plus unit
tests of the structural model (index rules) as pure functions."""

from __future__ import annotations

from typing import Any

import pytest
from deskact.toolkits.google.emulator.docs.model import DocsError, Flat
from googleapiclient.errors import HttpError


def _texts(flat: Flat) -> list[tuple[int, int, str]]:
    return [(el["startIndex"], el["endIndex"], "".join(e["textRun"]["content"] for e in el["paragraph"]["elements"]))
            for el in flat.to_content()[1:]]


def test_empty_document_indices() -> None:
    content = Flat.empty().to_content()
    assert content[0] == {"endIndex": 1, "sectionBreak": {"sectionStyle": {
        "columnSeparatorStyle": "NONE", "contentDirection": "LEFT_TO_RIGHT", "sectionType": "CONTINUOUS"}}}
    assert content[1]["startIndex"] == 1 and content[1]["endIndex"] == 2
    assert content[1]["paragraph"]["elements"][0]["textRun"]["content"] == "\n"


def test_insert_split_merge_and_utf16() -> None:
    flat = Flat.empty()
    flat.insert_text(1, "ab\ncd")
    assert _texts(flat) == [(1, 4, "ab\n"), (4, 7, "cd\n")]
    flat.insert_text(4, "😀")  # two UTF-16 code units
    assert _texts(flat) == [(1, 4, "ab\n"), (4, 9, "😀cd\n")]
    with pytest.raises(DocsError):
        flat.insert_text(5, "x")  # inside the surrogate pair
    flat.delete_range(3, 4)  # the newline: paragraphs merge
    assert _texts(flat) == [(1, 8, "ab😀cd\n")]
    with pytest.raises(DocsError):
        flat.delete_range(1, 8)  # the final newline cannot go
    with pytest.raises(DocsError):
        flat.insert_text(0, "x")
    with pytest.raises(DocsError):
        flat.insert_text(8, "x")


def test_deleting_a_whole_paragraph_keeps_the_next_style() -> None:
    flat = Flat.empty()
    flat.insert_text(1, "Title\nBody")
    flat.update_paragraph_style(1, 2, {"namedStyleType": "HEADING_1"}, [["namedStyleType"]])
    flat.delete_range(1, 7)  # "Title\n"
    assert [p["namedStyleType"] for p in flat.paras] == ["NORMAL_TEXT"]


def test_create_get_batch_update(emu: Any) -> None:
    docs = emu.build("docs", "v1")
    doc = docs.documents().create(body={"title": "Report", "body": {"content": []}}).execute()
    did = doc["documentId"]
    assert doc["title"] == "Report" and len(doc["body"]["content"]) == 2
    reply = docs.documents().batchUpdate(documentId=did, body={"requests": [
        {"insertText": {"location": {"index": 1}, "text": "Summary\nSales grew in March.\n"}},
        {"updateParagraphStyle": {"range": {"startIndex": 1, "endIndex": 8},
                                  "paragraphStyle": {"namedStyleType": "HEADING_1", "alignment": "CENTER"},
                                  "fields": "namedStyleType,alignment"}},
        {"updateTextStyle": {"range": {"startIndex": 9, "endIndex": 14}, "textStyle": {"bold": True},
                             "fields": "bold"}},
        {"replaceAllText": {"containsText": {"text": "march", "matchCase": False}, "replaceText": "April"}},
        {"insertText": {"endOfSegmentLocation": {}, "text": "End"}},
    ]}).execute()
    assert reply["replies"][3] == {"replaceAllText": {"occurrencesChanged": 1}}
    assert reply["documentId"] == did and reply["writeControl"]["requiredRevisionId"]
    body = docs.documents().get(documentId=did).execute()["body"]["content"]
    heading, para, last = body[1], body[2], body[3]
    assert heading["paragraph"]["paragraphStyle"]["namedStyleType"] == "HEADING_1"
    assert heading["paragraph"]["paragraphStyle"]["alignment"] == "CENTER"
    runs = para["paragraph"]["elements"]
    assert [(r["textRun"]["content"], r["textRun"]["textStyle"]) for r in runs] == [
        ("Sales", {"bold": True}), (" grew in April.\n", {})]
    assert (para["startIndex"], para["endIndex"]) == (9, 30)
    assert last["paragraph"]["elements"][0]["textRun"]["content"] == "End\n"
    assert (last["startIndex"], last["endIndex"]) == (30, 34)
    docs.documents().batchUpdate(documentId=did, body={"requests": [
        {"deleteContentRange": {"range": {"startIndex": 1, "endIndex": 9}}},
        {"updateTextStyle": {"range": {"startIndex": 1, "endIndex": 6}, "textStyle": {}, "fields": "bold"}},
    ]}).execute()
    got = docs.documents().get(documentId=did).execute()
    first = got["body"]["content"][1]["paragraph"]
    assert first["paragraphStyle"]["namedStyleType"] == "NORMAL_TEXT"
    assert first["elements"][0]["textRun"] == {"content": "Sales grew in April.\n", "textStyle": {}}
    tabs = docs.documents().get(documentId=did, includeTabsContent=True).execute()
    assert "body" not in tabs and tabs["tabs"][0]["documentTab"]["body"] == got["body"]


def test_bullets_and_errors(emu: Any) -> None:
    docs = emu.build("docs", "v1")
    did = docs.documents().create(body={"title": "List"}).execute()["documentId"]
    docs.documents().batchUpdate(documentId=did, body={"requests": [
        {"insertText": {"location": {"index": 1}, "text": "one\ntwo\n"}},
        {"createParagraphBullets": {"range": {"startIndex": 1, "endIndex": 8},
                                    "bulletPreset": "NUMBERED_DECIMAL_ALPHA_ROMAN"}}]}).execute()
    got = docs.documents().get(documentId=did).execute()
    bullets = [el["paragraph"].get("bullet") for el in got["body"]["content"][1:]]
    assert bullets[0] and bullets[1] and bullets[0]["listId"] in got["lists"] and bullets[2] is None
    bad_requests = [
        {"insertText": {"location": {"index": 0}, "text": "x"}},
        {"insertText": {"location": {"index": 99}, "text": "x"}},
        {"deleteContentRange": {"range": {"startIndex": 1, "endIndex": 10}}},
        {"deleteContentRange": {"range": {"startIndex": 3, "endIndex": 3}}},
        {"updateTextStyle": {"range": {"startIndex": 1, "endIndex": 2}, "textStyle": {"bold": True}}},
        {"updateTextStyle": {"range": {"startIndex": 1, "endIndex": 2}, "textStyle": {}, "fields": "wings"}},
        {"insertText": {"location": {"index": 1, "segmentId": "kix.header"}, "text": "x"}},
    ]
    for req in bad_requests:
        with pytest.raises(HttpError) as err:
            docs.documents().batchUpdate(documentId=did, body={"requests": [req]}).execute()
        assert err.value.resp.status == 400, req
        assert "Invalid requests[0]." in str(err.value)
    with pytest.raises(HttpError) as err:
        docs.documents().batchUpdate(documentId=did, body={"requests": [{"insertInlineImage": {
            "uri": "https://example.com/a.png", "location": {"index": 1}}}]}).execute()
    assert err.value.resp.status == 501
    with pytest.raises(HttpError) as err:
        docs.documents().get(documentId="nope").execute()
    assert err.value.resp.status == 404
    # A failed batch changes nothing (all-or-nothing, like Google).
    with pytest.raises(HttpError):
        docs.documents().batchUpdate(documentId=did, body={"requests": [
            {"insertText": {"location": {"index": 1}, "text": "zzz"}},
            {"insertText": {"location": {"index": 0}, "text": "x"}}]}).execute()
    text = docs.documents().get(documentId=did).execute()["body"]["content"][1]["paragraph"]["elements"][0]["textRun"]["content"]
    assert text == "one\n"


def test_revision_precondition_and_export(emu: Any) -> None:
    docs = emu.build("docs", "v1")
    drive = emu.build("drive", "v3")
    doc = docs.documents().create(body={"title": "Rev"}).execute()
    rev = doc["revisionId"]
    docs.documents().batchUpdate(documentId=doc["documentId"], body={
        "requests": [{"insertText": {"location": {"index": 1}, "text": "Hello"}}],
        "writeControl": {"requiredRevisionId": rev}}).execute()
    with pytest.raises(HttpError) as err:
        docs.documents().batchUpdate(documentId=doc["documentId"], body={
            "requests": [{"insertText": {"location": {"index": 1}, "text": "again"}}],
            "writeControl": {"requiredRevisionId": rev}}).execute()
    assert err.value.resp.status == 400
    html = drive.files().export(fileId=doc["documentId"], mimeType="text/html").execute()
    assert b"<p>Hello</p>" in html
    docx = drive.files().export(fileId=doc["documentId"],
                                mimeType="application/vnd.openxmlformats-officedocument.wordprocessingml.document").execute()
    assert docx[:2] == b"PK"
