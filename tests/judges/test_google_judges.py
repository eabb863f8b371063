"""google.* judges: a passing and a failing case each, with the failure feedback asserted."""

from __future__ import annotations

from typing import Any

from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge, run_reset
from deskact.toolkits.google.api import message_fields


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


def _send(g: StepContext, to: str, subject: str, body: str, cc: str = "", attach: bool = False) -> None:
    import base64
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["To"], msg["Subject"] = to, subject
    if cc:
        msg["Cc"] = cc
    msg.set_content(body)
    if attach:
        msg.add_attachment(b"x", maintype="text", subtype="plain", filename="notes.txt")
    c(g).gmail.users().messages().send(userId="me", body={"raw": base64.urlsafe_b64encode(msg.as_bytes()).decode()}).execute()


# --- Calendar ------------------------------------------------------------------------


def test_event_exists(g: StepContext) -> None:
    run_reset("google.calendar_events", {"time_zone": "Europe/Berlin", "events": [
        {"summary": "Design review", "start": "tomorrow 14:00", "attendees": ["ann@x.com"], "location": "Room 4",
         "description": "Bring the mockups"},
        {"summary": "Standup", "start": "2025-09-01 09:30", "end": "2025-09-01 09:45",
         "recurrence": ["RRULE:FREQ=WEEKLY;COUNT=10"]},
        {"summary": "Offsite", "start": "2025-04-17", "end": "2025-04-19"}]}, g)
    ok("google.event_exists", {"summary": "design REVIEW", "start": "tomorrow 14:00", "end": "tomorrow 15:00",
                               "attendees": ["Ann@x.com"], "location": "room 4", "description_contains": "mockups"}, g)
    ok("google.event_exists", {"summary": "Standup", "start": "2025-09-01T07:30:00Z", "recurrence": "FREQ=WEEKLY",
                               "count": 1}, g)
    ok("google.event_exists", {"summary": "Offsite", "start": "2025-04-17", "end": "2025-04-19"}, g)
    bad("google.event_exists", {"summary": "Design review", "start": "tomorrow 15:00"}, g,
        "exists but starts", "14:00 +0", "instead of", "15:00 +0")
    bad("google.event_exists", {"summary": "Design review", "attendees": ["bob@x.com"]}, g,
        "lacks attendees ['bob@x.com'] (has ['ann@x.com'])")
    bad("google.event_exists", {"summary": "Design review", "location": "Room 5"}, g,
        "has location 'Room 4' instead of 'Room 5'")
    bad("google.event_exists", {"summary": "Standup", "recurrence": "FREQ=DAILY"}, g, "has recurrence")
    bad("google.event_exists", {"summary": "Offsite", "start": "2025-04-17 00:00"}, g, "2025-04-17 (all day)")
    bad("google.event_exists", {"summary": "Design reveiw"}, g,
        "no event titled 'Design reveiw'", "events found: 'Design review'")
    bad("google.event_exists", {"summary": "Offsite", "count": 2}, g, "1 events are titled 'Offsite'", "expected 2")
    bad("google.event_exists", {"summary": "X", "calendar": "Nope"}, g, "no calendar 'Nope'")


def test_event_absent(g: StepContext) -> None:
    run_reset("google.calendar_events", {"events": [{"summary": "Old sync", "start": "2025-02-03 10:00"}]}, g)
    ok("google.event_absent", {"summary": "New sync"}, g)
    ok("google.event_absent", {"summary": "Old sync", "start": "2025-02-04 10:00"}, g)
    bad("google.event_absent", {"summary": "old sync"}, g, "1 event(s) titled 'old sync' still in calendar",
        "2025-02-03 10:00")


# --- Gmail ------------------------------------------------------------------------


