"""Gmail v1 conformance: googleapiclient against the emulator."""

from __future__ import annotations

import base64
import io
import json
from email.message import EmailMessage
from typing import Any

import pytest
from googleapiclient.errors import HttpError
from googleapiclient.http import MediaIoBaseUpload

USER = "me@deskact.test"


@pytest.fixture
def gmail(emu: Any) -> Any:
    return emu.build("gmail", "v1")


def raw_message(to: str = USER, subject: str = "Hello", body: str = "Body text", sender: str = "alice@example.com",
                date: str | None = None, attachment: tuple[str, bytes] | None = None, html: str | None = None,
                **headers: str) -> str:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    if date:
        msg["Date"] = date
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(body)
    if html:
        msg.add_alternative(html, subtype="html")
    if attachment:
        msg.add_attachment(attachment[1], maintype="application", subtype="octet-stream", filename=attachment[0])
    return base64.urlsafe_b64encode(msg.as_bytes()).decode()


def insert(gmail: Any, labels: list[str] | None = None, **kw: Any) -> dict[str, Any]:
    return gmail.users().messages().insert(
        userId="me", body={"raw": raw_message(**kw), "labelIds": labels if labels is not None else ["INBOX", "UNREAD"]},
    ).execute()


def ids(listing: dict[str, Any], key: str = "messages") -> list[str]:
    return [m["id"] for m in listing.get(key, [])]


def test_send_sets_sent_label_and_headers(gmail: Any) -> None:
    sent = gmail.users().messages().send(userId="me", body={"raw": raw_message(to="bob@example.com", sender="")}).execute()
    assert sent["labelIds"] == ["SENT"] and sent["threadId"] == sent["id"]
    full = gmail.users().messages().get(userId="me", id=sent["id"]).execute()
    headers = {h["name"]: h["value"] for h in full["payload"]["headers"]}
    assert headers["To"] == "bob@example.com" and headers["Subject"] == "Hello"
    assert "Message-ID" in headers and "Date" in headers
    assert full["snippet"] == "Body text" and int(full["internalDate"]) > 0
    to_self = gmail.users().messages().send(userId="me", body={"raw": raw_message(to=USER)}).execute()
    assert set(to_self["labelIds"]) == {"SENT", "INBOX", "UNREAD"}
    with pytest.raises(HttpError) as exc:
        gmail.users().messages().send(userId="me", body={}).execute()
    assert exc.value.resp.status == 400


def test_send_via_media_upload(gmail: Any) -> None:
    raw = base64.urlsafe_b64decode(raw_message(to="carol@example.com", subject="Uploaded"))
    media = MediaIoBaseUpload(io.BytesIO(raw), mimetype="message/rfc822")
    sent = gmail.users().messages().send(userId="me", body={}, media_body=media).execute()
    got = gmail.users().messages().get(userId="me", id=sent["id"], format="metadata",
                                       metadataHeaders=["Subject"]).execute()
    assert got["payload"]["headers"] == [{"name": "Subject", "value": "Uploaded"}]
    resumable = MediaIoBaseUpload(io.BytesIO(raw), mimetype="message/rfc822", resumable=True, chunksize=256 * 1024)
    sent2 = gmail.users().messages().send(userId="me", body={}, media_body=resumable).execute()
    assert gmail.users().messages().get(userId="me", id=sent2["id"], format="raw").execute()["raw"]


def test_formats_full_metadata_minimal_raw(gmail: Any) -> None:
    m = insert(gmail, subject="Report", body="See attached", html="<p>See <b>attached</b></p>",
               attachment=("data.bin", b"\x00\x01binary"))
    full = gmail.users().messages().get(userId="me", id=m["id"], format="full").execute()
    assert full["payload"]["mimeType"] == "multipart/mixed"
    parts = full["payload"]["parts"]
    assert parts[0]["mimeType"] == "multipart/alternative"
    assert parts[0]["parts"][0]["partId"] == "0.0"
    text = base64.urlsafe_b64decode(parts[0]["parts"][0]["body"]["data"]).decode()
    assert text.strip() == "See attached"
    att = parts[1]
    assert att["filename"] == "data.bin" and "attachmentId" in att["body"] and "data" not in att["body"]
    blob = gmail.users().messages().attachments().get(userId="me", messageId=m["id"],
                                                       id=att["body"]["attachmentId"]).execute()
    assert base64.urlsafe_b64decode(blob["data"]) == b"\x00\x01binary" and blob["size"] == 8
    minimal = gmail.users().messages().get(userId="me", id=m["id"], format="minimal").execute()
    assert "payload" not in minimal and minimal["labelIds"] == ["INBOX", "UNREAD"]
    raw = gmail.users().messages().get(userId="me", id=m["id"], format="raw").execute()
    assert b"Subject: Report" in base64.urlsafe_b64decode(raw["raw"])
    meta = gmail.users().messages().get(userId="me", id=m["id"], format="metadata").execute()
    assert "parts" not in meta["payload"] and any(h["name"] == "From" for h in meta["payload"]["headers"])


