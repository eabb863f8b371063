"""Gmail judges on the emulator (email_sent, draft_exists, label_applied, email_state,
mail_fields): a passing and a failing case each, with the feedback asserted."""

from __future__ import annotations

import base64
from email.message import EmailMessage
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


def j(judge_name: str, g: StepContext, **params: object) -> Verdict:
    v = run_judge(judge_name, params, g)
    assert not v.error, v.feedback
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