def test_email_sent(g: StepContext) -> None:
    run_reset("google.drive_files", {"files": [{"name": "Plan", "mime_type": "document"}]}, g)
    link = c(g).drive.files().list(q="name = 'Plan'", fields="files(webViewLink)").execute()["files"][0]["webViewLink"]
    _send(g, "Ann <ann@x.com>, bob@x.com", "Lunch on Friday?", f"Free at noon? {link}", cc="cleo@x.com", attach=True)
    ok("google.email_sent", {"to": ["ann@x.com", "BOB@x.com"], "cc": "cleo@x.com", "subject_contains": "lunch",
                             "body_contains": ["noon"], "attachment": "notes.txt", "link_to": "Plan", "count": 1}, g)
    bad("google.email_sent", {"to": "dan@x.com"}, g,
        "none of the 1 sent messages matches", "is addressed to ['ann@x.com', 'bob@x.com'] instead of ['dan@x.com']")
    bad("google.email_sent", {"to": "ann@x.com", "body_contains": "midnight"}, g, "has a body without 'midnight'")
    bad("google.email_sent", {"to": "ann@x.com", "subject_contains": "Dinner"}, g,
        "has subject 'Lunch on Friday?' (without 'Dinner')")
    bad("google.email_sent", {"to": "ann@x.com", "count": 2}, g, "1 sent messages match, expected 2")
    bad("google.email_sent", {"to": "ann@x.com", "link_to": "Nope"}, g, "needs the Drive file 'Nope'")


def test_email_sent_only_to_and_excluded_texts(g: StepContext) -> None:
    run_reset("google.drive_files", {"files": [{"name": "Q2", "mime_type": "document"},
                                               {"name": "Q3", "mime_type": "document"}]}, g)
    links = {f["name"]: f["webViewLink"] for f in
             c(g).drive.files().list(fields="files(name,webViewLink)").execute()["files"]}
    _send(g, "team@x.com, boss@x.com", "Plans", f"New: {links['Q3']} old: {links['Q2']}")
    ok("google.email_sent", {"to": "team@x.com", "link_to": "Q3"}, g)
    bad("google.email_sent", {"to": "team@x.com", "only_to": True}, g, "is also addressed to ['boss@x.com']")
    bad("google.email_sent", {"to": "team@x.com", "link_to": "Q3", "not_link_to": "Q2"}, g,
        "has a body that should not contain 'http")
    bad("google.email_sent", {"to": "team@x.com", "body_excludes": "old:"}, g,
        "has a body that should not contain 'old:'")


def test_sheet_tabs(g: StepContext) -> None:
    run_reset("google.spreadsheet", {"title": "Inv", "sheets": {"2025": [["a"]], "Copy": [["a"]]}}, g)
    ok("google.sheet_tabs", {"spreadsheet": "Inv", "names": ["2025", "Copy"]}, g)
    bad("google.sheet_tabs", {"spreadsheet": "Inv", "names": ["2025"]}, g,
        "'Inv' should have the tabs ['2025'] but has ['2025', 'Copy']")


def test_email_sent_with_nothing_sent(g: StepContext) -> None:
    run_reset("google.emails", {"messages": [{"subject": "Inbox only"}]}, g)
    bad("google.email_sent", {"to": "ann@x.com"}, g, "there are no sent messages")


def test_draft_exists(g: StepContext) -> None:
    run_reset("google.drafts", {"messages": [{"to": "boss@x.com", "subject": "Vacation request", "body": "4 August"}]}, g)
    ok("google.draft_exists", {"to": "boss@x.com", "subject_contains": "vacation", "body_contains": ["4 august"]}, g)
    bad("google.draft_exists", {"to": "boss@x.com", "body_contains": "9 August"}, g,
        "none of the 1 drafts matches", "has a body without '9 August'")
    run_reset("google.reset", {}, g)
    bad("google.draft_exists", {"to": "boss@x.com"}, g, "there are no drafts")


