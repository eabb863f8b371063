"""google.event_match and google.message_match on the emulator: AgentStudio's Calendar and Gmail
evaluators' semantics (calendar_evaluator.event_match, gmail_evaluator.message_match, read from
its public source) as table-driven cases: the right state passes, each near miss fails."""

from __future__ import annotations

import base64
from email.message import EmailMessage
from typing import Any

import pytest
from deskact.runtime.tasks.steps import StepContext, run_judge, run_reset

PARTY: dict[str, Any] = {"summary": "End of Year Party", "start": {"dateTime": "2024-12-20T18:00:00Z"},
         "end": {"dateTime": "2024-12-20T23:00:00Z"}}
RECURRING = {**PARTY, "start": {"dateTime": "2024-12-20T18:00:00Z", "timeZone": "UTC"},
             "end": {"dateTime": "2024-12-20T23:00:00Z", "timeZone": "UTC"}}
WANT = {"summary": "End of Year Party", "start": "2024-12-20T18:00:00Z", "end": "2024-12-20T23:00:00Z"}

# (event in the calendar, judge params beyond WANT, passes?)
EVENT_CASES: list[tuple[dict[str, Any], dict[str, Any], bool]] = [
    (PARTY, {}, True),
    (PARTY, {"color_id": "11"}, False),  # calendar-ab0b454a: the colour is not set yet
    ({**PARTY, "colorId": "11"}, {"color_id": "11"}, True),
    ({**PARTY, "colorId": "5"}, {"color_id": "11"}, False),
    ({**PARTY, "summary": "end of year party"}, {}, False),  # exact, case counts
    ({**PARTY, "start": {"dateTime": "2024-12-20T19:00:00+01:00"}}, {}, True),  # the same instant
    ({**PARTY, "end": {"dateTime": "2024-12-20T22:00:00Z"}}, {}, False),
    ({**PARTY, "start": {"date": "2024-12-20"}, "end": {"date": "2024-12-21"}}, {}, False),  # all-day
    ({**PARTY, "description": "Bring snacks"}, {"description": "Bring snacks"}, True),
    ({**PARTY, "description": "Bring snacks!"}, {"description": "Bring snacks"}, False),
    ({**PARTY, "location": "Hall"}, {"location": "hall"}, False),
    ({**PARTY, "attendees": [{"email": "ceo@example.com"}]}, {"attendees": ["ceo@example.com"]}, True),
    ({**PARTY, "attendees": [{"email": "ceo@example.com"}, {"email": "x@example.com"}]},
     {"attendees": ["ceo@example.com"]}, False),  # the same set, not at least
    ({**PARTY, "reminders": {"useDefault": False, "overrides": [{"method": "popup", "minutes": 30}]}},
     {"reminders": ["popup:30"], "reminders_use_default": False}, True),
    ({**PARTY, "reminders": {"useDefault": False, "overrides": [{"method": "email", "minutes": 30}]}},
     {"reminders": ["popup:30"], "reminders_use_default": False}, False),
    (PARTY, {"reminders": ["popup:30"], "reminders_use_default": False}, False),  # default reminders
    ({**RECURRING, "recurrence": ["RRULE:FREQ=WEEKLY"]}, {"recurrence": ["RRULE:FREQ=WEEKLY"]}, True),
    ({**RECURRING, "recurrence": ["RRULE:FREQ=DAILY"]}, {"recurrence": ["RRULE:FREQ=WEEKLY"]}, False),
]


@pytest.mark.parametrize(("event", "extra", "passes"), EVENT_CASES)
def test_event_match(g: StepContext, event: dict[str, Any], extra: dict[str, Any], passes: bool) -> None:
    g.services["google"]["clients"].calendar.events().insert(calendarId="primary", body=event).execute()
    v = run_judge("google.event_match", {**WANT, **extra}, g)
    assert not v.error and v.passed is passes, v.feedback
    gone = run_judge("google.event_match", {**WANT, **extra, "exists": False}, g)
    assert gone.passed is not passes, gone.feedback


