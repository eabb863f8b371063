"""google.spreadsheet, document, presentation and form against the emulator, checked through the API."""

from __future__ import annotations

from typing import Any

import pytest
from deskact.runtime.tasks.steps import StepContext, StepFailed, run_reset


def c(g: StepContext) -> Any:
    return g.services["google"]["clients"]


def _file_id(g: StepContext, name: str) -> str:
    return c(g).drive.files().list(q=f"name = '{name}'").execute()["files"][0]["id"]


def test_spreadsheet_values_formulas_csv_and_parent(g: StepContext) -> None:
    (g.files / "t.csv").write_text("a,b\n1,2\n")
    run_reset("google.spreadsheet", {"title": "Book", "parent": "Finance",
                                     "sheets": {"Data": [["x", "y"], [2, "=A2*10"]], "Csv": "t.csv"}}, g)
    sid = _file_id(g, "Book")
    vals = c(g).sheets.spreadsheets().values()
    assert vals.get(spreadsheetId=sid, range="Data!A1:B2", valueRenderOption="UNFORMATTED_VALUE").execute()["values"] \
        == [["x", "y"], [2, 20]]
    assert vals.get(spreadsheetId=sid, range="Csv!A1:B2", valueRenderOption="UNFORMATTED_VALUE").execute()["values"] \
        == [["a", "b"], [1, 2]]
    parents = c(g).drive.files().get(fileId=sid, fields="parents").execute()["parents"]
    assert parents == [_file_id(g, "Finance")]


def test_document_paragraphs_and_bold(g: StepContext) -> None:
    run_reset("google.document", {"title": "Memo", "paragraphs": ["Héllo team", "Ship Friday"], "bold": ["Friday"]}, g)
    doc = c(g).docs.documents().get(documentId=_file_id(g, "Memo")).execute()
    runs = [r["textRun"] for el in doc["body"]["content"] for r in el.get("paragraph", {}).get("elements", [])]
    assert "".join(r["content"] for r in runs) == "Héllo team\nShip Friday\n"
    assert [r["content"] for r in runs if r.get("textStyle", {}).get("bold")] == ["Friday"]
    with pytest.raises(StepFailed, match="bold text 'Monday' is in no paragraph"):
        run_reset("google.document", {"title": "X", "paragraphs": ["a"], "bold": ["Monday"]}, g)


def test_presentation_slides(g: StepContext) -> None:
    from deskact.judges.google.slides import slide_titles

    run_reset("google.presentation", {"title": "Deck", "slides": [{"title": "Intro", "body": "hi"}, {"title": "End"}]}, g)
    pres = c(g).slides.presentations().get(presentationId=_file_id(g, "Deck")).execute()
    assert slide_titles(pres) == ["Intro", "End"]


def test_form_questions_and_responses(g: StepContext) -> None:
    run_reset("google.form", {"title": "Poll", "description": "Vote", "questions": [
        {"title": "Name", "required": True}, {"title": "Pick", "kind": "checkbox", "options": ["A", "B"]}],
        "responses": [{"Name": "Ann", "Pick": ["A", "B"]}]}, g)
    fid = _file_id(g, "Poll")
    form = c(g).forms.forms().get(formId=fid).execute()
    assert form["info"]["description"] == "Vote"
    assert [i["title"] for i in form["items"]] == ["Name", "Pick"]
    assert form["items"][1]["questionItem"]["question"]["choiceQuestion"]["type"] == "CHECKBOX"
    responses = c(g).forms.forms().responses().list(formId=fid).execute()["responses"]
    assert len(responses) == 1
    with pytest.raises(ValueError, match="no question 'Nope'"):
        run_reset("google.form", {"title": "P2", "questions": [{"title": "Q"}], "responses": [{"Nope": "x"}]}, g)