def test_get_missing_is_404_and_bad_params_400(gmail: Any, emu: Any) -> None:
    with pytest.raises(HttpError) as exc:
        gmail.users().messages().get(userId="me", id="deadbeef").execute()
    assert exc.value.resp.status == 404
    import httplib2

    resp, content = httplib2.Http().request(f"{emu.url}/gmail/v1/users/me/messages?maxResults=ten")
    assert resp.status == 400
    resp, content = httplib2.Http().request(f"{emu.url}/gmail/v1/users/me/messages/x?format=pretty")
    assert resp.status == 400 and json.loads(content)["error"]["errors"][0]["location"] == "format"
    with pytest.raises(HttpError) as exc:
        gmail.users().messages().list(userId="someone@else.com").execute()
    assert exc.value.resp.status == 403
    with pytest.raises(HttpError) as exc:
        gmail.users().messages().list(userId="me", q="from:(unclosed").execute()
    assert exc.value.resp.status == 400
    # history is in the discovery document but not emulated
    with pytest.raises(HttpError) as exc:
        gmail.users().history().list(userId="me", startHistoryId="1").execute()
    assert exc.value.resp.status == 501


def test_search_operators(gmail: Any) -> None:
    a = insert(gmail, sender="Alice Smith <alice@example.com>", subject="Quarterly report", body="numbers inside",
               date="Mon, 15 Jan 2024 10:00:00 +0000")
    b = insert(gmail, sender="bob@corp.com", to="team@corp.com", subject="Lunch?", body="pizza at noon", labels=["INBOX"],
               attachment=("menu.pdf", b"%PDF"))
    c = gmail.users().messages().import_(userId="me", body={"raw": raw_message(
        sender="carol@example.com", subject="Old news", body="archive me", date="Fri, 01 Dec 2023 09:00:00 +0000")}).execute()
    label = gmail.users().labels().create(userId="me", body={"name": "Work/Projects"}).execute()
    gmail.users().messages().modify(userId="me", id=a["id"], body={"addLabelIds": [label["id"]]}).execute()

    def q(query: str) -> set[str]:
        return set(ids(gmail.users().messages().list(userId="me", q=query).execute()))

    assert q("from:alice") == {a["id"]}
    assert q("from:example.com") == {a["id"], c["id"]}
    assert q("to:team@corp.com") == {b["id"]}
    assert q("subject:report") == {a["id"]}
    assert q("subject:(quarterly report)") == {a["id"]}
    assert q("is:unread") == {a["id"]}
    assert q("is:read") == {b["id"], c["id"]}
    assert q("label:work-projects") == {a["id"]}
    assert q("label:Work/Projects") == {a["id"]}
    assert q("has:attachment") == {b["id"]}
    assert q("filename:pdf") == {b["id"]}
    # import uses the Date header; insert uses the time of receipt
    assert q("before:2024/01/01") == {c["id"]}
    assert q("after:2023/11/30 before:2023/12/02") == {c["id"]}
    assert q("pizza") == {b["id"]}
    assert q("piz") == set()  # whole words, as Gmail
    assert q('"pizza at noon"') == {b["id"]}
    assert q("-pizza") == {a["id"], c["id"]}
    assert q("pizza OR archive") == {b["id"], c["id"]}
    assert q("{alice carol}") == {a["id"], c["id"]}
    assert q("in:inbox is:unread") == {a["id"]}
    assert q("newer_than:1d") == {a["id"], b["id"]}


