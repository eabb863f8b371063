"""google.* reset steps against the worker service (emulator backend), checked through the API."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from deskact.runtime.tasks.steps import StepContext, StepFailed, lookup, run_reset
from deskact.toolkits.google import when


def c(g: StepContext) -> Any:
    return g.services["google"]["clients"]


def _events(g: StepContext, cal: str = "primary") -> list[dict]:
    return c(g).calendar.events().list(calendarId=cal, maxResults=2500).execute().get("items", [])


def test_reset_empties_the_account_and_records_the_anchor(g: StepContext) -> None:
    run_reset("google.calendar_events", {"events": [{"summary": "X", "start": "2025-01-01 10:00"}]}, g)
    run_reset("google.drive_files", {"files": [{"name": "a.txt", "content": "a"}]}, g)
    before = datetime.now().astimezone()
    run_reset("google.reset", {}, g)
    assert _events(g) == []
    assert c(g).drive.files().list().execute()["files"] == []
    state = g.services["google"]["state"]
    assert state["task_id"] == g.task_id and state["anchor"] >= before


def test_snapshot_then_reset_to_it(g: StepContext) -> None:
    run_reset("google.labels", {"names": ["Keep"]}, g)
    run_reset("google.snapshot", {"name": "with-label"}, g)
    run_reset("google.labels", {"names": ["Later"]}, g)
    run_reset("google.reset", {"snapshot": "with-label"}, g)
    names = {lab["name"] for lab in c(g).gmail.users().labels().list(userId="me").execute()["labels"]}
    assert "Keep" in names and "Later" not in names
    with pytest.raises(StepFailed, match="'nope' does not exist"):
        run_reset("google.reset", {"snapshot": "nope"}, g)


def test_seeding_without_reset_in_this_task_is_refused(g: StepContext) -> None:
    other = replace(g, task_id="another-task")
    with pytest.raises(StepFailed, match="list `google.reset` first"):
        run_reset("google.labels", {"names": ["A"]}, other)


def test_real_account_reset_needs_allow_wipe(g: StepContext) -> None:
    real = replace(g, services={"google": {"backend": "google", "clients": None, "state": {}}})
    with pytest.raises(StepFailed, match="allow_wipe"):
        run_reset("google.reset", {}, real)


def test_calendar_events_relative_times_zone_repeat_and_all_day(g: StepContext) -> None:
    run_reset("google.calendar_events", {"time_zone": "Asia/Tokyo", "events": [
        {"summary": "Standup", "start": "tomorrow 09:30", "attendees": ["a@x.com"], "location": "Room 1"},
        {"summary": "Holiday", "start": "2025-05-01"},
        {"summary": "Sync {i}", "start": "2025-01-06 10:00", "repeat": 3, "repeat_every_minutes": 60},
        {"summary": "Weekly", "start": "2025-01-06 08:00", "end": "2025-01-06 08:15",
         "recurrence": ["RRULE:FREQ=WEEKLY;COUNT=3"], "time_zone": "UTC"},
    ]}, g)
    assert c(g).calendar.calendars().get(calendarId="primary").execute()["timeZone"] == "Asia/Tokyo"
    by_title = {e["summary"]: e for e in _events(g)}
    anchor = g.services["google"]["state"]["anchor"]
    tomorrow = anchor.astimezone(ZoneInfo("Asia/Tokyo")).date() + timedelta(days=1)
    start = when.parse_event_time(by_title["Standup"]["start"])
    assert start == datetime.combine(tomorrow, datetime.min.time(), ZoneInfo("Asia/Tokyo")).replace(hour=9, minute=30)
    assert when.parse_event_time(by_title["Standup"]["end"]) - start == timedelta(hours=1)
    assert by_title["Standup"]["attendees"][0]["email"] == "a@x.com"
    assert by_title["Holiday"]["start"] == {"date": "2025-05-01"} and by_title["Holiday"]["end"] == {"date": "2025-05-02"}
    assert {"Sync 1", "Sync 2", "Sync 3"} <= set(by_title)
    assert when.parse_event_time(by_title["Sync 3"]["start"]).hour == 12
    assert by_title["Weekly"]["recurrence"] == ["RRULE:FREQ=WEEKLY;COUNT=3"]


def test_calendar_events_secondary_calendar_and_bad_time(g: StepContext) -> None:
    run_reset("google.calendar_events", {"calendar": "Gym", "events": [{"summary": "Swim", "start": "2025-05-05 07:00"}]}, g)
    cals = {e["summary"]: e["id"] for e in c(g).calendar.calendarList().list().execute()["items"]}
    assert [e["summary"] for e in _events(g, cals["Gym"])] == ["Swim"]
    with pytest.raises(ValueError, match="cannot read the time 'next blursday'"):
        lookup("reset", "google.calendar_events").validate({"events": [{"summary": "x", "start": "next blursday"}]})


def test_clear_calendar(g: StepContext) -> None:
    run_reset("google.calendar_events", {"events": [{"summary": "A", "start": "2025-01-01"}]}, g)
    run_reset("google.calendar_events", {"calendar": "Side", "events": [{"summary": "B", "start": "2025-01-01"}]}, g)
    run_reset("google.clear_calendar", {}, g)
    assert _events(g) == []
    run_reset("google.clear_calendar", {"calendar": "Side"}, g)
    side = next(e["id"] for e in c(g).calendar.calendarList().list().execute()["items"] if e["summary"] == "Side")
    assert _events(g, side) == []
    with pytest.raises(LookupError, match="no calendar 'Nope'"):
        run_reset("google.clear_calendar", {"calendar": "Nope"}, g)


def _messages(g: StepContext, q: str = "") -> list[dict]:
    gmail = c(g).gmail
    refs = gmail.users().messages().list(userId="me", q=q, maxResults=500).execute().get("messages", [])
    return [gmail.users().messages().get(userId="me", id=m["id"]).execute() for m in refs]


def test_emails_inline_labels_dates_attachments_repeat(g: StepContext) -> None:
    run_reset("google.emails", {"messages": [
        {"from": "Ann <ann@x.com>", "subject": "Report", "body": "numbers", "date": "2024-12-30 10:00",
         "labels": ["INBOX", "Work"], "attachments": [{"name": "data.csv", "content": "a,b\n"}]},
        {"subject": "News {i}", "repeat": 3},
    ]}, g)
    (report,) = _messages(g, "subject:Report")
    labels = {lab["id"]: lab["name"] for lab in c(g).gmail.users().labels().list(userId="me").execute()["labels"]}
    assert sorted(labels[x] for x in report["labelIds"]) == ["INBOX", "Work"]
    assert datetime.fromtimestamp(int(report["internalDate"]) / 1000).date() == date(2024, 12, 30)
    assert [p["filename"] for p in report["payload"]["parts"] if p.get("filename")] == ["data.csv"]
    assert len(_messages(g, "subject:News is:unread")) == 3
    assert len(_messages(g, "before:2025/01/01")) == 1


def test_emails_from_eml_fixtures(g: StepContext) -> None:
    (g.files / "mail").mkdir()
    (g.files / "mail" / "one.eml").write_bytes(
        b"From: bob@x.com\r\nTo: me@deskact.test\r\nSubject: From a file\r\nDate: Mon, 3 Feb 2025 10:00:00 +0000\r\n\r\nHi\r\n")
    run_reset("google.emails", {"eml": ["mail/*.eml"], "eml_labels": ["INBOX", "STARRED"]}, g)
    (msg,) = _messages(g, "subject:file")
    assert set(msg["labelIds"]) >= {"INBOX", "STARRED"}
    with pytest.raises(StepFailed, match=r"no \.eml fixture matches 'none/\*\.eml'"):
        run_reset("google.emails", {"eml": ["none/*.eml"]}, g)


def test_labels_and_drafts(g: StepContext) -> None:
    run_reset("google.labels", {"names": ["Projects/Alpha", "Receipts"]}, g)
    names = {lab["name"] for lab in c(g).gmail.users().labels().list(userId="me").execute()["labels"]}
    assert {"Projects/Alpha", "Receipts"} <= names
    run_reset("google.drafts", {"messages": [{"to": "x@y.com", "subject": "Draft me", "body": "later"}]}, g)
    drafts = c(g).gmail.users().drafts().list(userId="me").execute()["drafts"]
    full = c(g).gmail.users().drafts().get(userId="me", id=drafts[0]["id"]).execute()
    headers = {h["name"]: h["value"] for h in full["message"]["payload"]["headers"]}
    assert headers["Subject"] == "Draft me" and headers["From"] == "me@deskact.test" and headers["To"] == "x@y.com"


def test_drive_files_folders_content_trash_and_fixture(g: StepContext) -> None:
    (g.files / "logo.bin").write_bytes(b"\x00\x01binary")
    run_reset("google.drive_files", {"files": [
        {"name": "notes.txt", "parent": "Work/2025", "content": "hello"},
        {"name": "old.txt", "content": "bye", "trashed": True},
        {"name": "logo.bin", "src": "logo.bin", "mime_type": "application/octet-stream"},
        {"name": "f{i}.txt", "content": "n{i}", "repeat": 3},
        {"name": "Empty doc", "mime_type": "document"},
    ]}, g)
    drive = c(g).drive
    files = {f["name"]: f for f in drive.files().list(q="trashed = false", pageSize=100,
                                                      fields="files(id, name, parents, mimeType)").execute()["files"]}
    assert files["notes.txt"]["parents"] == [files["2025"]["id"]] and files["2025"]["parents"] == [files["Work"]["id"]]
    assert drive.files().get_media(fileId=files["notes.txt"]["id"]).execute() == b"hello"
    assert drive.files().get_media(fileId=files["logo.bin"]["id"]).execute() == b"\x00\x01binary"
    assert drive.files().get_media(fileId=files["f2.txt"]["id"]).execute() == b"n2"
    assert files["Empty doc"]["mimeType"] == "application/vnd.google-apps.document"
    assert "old.txt" not in files
    with pytest.raises(StepFailed, match="fixture 'missing.bin' not found"):
        run_reset("google.drive_files", {"files": [{"name": "x", "src": "missing.bin"}]}, g)


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


def test_relative_time_resolver() -> None:
    anchor = datetime(2025, 3, 5, 23, 30, tzinfo=ZoneInfo("UTC"))  # a Wednesday; already the 6th in Tokyo
    assert when.resolve("tomorrow", "UTC", anchor) == date(2025, 3, 6)
    assert when.resolve("tomorrow", "Asia/Tokyo", anchor) == date(2025, 3, 7)
    assert when.resolve("wednesday 10:00", "UTC", anchor) == datetime(2025, 3, 12, 10, 0, tzinfo=ZoneInfo("UTC"))
    assert when.resolve("-2d", "UTC", anchor) == date(2025, 3, 3)
    assert when.resolve("2025-06-10T09:00:00+09:00", "UTC") == datetime(2025, 6, 10, 0, 0, tzinfo=ZoneInfo("UTC"))
    assert not when.same_time(date(2025, 1, 1), datetime(2025, 1, 1, tzinfo=ZoneInfo("UTC")))