def test_label_applied(g: StepContext) -> None:
    run_reset("google.emails", {"messages": [
        {"from": "receipts@shop.example", "subject": "Receipt {i}", "labels": ["INBOX", "Receipts"], "repeat": 2},
        {"from": "friend@x.com", "subject": "Hello", "labels": ["INBOX"]}]}, g)
    ok("google.label_applied", {"label": "Receipts", "from_contains": "receipts@shop", "only": True}, g)
    ok("google.label_applied", {"label": "INBOX", "subject_contains": "hello"}, g)
    bad("google.label_applied", {"label": "Receipts", "subject_contains": "Hello"}, g,
        "1 of 1 selected messages lack label 'Receipts'", "('Hello', ['INBOX'])")
    bad("google.label_applied", {"label": "INBOX", "subject_contains": "Receipt", "only": True}, g,
        "label 'INBOX' is also on 1 other message(s)", "'Hello'")
    bad("google.label_applied", {"label": "Recipts", "subject_contains": "x"}, g,
        "there is no label 'Recipts'", "'Receipts'")
    bad("google.label_applied", {"label": "Receipts", "subject_contains": "Invoice"}, g, "selection is empty")


def test_email_state(g: StepContext) -> None:
    run_reset("google.emails", {"messages": [{"from": "news@x.com", "subject": "Digest"},
                                             {"from": "boss@x.com", "subject": "Review", "labels": ["INBOX", "Work"]}]}, g)
    ok("google.email_state", {"subject_contains": "digest", "has_labels": ["INBOX", "unread"]}, g)
    ok("google.email_state", {"from_contains": "boss@", "has_labels": ["work"], "lacks_labels": ["UNREAD", "TRASH"]}, g)
    bad("google.email_state", {"subject_contains": "Digest", "lacks_labels": ["UNREAD"]}, g,
        "message 'Digest' still has ['UNREAD']", "its labels: ['INBOX', 'UNREAD']")
    bad("google.email_state", {"subject_contains": "Review", "has_labels": ["STARRED"]}, g,
        "message 'Review' lacks ['STARRED']", "'Work'")
    bad("google.email_state", {"subject_contains": "Nothing"}, g, "no message has a subject containing 'Nothing'")
    msg = c(g).gmail.users().messages().list(userId="me", q="subject:Digest").execute()["messages"][0]
    c(g).gmail.users().messages().trash(userId="me", id=msg["id"]).execute()
    ok("google.email_state", {"subject_contains": "Digest", "has_labels": ["TRASH"]}, g)
    full = c(g).gmail.users().messages().get(userId="me", id=msg["id"]).execute()
    assert message_fields(full)["subject"] == "Digest"


# --- Drive ----------------------------------------------------------------------


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


# --- Sheets / Docs / Slides / Forms ------------------------------------------------------


def test_sheet_range(g: StepContext) -> None:
    run_reset("google.spreadsheet", {"title": "Sales", "sheets": {"Q1": [["Region", "Amount"], ["North", 1200],
                                                                        ["South", "=B2/2"], ["", ""]]}}, g)
    ok("google.sheet_range", {"spreadsheet": "Sales", "range": "Q1!A1:B5",
                              "equals": [["Region", "Amount"], ["North", 1200.0], ["South", 600]]}, g)
    ok("google.sheet_range", {"spreadsheet": "Sales", "range": "Q1!A2:B3", "any_order": True,
                              "equals": [["South", "600"], ["North", 1200]]}, g)
    ok("google.sheet_range", {"spreadsheet": "Sales", "range": "Q1!B2", "formatted": True, "equals": [["1200"]]}, g)
    bad("google.sheet_range", {"spreadsheet": "Sales", "range": "Q1!A2:B2", "equals": [["North", 1300]]}, g,
        "'Sales'!Q1!A2:B2 should be [['North', 1300]] but it holds [['North', 1200]]")
    bad("google.sheet_range", {"spreadsheet": "Sales", "range": "Q2!A1", "equals": [["x"]]}, g,
        "range 'Q2!A1' cannot be read", "tabs: ['Q1']")
    bad("google.sheet_range", {"spreadsheet": "Sale", "range": "A1", "equals": [["x"]]}, g,
        "no spreadsheet titled 'Sale'", "'Sales'")