def test_labels_list_filter_and_paging(gmail: Any) -> None:
    made = [insert(gmail, subject=f"m{i}")["id"] for i in range(7)]
    insert(gmail, subject="archived", labels=[])
    inbox = gmail.users().messages().list(userId="me", labelIds=["INBOX"]).execute()
    assert set(ids(inbox)) == set(made) and inbox["resultSizeEstimate"] == 7
    seen: list[str] = []
    token = None
    while True:
        page = gmail.users().messages().list(userId="me", labelIds=["INBOX"], maxResults=3, pageToken=token).execute()
        seen += ids(page)
        token = page.get("nextPageToken")
        if not token:
            break
    assert seen == list(reversed(made))  # newest first
    empty = gmail.users().messages().list(userId="me", q="nothing-matches-this").execute()
    assert empty == {"resultSizeEstimate": 0}


def test_modify_trash_untrash_delete(gmail: Any) -> None:
    m = insert(gmail)
    out = gmail.users().messages().modify(userId="me", id=m["id"], body={
        "removeLabelIds": ["UNREAD"], "addLabelIds": ["STARRED"]}).execute()
    assert set(out["labelIds"]) == {"INBOX", "STARRED"}
    with pytest.raises(HttpError) as exc:
        gmail.users().messages().modify(userId="me", id=m["id"], body={"addLabelIds": ["NoSuchLabel"]}).execute()
    assert exc.value.resp.status == 400
    trashed = gmail.users().messages().trash(userId="me", id=m["id"]).execute()
    assert "TRASH" in trashed["labelIds"] and "INBOX" not in trashed["labelIds"]
    assert gmail.users().messages().list(userId="me").execute()["resultSizeEstimate"] == 0
    assert ids(gmail.users().messages().list(userId="me", includeSpamTrash=True).execute()) == [m["id"]]
    assert ids(gmail.users().messages().list(userId="me", q="in:trash").execute()) == [m["id"]]
    restored = gmail.users().messages().untrash(userId="me", id=m["id"]).execute()
    assert "TRASH" not in restored["labelIds"] and "INBOX" in restored["labelIds"]
    gmail.users().messages().delete(userId="me", id=m["id"]).execute()
    with pytest.raises(HttpError) as exc:
        gmail.users().messages().get(userId="me", id=m["id"]).execute()
    assert exc.value.resp.status == 404
    with pytest.raises(HttpError) as exc:
        gmail.users().messages().delete(userId="me", id=m["id"]).execute()
    assert exc.value.resp.status == 404


def test_user_and_system_labels(gmail: Any) -> None:
    names = {lab["name"] for lab in gmail.users().labels().list(userId="me").execute()["labels"]}
    assert {"INBOX", "SENT", "DRAFT", "TRASH", "SPAM", "UNREAD", "STARRED"} <= names
    lab = gmail.users().labels().create(userId="me", body={"name": "Receipts"}).execute()
    assert lab["type"] == "user" and lab["id"].startswith("Label_")
    with pytest.raises(HttpError) as exc:
        gmail.users().labels().create(userId="me", body={"name": "receipts"}).execute()
    assert exc.value.resp.status == 409
    m = insert(gmail)
    gmail.users().messages().modify(userId="me", id=m["id"], body={"addLabelIds": [lab["id"]]}).execute()
    got = gmail.users().labels().get(userId="me", id=lab["id"]).execute()
    assert got["messagesTotal"] == 1 and got["messagesUnread"] == 1
    inbox = gmail.users().labels().get(userId="me", id="INBOX").execute()
    assert inbox["type"] == "system" and inbox["threadsTotal"] == 1
    renamed = gmail.users().labels().patch(userId="me", id=lab["id"], body={"name": "Bills"}).execute()
    assert renamed["name"] == "Bills"
    with pytest.raises(HttpError) as exc:
        gmail.users().labels().delete(userId="me", id="INBOX").execute()
    assert exc.value.resp.status == 400
    gmail.users().labels().delete(userId="me", id=lab["id"]).execute()
    assert lab["id"] not in gmail.users().messages().get(userId="me", id=m["id"], format="minimal").execute()["labelIds"]
    with pytest.raises(HttpError) as exc:
        gmail.users().labels().get(userId="me", id=lab["id"]).execute()
    assert exc.value.resp.status == 404


