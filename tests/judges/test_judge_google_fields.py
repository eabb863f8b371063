"""google.event_fields, mail_fields, doc_link, doc_outline, sheet_format, drive_permission on the emulator."""

from __future__ import annotations

import base64
from email.message import EmailMessage
from typing import Any

from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge, run_reset


def j(judge_name: str, g: StepContext, **params: object) -> Verdict:
    v = run_judge(judge_name, params, g)
    assert not v.error, v.feedback
    return v


def c(g: StepContext) -> Any:
    return g.services["google"]["clients"]


def test_event_reminders_attendees_and_recurrence(g: StepContext) -> None:
    c(g).calendar.events().insert(calendarId="primary", body={
        "summary": "Standup", "start": {"dateTime": "2025-09-01T09:30:00", "timeZone": "UTC"},
        "end": {"dateTime": "2025-09-01T09:45:00", "timeZone": "UTC"},
        "attendees": [{"email": "ann@example.com"}, {"email": "Bob@example.com"}],
        "reminders": {"useDefault": False, "overrides": [{"method": "popup", "minutes": 10}]},
        "recurrence": ["RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=10"]}).execute()
    v = j("google.event_fields", g, summary="standup", attendees=["bob@example.com", "ann@example.com"],
          reminders=["popup:10"], recurrence=["RRULE:FREQ=WEEKLY;COUNT=10;BYDAY=MO"])
    assert v.passed, v.feedback
    assert j("google.event_fields", g, summary="Standup", attendees_at_least=["ann@example.com"]).passed
    v = j("google.event_fields", g, summary="Standup", attendees=["ann@example.com"])  # one attendee too many
    assert not v.passed and "not exactly ['ann@example.com']" in v.feedback
    assert not j("google.event_fields", g, summary="Standup", reminders=["popup:30"]).passed
    assert not j("google.event_fields", g, summary="Standup", reminders=["default"]).passed
    v = j("google.event_fields", g, summary="Standup", recurrence=["RRULE:FREQ=WEEKLY;BYDAY=MO"])
    assert not v.passed and "COUNT=10" in v.feedback
    assert "no event titled 'Retro'" in j("google.event_fields", g, summary="Retro", attendees=[]).feedback


def _raw(subject: str, to: str, cc: str = "", bcc: str = "", attach: dict[str, tuple[bytes, str]] | None = None) -> str:
    msg = EmailMessage()
    msg["To"], msg["Subject"] = to, subject
    if cc:
        msg["Cc"] = cc
    if bcc:
        msg["Bcc"] = bcc
    msg.set_content("see attached")
    for name, (data, mime) in (attach or {}).items():
        main, sub = mime.split("/")
        msg.add_attachment(data, maintype=main, subtype=sub, filename=name)
    return base64.urlsafe_b64encode(msg.as_bytes()).decode()


def test_mail_cc_bcc_and_attachments(g: StepContext) -> None:
    users = c(g).gmail.users()
    users.messages().send(userId="me", body={"raw": _raw(
        "Q3 report", "boss@example.com", cc="ann@example.com", bcc="audit@example.com",
        attach={"report.pdf": (b"%PDF-1.4", "application/pdf")})}).execute()
    users.drafts().create(userId="me", body={"message": {"raw": _raw("Invoice", "client@example.com")}}).execute()
    v = j("google.mail_fields", g, subject_contains="q3", to=["boss@example.com"], cc=["ann@example.com"],
          bcc=["audit@example.com"], attachments=["report.pdf"], attachment_types={"report.pdf": "application/pdf"})
    assert v.passed, v.feedback
    v = j("google.mail_fields", g, subject_contains="Q3", cc=["bob@example.com"])
    assert not v.passed and "cc ['ann@example.com']" in v.feedback
    assert not j("google.mail_fields", g, subject_contains="Q3", bcc=[]).passed
    v = j("google.mail_fields", g, subject_contains="Q3", attachments=["report.pdf", "data.csv"])
    assert not v.passed and "attachments ['report.pdf']" in v.feedback  # a missing attachment
    assert not j("google.mail_fields", g, subject_contains="Q3", attachment_types={"report.pdf": "text/plain"}).passed
    assert j("google.mail_fields", g, subject_contains="Invoice", folder="draft", attachments=[], cc=[]).passed
    assert not j("google.mail_fields", g, subject_contains="Invoice", attachments=[]).passed  # a draft, not sent


def test_doc_link_and_outline(g: StepContext) -> None:
    run_reset("google.document", {"title": "Guide", "paragraphs": ["Guide", "Read the manual first.", "Costs"]}, g)
    doc_id = c(g).drive.files().list(q="name = 'Guide'").execute()["files"][0]["id"]
    text = "".join(r["textRun"]["content"] for el in c(g).docs.documents().get(documentId=doc_id).execute()["body"]["content"]
                   if "paragraph" in el for r in el["paragraph"]["elements"])
    start = text.index("the manual") + 1
    requests = [
        {"updateTextStyle": {"range": {"startIndex": start, "endIndex": start + len("the manual")},
                             "textStyle": {"link": {"url": "https://example.com/manual"}}, "fields": "link"}},
        {"updateParagraphStyle": {"range": {"startIndex": 1, "endIndex": 2},
                                  "paragraphStyle": {"namedStyleType": "HEADING_1"}, "fields": "namedStyleType"}},
    ]
    costs = text.index("Costs") + 1
    requests.append({"updateParagraphStyle": {"range": {"startIndex": costs, "endIndex": costs + 1},
                                              "paragraphStyle": {"namedStyleType": "HEADING_2"}, "fields": "namedStyleType"}})
    c(g).docs.documents().batchUpdate(documentId=doc_id, body={"requests": requests}).execute()
    assert j("google.doc_link", g, title="Guide", text="the manual", url="https://example.com/manual").passed
    v = j("google.doc_link", g, title="Guide", text="the manual", url="https://example.com/other")
    assert not v.passed and "links to https://example.com/manual, not https://example.com/other" in v.feedback
    assert not j("google.doc_link", g, title="Guide", text="Read the manual", url="https://example.com/manual").passed
    assert j("google.doc_outline", g, title="Guide", headings=["H1 Guide", "H2 Costs"]).passed
    v = j("google.doc_outline", g, title="Guide", headings=["H1 Guide", "H1 Costs"])
    assert not v.passed and "'H2 Costs'" in v.feedback


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


def test_doc_link_empty_url_means_no_link(g: StepContext) -> None:
    run_reset("google.document", {"title": "Plain", "paragraphs": ["Nothing linked here."]}, g)
    assert j("google.doc_link", g, title="Plain", text="linked", url="").passed
    v = j("google.doc_link", g, title="Plain", text="linked", url="https://example.com")
    assert not v.passed and "links to nothing" in v.feedback
