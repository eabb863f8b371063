"""google.emails, google.labels and google.drafts against the emulator, checked through the API."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

import pytest
from deskact.runtime.tasks.steps import StepContext, StepFailed, run_reset


def c(g: StepContext) -> Any:
    return g.services["google"]["clients"]


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