def _send(g: StepContext, subject: str, body: str, to: str = "recipient@example.com", cc: str = "",
          attach: str = "", draft: bool = False) -> str:
    msg = EmailMessage()
    msg["To"], msg["Subject"] = to, subject
    if cc:
        msg["Cc"] = cc
    msg.set_content(body)
    if attach:
        msg.add_attachment(b"x", maintype="text", subtype="plain", filename=attach)
    raw = base64.urlsafe_b64encode(msg.as_bytes()).decode()
    gmail = g.services["google"]["clients"].gmail.users()
    if draft:
        return gmail.drafts().create(userId="me", body={"message": {"raw": raw}}).execute()["message"]["id"]
    return gmail.messages().send(userId="me", body={"raw": raw}).execute()["id"]


DRAFT = {"subject": "Automated draft", "recipient": "gduser@workspacesamples.dev",
         "body": "This is automated draft mail", "attachment": "attachment.txt", "cc": "gduser1@workspacesamples.dev"}

# (mail: subject, body, to, cc, attachment; judge params; passes?)
MAIL_CASES: list[tuple[dict[str, Any], dict[str, Any], bool]] = [
    # gmail-76406d27: a draft with cc and attachment, each required
    ({"subject": "Automated draft", "body": "This is automated draft mail\n", "to": "gduser@workspacesamples.dev",
      "cc": "gduser1@workspacesamples.dev", "attach": "attachment.txt", "draft": True}, {**DRAFT, "source": "drafts"}, True),
    ({"subject": "Automated draft", "body": "This is automated draft mail", "to": "gduser@workspacesamples.dev",
      "attach": "attachment.txt", "draft": True}, {**DRAFT, "source": "drafts"}, False),  # no cc
    ({"subject": "Automated draft", "body": "This is automated draft mail", "to": "gduser@workspacesamples.dev",
      "cc": "gduser1@workspacesamples.dev", "draft": True}, {**DRAFT, "source": "drafts"}, False),  # no attachment
    ({"subject": "Automated draft", "body": "This is automated draft mail", "to": "gduser@workspacesamples.dev",
      "cc": "gduser1@workspacesamples.dev", "attach": "attachment.txt"}, {**DRAFT, "source": "drafts"}, False),  # sent
    # exact, not contained: gmail-64fc9208
    ({"subject": "Automated Email", "body": "This is automatically sent email"},
     {"subject": "Automated Email", "body": "This is automatically sent email"}, True),
    ({"subject": "Automated Email!", "body": "This is automatically sent email"},
     {"subject": "Automated Email", "body": "This is automatically sent email"}, False),
    ({"subject": "Automated Email", "body": "This is automatically sent email. Regards"},
     {"subject": "Automated Email", "body": "This is automatically sent email"}, False),
    ({"subject": "Automated Email", "body": "x", "to": "Bob <recipient@example.com>"},
     {"subject": "Automated Email", "recipient": "recipient@example.com"}, True),
    ({"subject": "Automated Email", "body": "x", "to": "other@example.com"},
     {"subject": "Automated Email", "recipient": "recipient@example.com"}, False),
    # "in": a sent mail is not in the drafts and a draft is not among the sent
    ({"subject": "Automated draft", "body": "b"}, {"subject": "Automated draft", "folder": "sent"}, True),
    ({"subject": "Automated draft", "body": "b", "draft": True}, {"subject": "Automated draft", "folder": "sent"}, False),
    ({"subject": "Automated draft", "body": "b"}, {"subject": "Automated draft", "folder": "draft"}, False),
    ({"subject": "Automated draft", "body": "b", "draft": True}, {"subject": "Automated draft", "folder": "draft"}, True),
]


@pytest.mark.parametrize(("mail", "params", "passes"), MAIL_CASES)
def test_message_match(g: StepContext, mail: dict[str, Any], params: dict[str, Any], passes: bool) -> None:
    _send(g, **mail)
    v = run_judge("google.message_match", params, g)
    assert not v.error and v.passed is passes, v.feedback