def test_doc_contains(g: StepContext) -> None:
    run_reset("google.document", {"title": "Plan", "paragraphs": ["Project plan", "Deadline: 30 June"],
                                  "bold": ["Deadline"]}, g)
    doc_id = c(g).drive.files().list(q="name = 'Plan'").execute()["files"][0]["id"]
    c(g).docs.documents().batchUpdate(documentId=doc_id, body={"requests": [{"updateParagraphStyle": {
        "range": {"startIndex": 1, "endIndex": 13}, "paragraphStyle": {"namedStyleType": "HEADING_1"},
        "fields": "namedStyleType"}}]}).execute()
    ok("google.doc_contains", {"title": "Plan", "text": "Deadline", "bold": True}, g)
    ok("google.doc_contains", {"title": doc_id, "text": "Project plan\nDeadline", "heading": None}, g)
    ok("google.doc_contains", {"title": "Plan", "text": "Project plan", "heading": "HEADING_1", "bold": False}, g)
    ok("google.doc_contains", {"title": "Plan", "text": "July", "absent": True}, g)
    bad("google.doc_contains", {"title": "Plan", "text": "30 June", "bold": True}, g, "document 'Plan': '30 June' is not bold")
    bad("google.doc_contains", {"title": "Plan", "text": "Deadline", "heading": "HEADING_1"}, g,
        "is in a ['NORMAL_TEXT'] paragraph, not HEADING_1")
    bad("google.doc_contains", {"title": "Plan", "text": "July"}, g, "does not contain 'July'", "Project plan")
    bad("google.doc_contains", {"title": "Plan", "text": "June", "absent": True}, g, "still contains 'June'")
    bad("google.doc_contains", {"title": "Plans", "text": "x"}, g, "no document titled 'Plans'", "'Plan'")


def test_slide_title(g: StepContext) -> None:
    run_reset("google.presentation", {"title": "Deck", "slides": [{"title": "Intro", "body": "hi"}, {"title": "End"}]}, g)
    ok("google.slide_title", {"presentation": "Deck", "index": 1, "title": "End", "slide_count": 2}, g)
    ok("google.slide_title", {"presentation": "Deck", "title": "Intro"}, g)
    bad("google.slide_title", {"presentation": "Deck", "index": 0, "title": "End"}, g,
        "slide 0 is not titled 'End': slide titles are ['Intro', 'End']")
    bad("google.slide_title", {"presentation": "Deck", "index": 0, "title": "Intro", "slide_count": 3}, g,
        "has 2 slides, expected 3")
    bad("google.slide_title", {"presentation": "Deck", "index": 5, "title": "Intro"}, g, "slide 5 is not titled")
    bad("google.slide_title", {"presentation": "Dek", "title": "x"}, g, "no presentation titled 'Dek'")


def test_form_question(g: StepContext) -> None:
    run_reset("google.form", {"title": "RSVP", "questions": [
        {"title": "Name", "required": True}, {"title": "Notes", "kind": "paragraph"},
        {"title": "Diet", "kind": "checkbox", "options": ["Vegan", "None"]}]}, g)
    ok("google.form_question", {"form": "RSVP", "title": "name", "kind": "text", "required": True}, g)
    ok("google.form_question", {"form": "RSVP", "title": "Notes", "kind": "paragraph"}, g)
    ok("google.form_question", {"form": "RSVP", "title": "Diet", "kind": "checkbox", "options": ["None", "Vegan"]}, g)
    bad("google.form_question", {"form": "RSVP", "title": "Diet", "kind": "radio"}, g,
        "question 'Diet' is a choiceQuestion CHECKBOX, not a radio question")
    bad("google.form_question", {"form": "RSVP", "title": "Name", "kind": "paragraph"}, g, "not a paragraph question")
    bad("google.form_question", {"form": "RSVP", "title": "Diet", "options": ["Vegan"]}, g,
        "has options ['Vegan', 'None'] instead of ['Vegan']")
    bad("google.form_question", {"form": "RSVP", "title": "Notes", "required": True}, g, "is not required")
    bad("google.form_question", {"form": "RSVP", "title": "Dietary"}, g, "has no question 'Dietary'", "'Diet'")
    bad("google.form_question", {"form": "RSPV", "title": "x"}, g, "no form titled 'RSPV'")
