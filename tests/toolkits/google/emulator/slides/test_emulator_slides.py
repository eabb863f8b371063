"""Slides v1 emulator conformance through google-api-python-client."""

from __future__ import annotations

from typing import Any

import pytest
from googleapiclient.errors import HttpError


def _placeholder(page: dict[str, Any], ptype: str) -> dict[str, Any]:
    return next(e for e in page["pageElements"] if e.get("shape", {}).get("placeholder", {}).get("type") == ptype)


def _text(element: dict[str, Any]) -> str:
    runs = element["shape"].get("text", {}).get("textElements", [])
    return "".join(r["textRun"]["content"] for r in runs if "textRun" in r)


def test_create_has_title_slide_and_layouts(emu: Any) -> None:
    slides = emu.build("slides", "v1")
    pres = slides.presentations().create(body={"title": "Deck"}).execute()
    assert pres["title"] == "Deck" and len(pres["slides"]) == 1
    first = pres["slides"][0]
    assert {e["shape"]["placeholder"]["type"] for e in first["pageElements"]} == {"CENTERED_TITLE", "SUBTITLE"}
    assert "text" not in _placeholder(first, "CENTERED_TITLE")["shape"]  # empty placeholders have no text
    layout_names = {lay["layoutProperties"]["name"] for lay in pres["layouts"]}
    assert {"BLANK", "TITLE", "TITLE_AND_BODY", "TITLE_ONLY"} <= layout_names
    assert first["slideProperties"]["layoutObjectId"] in {lay["objectId"] for lay in pres["layouts"]}
    assert pres["pageSize"]["width"] == {"magnitude": 9144000, "unit": "EMU"}
    drive = emu.build("drive", "v3")
    f = drive.files().get(fileId=pres["presentationId"]).execute()
    assert f["mimeType"] == "application/vnd.google-apps.presentation" and f["name"] == "Deck"


def test_batch_update_requests(emu: Any) -> None:
    slides = emu.build("slides", "v1")
    pres = slides.presentations().create(body={"title": "Deck"}).execute()
    pid = pres["presentationId"]
    title_id = _placeholder(pres["slides"][0], "CENTERED_TITLE")["objectId"]
    reply = slides.presentations().batchUpdate(presentationId=pid, body={"requests": [
        {"insertText": {"objectId": title_id, "text": "Quarterly review"}},
        {"createSlide": {"objectId": "agenda_slide", "insertionIndex": 1,
                         "slideLayoutReference": {"predefinedLayout": "TITLE_AND_BODY"},
                         "placeholderIdMappings": [
                             {"layoutPlaceholder": {"type": "TITLE", "index": 0}, "objectId": "agenda_title"},
                             {"layoutPlaceholder": {"type": "BODY", "index": 0}, "objectId": "agenda_body"}]}},
        {"insertText": {"objectId": "agenda_title", "text": "Agenda"}},
        {"insertText": {"objectId": "agenda_body", "text": "Revenue\nCosts"}},
        {"createShape": {"objectId": "note_box", "shapeType": "TEXT_BOX",
                         "elementProperties": {"pageObjectId": "agenda_slide",
                                               "size": {"width": {"magnitude": 100, "unit": "PT"},
                                                        "height": {"magnitude": 50, "unit": "PT"}}}}},
        {"insertText": {"objectId": "note_box", "text": "Draft"}},
        {"replaceAllText": {"containsText": {"text": "costs", "matchCase": False}, "replaceText": "Spending"}},
    ]}).execute()
    assert reply["replies"][1] == {"createSlide": {"objectId": "agenda_slide"}}
    assert reply["replies"][4] == {"createShape": {"objectId": "note_box"}}
    assert reply["replies"][6] == {"replaceAllText": {"occurrencesChanged": 1}}
    pres = slides.presentations().get(presentationId=pid).execute()
    assert _text(_placeholder(pres["slides"][0], "CENTERED_TITLE")) == "Quarterly review\n"
    agenda = pres["slides"][1]
    body = _placeholder(agenda, "BODY")
    assert _text(body) == "Revenue\nSpending\n"
    elements = body["shape"]["text"]["textElements"]
    assert elements[0] == {"endIndex": 8, "paragraphMarker": {"style": {}}}
    assert elements[3] == {"startIndex": 8, "endIndex": 17, "textRun": {"content": "Spending\n", "style": {}}}
    page = slides.presentations().pages().get(presentationId=pid, pageObjectId="agenda_slide").execute()
    assert page["objectId"] == "agenda_slide"
    slides.presentations().batchUpdate(presentationId=pid, body={"requests": [
        {"deleteText": {"objectId": "agenda_body", "textRange": {"type": "FIXED_RANGE", "startIndex": 0, "endIndex": 8}}},
        {"deleteObject": {"objectId": "note_box"}},
        {"updateSlidesPosition": {"slideObjectIds": ["agenda_slide"], "insertionIndex": 0}},
    ]}).execute()
    pres = slides.presentations().get(presentationId=pid).execute()
    assert pres["slides"][0]["objectId"] == "agenda_slide"
    assert _text(_placeholder(pres["slides"][0], "BODY")) == "Spending\n"
    assert len(pres["slides"][0]["pageElements"]) == 2
    drive = emu.build("drive", "v3")
    text = drive.files().export(fileId=pid, mimeType="text/plain").execute().decode()
    assert "Agenda" in text and "Quarterly review" in text


def test_errors(emu: Any) -> None:
    slides = emu.build("slides", "v1")
    pid = slides.presentations().create(body={"title": "E"}).execute()["presentationId"]
    first = slides.presentations().get(presentationId=pid).execute()["slides"][0]["objectId"]
    for req in ({"deleteObject": {"objectId": "missing_object"}},
                {"createSlide": {"objectId": first}},               # duplicate id
                {"createSlide": {"objectId": "ab"}},                # too short
                {"createSlide": {"slideLayoutReference": {"predefinedLayout": "NOPE"}}},
                {"insertText": {"objectId": first, "text": "x"}},   # a slide holds no text
                {"createShape": {"shapeType": "RECTANGLE", "elementProperties": {"pageObjectId": "nowhere"}}}):
        with pytest.raises(HttpError) as err:
            slides.presentations().batchUpdate(presentationId=pid, body={"requests": [req]}).execute()
        assert err.value.resp.status == 400, req
    with pytest.raises(HttpError) as err:
        slides.presentations().get(presentationId="missing").execute()
    assert err.value.resp.status == 404
    with pytest.raises(HttpError) as err:
        slides.presentations().batchUpdate(presentationId=pid, body={"requests": [
            {"createTable": {"rows": 1, "columns": 1}}]}).execute()
    assert err.value.resp.status == 501