def test_gmail_729b3221_sent_draft_is_possible_and_needed(g: StepContext) -> None:
    """Both judges of gmail-729b3221 ("send the most recent draft") agree once the draft is sent."""
    sent = {"subject": "Automated draft", "body": "This is automated draft mail", "recipient": "recipient@example.com"}
    _send(g, "Automated draft", "This is automated draft mail", draft=True)
    judges = [{**sent, "folder": "sent"}, {**sent, "folder": "draft", "exists": False}]
    assert [run_judge("google.message_match", j, g).passed for j in judges] == [False, False]
    gmail = g.services["google"]["clients"].gmail.users()
    draft_id = gmail.drafts().list(userId="me").execute()["drafts"][0]["id"]
    gmail.drafts().send(userId="me", body={"id": draft_id}).execute()
    assert [run_judge("google.message_match", j, g).passed for j in judges] == [True, True]


def test_message_label_and_trash(g: StepContext) -> None:
    mid = _send(g, "Meeting reminder", "conference call")
    in_trash = {"subject": "Meeting reminder", "include_trash": True, "label": "TRASH"}
    assert not run_judge("google.message_match", in_trash, g).passed
    assert run_judge("google.message_match", {**in_trash, "labelled": False}, g).passed
    g.services["google"]["clients"].gmail.users().messages().trash(userId="me", id=mid).execute()
    assert run_judge("google.message_match", in_trash, g).passed
    # outside the trash search the trashed mail is gone: "delete" passes by trashing, as in AgentStudio
    assert run_judge("google.message_match", {"subject": "Meeting reminder", "exists": False}, g).passed
    # no mail at all: in_trash fails (AgentStudio raises), important with exists null passes
    assert not run_judge("google.message_match", {"subject": "Nothing", "include_trash": True, "label": "TRASH"}, g).passed
    assert run_judge("google.message_match", {"subject": "Nothing", "exists": None, "label": "IMPORTANT"}, g).passed


def test_label_exists(g: StepContext) -> None:
    assert not run_judge("google.label_exists", {"name": "Benchmarking Agent"}, g).passed
    assert run_judge("google.label_exists", {"name": "Benchmarking Agent", "exists": False}, g).passed
    run_reset("google.labels", {"names": ["Benchmarking Agent"]}, g)
    assert run_judge("google.label_exists", {"name": "benchmarking agent"}, g).passed  # case-insensitive
    assert not run_judge("google.label_exists", {"name": "Benchmarking Agent", "exists": False}, g).passed


def test_text_format(g: StepContext) -> None:
    run_reset("google.document", {"title": "Formatting Guide", "paragraphs": ["This is an important note."]}, g)
    docs = g.services["google"]["clients"].docs.documents()
    doc_id = g.services["google"]["clients"].drive.files().list(q="name = 'Formatting Guide'").execute()["files"][0]["id"]
    want = {"title": "Formatting Guide", "text": "important note", "font": "Arial", "size": 14}
    default = run_judge("google.text_format", want, g)
    assert not default.passed and "pt, not 14" in default.feedback, default.feedback  # Arial 11 by default
    text = docs.get(documentId=doc_id).execute()["body"]["content"][-1]["paragraph"]["elements"][0]["textRun"]["content"]
    start = 1 + text.index("important note")
    docs.batchUpdate(documentId=doc_id, body={"requests": [{"updateTextStyle": {
        "range": {"startIndex": start, "endIndex": start + len("important note")},
        "textStyle": {"fontSize": {"magnitude": 14, "unit": "PT"}}, "fields": "fontSize"}}]}).execute()
    assert run_judge("google.text_format", want, g).passed
    assert not run_judge("google.text_format", {**want, "font": "Times New Roman"}, g).passed
    assert not run_judge("google.text_format", {**want, "text": "absent words"}, g).passed
    assert not run_judge("google.text_format", {**want, "title": "Other"}, g).passed
