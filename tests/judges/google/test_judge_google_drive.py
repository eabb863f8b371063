"""google.drive_file and drive_permission on the emulator (drive_permission in one test with
sheet_format)."""

from __future__ import annotations

from typing import Any

from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge, run_reset


def c(g: StepContext) -> Any:
    return g.services["google"]["clients"]


def ok(name: str, params: dict[str, Any], g: StepContext) -> Verdict:
    v = run_judge(name, params, g)
    assert v.passed and not v.error, v.feedback
    return v


def bad(name: str, params: dict[str, Any], g: StepContext, *expected: str) -> Verdict:
    v = run_judge(name, params, g)
    assert not v.passed and not v.error, v.feedback
    for text in expected:
        assert text in v.feedback, v.feedback
    return v


def j(judge_name: str, g: StepContext, **params: object) -> Verdict:
    v = run_judge(judge_name, params, g)
    assert not v.error, v.feedback
    return v


def test_drive_file(g: StepContext) -> None:
    run_reset("google.drive_files", {"files": [
        {"name": "notes.txt", "parent": "Work/2025", "content": "Hello, Drive!"},
        {"name": "old.txt", "content": "bye", "trashed": True},
        {"name": "Clients", "mime_type": "folder"}]}, g)
    run_reset("google.spreadsheet", {"title": "Budget", "sheets": {"Data": [["a", "b"], [1, 2]]}}, g)
    ok("google.drive_file", {"name": "notes.txt", "parent": "Work/2025", "content_equals": "Hello, Drive!", "count": 1}, g)
    ok("google.drive_file", {"name": "Budget", "mime_type": "spreadsheet", "content_contains": "a,b"}, g)
    ok("google.drive_file", {"name": "Clients", "parent": "", "mime_type": "folder"}, g)
    ok("google.drive_file", {"name": "old.txt", "trashed": True}, g)
    ok("google.drive_file", {"name": "old.txt", "exists": False}, g)
    ok("google.drive_file", {"name": "x", "parent": "Nope", "exists": False}, g)
    bad("google.drive_file", {"name": "notes.txt", "content_contains": ["Goodbye"]}, g,
        "should contain ['Goodbye'] but holds 'Hello, Drive!'")
    bad("google.drive_file", {"name": "notes.txt", "parent": "Work"}, g,
        "'notes.txt' exists but not as expected", "wanted in folder 'Work'")
    bad("google.drive_file", {"name": "notes.txt", "parent": "Home"}, g, "folder 'Home' does not exist")
    bad("google.drive_file", {"name": "note.txt"}, g, "no file named 'note.txt'", "'notes.txt'")
    bad("google.drive_file", {"name": "notes.txt", "exists": False}, g, "1 file(s) named 'notes.txt'", "still exist")
    bad("google.drive_file", {"name": "notes.txt", "count": 2}, g, "1 files are named 'notes.txt', expected 2")


def test_sheet_format_and_drive_permission(g: StepContext) -> None:
    run_reset("google.spreadsheet", {"title": "Budget", "sheets": {"Plan": [["Item", "Cost"], ["Rent", 1200]]}}, g)
    sid = c(g).drive.files().list(q="name = 'Budget'").execute()["files"][0]["id"]
    sheet_id = c(g).sheets.spreadsheets().get(spreadsheetId=sid).execute()["sheets"][0]["properties"]["sheetId"]
    c(g).sheets.spreadsheets().batchUpdate(spreadsheetId=sid, body={"requests": [{"repeatCell": {
        "range": {"sheetId": sheet_id, "startRowIndex": 0, "endRowIndex": 1, "startColumnIndex": 0, "endColumnIndex": 2},
        "cell": {"userEnteredFormat": {"textFormat": {"bold": True}, "backgroundColor": {"red": 1, "green": 1, "blue": 0}}},
        "fields": "userEnteredFormat(textFormat,backgroundColor)"}}]}).execute()
    assert j("google.sheet_format", g, spreadsheet="Budget", range="Plan!A1:B1", bold=True, background="FFFF00").passed
    v = j("google.sheet_format", g, spreadsheet="Budget", range="Plan!A1:B2", bold=True)  # row 2 is not bold
    assert not v.passed and "cell 2,1" in v.feedback
    assert not j("google.sheet_format", g, spreadsheet="Budget", range="Plan!A1:B1", background="00FF00").passed
    c(g).drive.permissions().create(fileId=sid, body={"type": "user", "role": "reader",
                                                       "emailAddress": "ann@example.com"}).execute()
    assert j("google.drive_permission", g, name="Budget", email="ann@example.com", role="reader").passed
    v = j("google.drive_permission", g, name="Budget", email="ann@example.com", role="writer")
    assert not v.passed and "as reader, not writer" in v.feedback
    assert not j("google.drive_permission", g, name="Budget", email="bob@example.com").passed
    assert j("google.drive_permission", g, name="Budget", type="anyone", exists=False).passed
    assert not j("google.drive_permission", g, name="Budget", email="ann@example.com", exists=False).passed
