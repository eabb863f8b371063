"""Forms v1 emulator conformance through google-api-python-client."""

from __future__ import annotations

from typing import Any

import pytest
from deskact.toolkits.google.emulator.forms import submit_response
from googleapiclient.errors import HttpError


def _question(kind: dict[str, Any], title: str, index: int) -> dict[str, Any]:
    return {"createItem": {"item": {"title": title, "questionItem": {"question": kind}}, "location": {"index": index}}}


def test_create_batch_update_get(emu: Any) -> None:
    forms = emu.build("forms", "v1")
    form = forms.forms().create(body={"info": {"title": "Team survey"}}).execute()
    fid = form["formId"]
    assert form["info"] == {"title": "Team survey", "documentTitle": "Team survey"} and "items" not in form
    reply = forms.forms().batchUpdate(formId=fid, body={"includeFormInResponse": True, "requests": [
        {"updateFormInfo": {"info": {"description": "Two questions"}, "updateMask": "description"}},
        _question({"required": True, "choiceQuestion": {"type": "RADIO", "options": [{"value": "Yes"}, {"value": "No"}]}},
                  "Happy?", 0),
        _question({"textQuestion": {"paragraph": True}}, "Why?", 1),
        {"createItem": {"item": {"title": "Section", "pageBreakItem": {}}, "location": {"index": 1}}},
    ]}).execute()
    created = reply["replies"][1]["createItem"]
    assert set(created) == {"itemId", "questionId"} and len(created["questionId"]) == 1
    assert reply["form"]["info"]["description"] == "Two questions"
    assert [i["title"] for i in reply["form"]["items"]] == ["Happy?", "Section", "Why?"]
    forms.forms().batchUpdate(formId=fid, body={"requests": [
        {"moveItem": {"originalLocation": {"index": 2}, "newLocation": {"index": 0}}},
        {"deleteItem": {"location": {"index": 2}}},
        {"updateItem": {"item": {"title": "Are you happy?"}, "location": {"index": 1}, "updateMask": "title"}},
    ]}).execute()
    got = forms.forms().get(formId=fid).execute()
    assert [i["title"] for i in got["items"]] == ["Why?", "Are you happy?"]
    assert got["items"][1]["questionItem"]["question"]["choiceQuestion"]["options"] == [{"value": "Yes"}, {"value": "No"}]
    assert got["revisionId"] != form["revisionId"]
    drive = emu.build("drive", "v3")
    assert drive.files().get(fileId=fid).execute()["mimeType"] == "application/vnd.google-apps.form"


def test_errors(emu: Any) -> None:
    forms = emu.build("forms", "v1")
    with pytest.raises(HttpError) as err:  # only the title can be set at creation
        forms.forms().create(body={"info": {"title": "x"}, "items": [{"title": "q"}]}).execute()
    assert err.value.resp.status == 400
    fid = forms.forms().create(body={"info": {"title": "E"}}).execute()["formId"]
    for req in (_question({"choiceQuestion": {"type": "RADIO", "options": []}}, "empty", 0),
                _question({}, "no kind", 0),
                _question({"textQuestion": {}}, "far", 5),
                {"deleteItem": {"location": {"index": 0}}},
                {"updateFormInfo": {"info": {"title": "t"}}}):
        with pytest.raises(HttpError) as err:
            forms.forms().batchUpdate(formId=fid, body={"requests": [req]}).execute()
        assert err.value.resp.status == 400, req
    with pytest.raises(HttpError) as err:
        forms.forms().get(formId="missing").execute()
    assert err.value.resp.status == 404


def test_responses_list_filter_paging(emu: Any) -> None:
    forms = emu.build("forms", "v1")
    fid = forms.forms().create(body={"info": {"title": "Poll"}}).execute()["formId"]
    reply = forms.forms().batchUpdate(formId=fid, body={"requests": [
        _question({"textQuestion": {}}, "Name", 0)]}).execute()
    qid = reply["replies"][0]["createItem"]["questionId"][0]
    store = emu.emulator.store
    with store.lock:
        for i, when in enumerate(["2024-01-01T10:00:00Z", "2024-02-01T10:00:00Z", "2024-03-01T10:00:00Z"]):
            submit_response(store, fid, {"Name": f"person {i}"}, submitted=when)
    listed = forms.forms().responses().list(formId=fid).execute()["responses"]
    assert [r["answers"][qid]["textAnswers"]["answers"][0]["value"] for r in listed] == ["person 0", "person 1", "person 2"]
    later = forms.forms().responses().list(formId=fid, filter="timestamp > 2024-01-15T00:00:00Z").execute()
    assert len(later["responses"]) == 2
    page = forms.forms().responses().list(formId=fid, pageSize=2).execute()
    assert len(page["responses"]) == 2 and page["nextPageToken"]
    rest = forms.forms().responses().list(formId=fid, pageSize=2, pageToken=page["nextPageToken"]).execute()
    assert len(rest["responses"]) == 1 and "nextPageToken" not in rest
    one = forms.forms().responses().get(formId=fid, responseId=listed[0]["responseId"]).execute()
    assert one == listed[0]
    with pytest.raises(HttpError) as err:
        forms.forms().responses().get(formId=fid, responseId="nope").execute()
    assert err.value.resp.status == 404
    with pytest.raises(HttpError) as err:
        forms.forms().responses().list(formId=fid, filter="name = x").execute()
    assert err.value.resp.status == 400
    with pytest.raises(ValueError, match="has no question 'Unknown question'"):
        submit_response(store, fid, {"Unknown question": "x"})