def test_threads_by_references(gmail: Any) -> None:
    first = insert(gmail, subject="Plan", Message_ID="<plan-1@example.com>")
    reply = gmail.users().messages().send(userId="me", body={"raw": raw_message(
        to="alice@example.com", subject="Re: Plan", body="Sounds good", sender=USER,
        In_Reply_To="<plan-1@example.com>", References="<plan-1@example.com>")}).execute()
    other = insert(gmail, subject="Unrelated")
    assert reply["threadId"] == first["threadId"] != other["threadId"]
    thread = gmail.users().threads().get(userId="me", id=first["threadId"]).execute()
    assert [m["id"] for m in thread["messages"]] == [first["id"], reply["id"]]
    listing = gmail.users().threads().list(userId="me").execute()
    assert {t["id"] for t in listing["threads"]} == {first["threadId"], other["threadId"]}
    explicit = gmail.users().messages().send(userId="me", body={
        "raw": raw_message(to="x@example.com", subject="Re: Unrelated"), "threadId": other["threadId"]}).execute()
    assert explicit["threadId"] == other["threadId"]
    gmail.users().threads().modify(userId="me", id=first["threadId"], body={"removeLabelIds": ["UNREAD"]}).execute()
    assert ids(gmail.users().messages().list(userId="me", q="is:unread").execute()) == [other["id"]]
    gmail.users().threads().trash(userId="me", id=first["threadId"]).execute()
    assert first["threadId"] not in {t["id"] for t in gmail.users().threads().list(userId="me").execute()["threads"]}
    gmail.users().threads().delete(userId="me", id=first["threadId"]).execute()
    with pytest.raises(HttpError) as exc:
        gmail.users().threads().get(userId="me", id=first["threadId"]).execute()
    assert exc.value.resp.status == 404


def test_drafts_create_update_list_send(gmail: Any) -> None:
    d = gmail.users().drafts().create(userId="me", body={"message": {"raw": raw_message(
        to="boss@example.com", subject="Draft v1", sender=USER)}}).execute()
    assert d["id"] and d["message"]["labelIds"] == ["DRAFT"]
    listed = gmail.users().drafts().list(userId="me").execute()
    assert [x["id"] for x in listed["drafts"]] == [d["id"]]
    assert ids(gmail.users().messages().list(userId="me", q="in:drafts").execute()) == [d["message"]["id"]]
    upd = gmail.users().drafts().update(userId="me", id=d["id"], body={"message": {"raw": raw_message(
        to="boss@example.com", subject="Draft v2", sender=USER)}}).execute()
    got = gmail.users().drafts().get(userId="me", id=d["id"], format="metadata").execute()
    subject = [h["value"] for h in got["message"]["payload"]["headers"] if h["name"] == "Subject"]
    assert subject == ["Draft v2"] and got["message"]["id"] == upd["message"]["id"]
    sent = gmail.users().drafts().send(userId="me", body={"id": d["id"]}).execute()
    assert sent["labelIds"] == ["SENT"]
    assert gmail.users().drafts().list(userId="me").execute() == {"resultSizeEstimate": 0}
    assert ids(gmail.users().messages().list(userId="me", q="to:boss@example.com subject:v2").execute()) == [sent["id"]]
    with pytest.raises(HttpError) as exc:
        gmail.users().drafts().send(userId="me", body={"id": d["id"]}).execute()
    assert exc.value.resp.status == 404
    d2 = gmail.users().drafts().create(userId="me", body={"message": {"raw": raw_message(to="a@b.c")}}).execute()
    gmail.users().drafts().delete(userId="me", id=d2["id"]).execute()
    with pytest.raises(HttpError) as exc:
        gmail.users().drafts().get(userId="me", id=d2["id"]).execute()
    assert exc.value.resp.status == 404


def test_profile_fields_and_global_batch(gmail: Any, emu: Any) -> None:
    for i in range(3):
        insert(gmail, subject=f"s{i}")
    prof = gmail.users().getProfile(userId="me").execute()
    assert prof["emailAddress"] == USER and prof["messagesTotal"] == 3
    part = gmail.users().messages().list(userId="me", fields="messages/id").execute()
    assert set(part) == {"messages"} and all(set(m) == {"id"} for m in part["messages"])
    # the global /batch endpoint, mixing APIs (Gmail's batchPath is "batch")
    cal = emu.build("calendar", "v3")
    results: dict[str, Any] = {}
    batch = gmail.new_batch_http_request(callback=lambda rid, resp, exc: results.__setitem__(rid, exc or resp))
    for m in part["messages"]:
        batch.add(gmail.users().messages().modify(userId="me", id=m["id"], body={"removeLabelIds": ["UNREAD"]}),
                  request_id=m["id"])
    batch.add(cal.calendars().get(calendarId="primary"), request_id="cal")
    batch.execute()
    assert results["cal"]["id"] == USER
    assert all("UNREAD" not in results[m["id"]]["labelIds"] for m in part["messages"])
