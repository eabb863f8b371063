"""Google Workspace inside the agent's kernel: service objects and a few helpers.

The kernel imports this module. The service objects are googleapiclient
``Resource`` objects built on first use from the discovery documents bundled
with google-api-python-client (no network needed to build them):

- emulator backend: ``DESKACT_GOOGLE_URL`` (set by the kernel session to a
  loopback port forwarded to the worker's emulator socket);
- real backend: ``DESKACT_GOOGLE_TOKEN``, a short-lived OAuth access token the
  runner hands to the kernel (refresh tokens and key files stay on the host).

Everything exported here is documented for the model from its docstring.
"""

from __future__ import annotations

import base64
import mimetypes
import os
from collections.abc import Callable
from email.message import EmailMessage
from email.utils import getaddresses
from typing import Any

from .client import build_service

URL_ENV = "DESKACT_GOOGLE_URL"
TOKEN_ENV = "DESKACT_GOOGLE_TOKEN"

SERVICES: dict[str, tuple[str, str]] = {
    "calendar": ("calendar", "v3"), "gmail": ("gmail", "v1"), "drive": ("drive", "v3"),
    "sheets": ("sheets", "v4"), "docs": ("docs", "v1"), "slides": ("slides", "v1"), "forms": ("forms", "v1"),
}

FOLDER = "application/vnd.google-apps.folder"
DOC = "application/vnd.google-apps.document"
SHEET = "application/vnd.google-apps.spreadsheet"
SLIDES = "application/vnd.google-apps.presentation"
FORM = "application/vnd.google-apps.form"


def _build(api: str, version: str) -> Any:
    url = os.environ.get(URL_ENV)
    if url:
        return build_service(api, version, url)
    token = os.environ.get(TOKEN_ENV)
    if token:
        from google.oauth2.credentials import Credentials

        return build_service(api, version, None, credentials=Credentials(token))
    raise RuntimeError(
        f"no Google backend configured in this kernel: neither {URL_ENV} (emulator) nor {TOKEN_ENV} "
        "(real account) is set; run the task with `toolkits: [google]`"
    )


class GoogleService:
    """A googleapiclient service, built on first use (attribute access is delegated)."""

    _api = ""

    def __init__(self) -> None:
        self.__dict__["_resource"] = None

    def _get(self) -> Any:
        if self.__dict__["_resource"] is None:
            self.__dict__["_resource"] = _build(*SERVICES[self._api])
        return self.__dict__["_resource"]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._get(), name)

    def __dir__(self) -> list[str]:  # tab completion in notebooks shows the API's resources
        return sorted(set(super().__dir__()) | set(dir(self._get())))

    def __repr__(self) -> str:
        api, version = SERVICES[self._api]
        return f"<googleapiclient service {api} {version}>"


class CalendarService(GoogleService):
    """Google Calendar API v3 service. Times are RFC 3339 (`2025-03-04T10:00:00+01:00`) with a
    timeZone, or `{"date": "2025-03-04"}` for all-day events (end date exclusive). Examples:
    `calendar.events().list(calendarId="primary", timeMin=..., timeMax=..., singleEvents=True,
    orderBy="startTime", q="standup", pageToken=...).execute()["items"]`;
    `calendar.events().insert(calendarId="primary", body={"summary": ..., "start": {"dateTime": ...,
    "timeZone": ...}, "end": {...}, "attendees": [{"email": ...}], "location": ...}).execute()`;
    `calendar.events().patch(calendarId=..., eventId=..., body={...})`, `.delete(...)`;
    `calendar.calendarList().list()`, `calendar.calendars().get(calendarId="primary")` (its timeZone)."""

    _api = "calendar"


class GmailService(GoogleService):
    """Gmail API v1 service (userId="me"). Examples:
    `gmail.users().messages().list(userId="me", q="from:ann@x.com is:unread subject:report
    after:2025/01/31 has:attachment label:Work", pageToken=...).execute()` -> {"messages": [{"id", "threadId"}], "nextPageToken"};
    `gmail.users().messages().get(userId="me", id=..., format="full"|"metadata"|"raw").execute()`;
    `gmail.users().messages().modify(userId="me", id=..., body={"addLabelIds": [...], "removeLabelIds": ["UNREAD"]})`;
    `.trash(userId="me", id=...)`; `gmail.users().labels().list/create(userId="me", body={"name": ...})`;
    `gmail.users().drafts().create(userId="me", body={"message": {"raw": <base64url RFC 2822>}})`.
    Prefer the helpers `send_email`, `create_draft`, `read_email`, `search_emails`."""

    _api = "gmail"


class DriveService(GoogleService):
    """Google Drive API v3 service. Examples:
    `drive.files().list(q="name contains 'report' and mimeType != 'application/vnd.google-apps.folder'
    and 'FOLDER_ID' in parents and trashed = false", fields="nextPageToken, files(id, name, mimeType,
    parents, modifiedTime, webViewLink)", pageToken=...).execute()`;
    `drive.files().create(body={"name": ..., "mimeType": "application/vnd.google-apps.folder", "parents": [...]})`;
    `drive.files().update(fileId=..., addParents=..., removeParents=..., body={"name": ...})`;
    `drive.files().copy(fileId=..., body={"name": ...})`; `drive.files().update(fileId=..., body={"trashed": True})`;
    `drive.files().export(fileId=..., mimeType="text/csv").execute()` (bytes).
    Prefer the helpers `find_files`, `download_text`, `upload_text`, `file_link`."""

    _api = "drive"


class SheetsService(GoogleService):
    """Google Sheets API v4 service. Examples:
    `sheets.spreadsheets().create(body={"properties": {"title": ...}, "sheets": [{"properties": {"title": "Data"}}]}).execute()["spreadsheetId"]`;
    `sheets.spreadsheets().get(spreadsheetId=...).execute()["sheets"]` (tab names in ["properties"]["title"]);
    `sheets.spreadsheets().values().get/update/append/clear(spreadsheetId=..., range="Sheet1!A1:C10", ...)`
    with `valueInputOption="USER_ENTERED"` and `body={"values": [[...], ...]}`;
    `sheets.spreadsheets().batchUpdate(spreadsheetId=..., body={"requests": [{"addSheet": {"properties": {"title": ...}}}]})`.
    Prefer the helpers `read_sheet`, `write_sheet`, `append_rows`, `create_spreadsheet`."""

    _api = "sheets"


class DocsService(GoogleService):
    """Google Docs API v1 service. Examples:
    `docs.documents().create(body={"title": ...}).execute()["documentId"]`;
    `docs.documents().get(documentId=...).execute()["body"]["content"]` (paragraphs with textRun
    elements and startIndex/endIndex);
    `docs.documents().batchUpdate(documentId=..., body={"requests": [{"insertText": {"location":
    {"index": 1}, "text": "..."}}, {"replaceAllText": {"containsText": {"text": ..., "matchCase": True},
    "replaceText": ...}}, {"updateTextStyle": {"range": {"startIndex": s, "endIndex": e},
    "textStyle": {"bold": True}, "fields": "bold"}}]})`.
    Prefer the helpers `doc_text`, `create_doc`, `append_to_doc`."""

    _api = "docs"


class SlidesService(GoogleService):
    """Google Slides API v1 service. Examples:
    `slides.presentations().create(body={"title": ...}).execute()["presentationId"]`;
    `slides.presentations().get(presentationId=...).execute()["slides"]` (each with pageElements;
    a shape's text is in shape.text.textElements[].textRun.content, its role in
    shape.placeholder.type, e.g. TITLE, CENTERED_TITLE, BODY);
    `slides.presentations().batchUpdate(presentationId=..., body={"requests": [{"createSlide":
    {"slideLayoutReference": {"predefinedLayout": "TITLE_AND_BODY"}, "placeholderIdMappings":
    [{"layoutPlaceholder": {"type": "TITLE"}, "objectId": "t1"}]}}, {"insertText": {"objectId": "t1",
    "text": ...}}, {"deleteObject": {"objectId": ...}}, {"replaceAllText": ...}]})`."""

    _api = "slides"


class FormsService(GoogleService):
    """Google Forms API v1 service. Examples:
    `forms.forms().create(body={"info": {"title": ...}}).execute()["formId"]`;
    `forms.forms().get(formId=...).execute()["items"]`;
    `forms.forms().batchUpdate(formId=..., body={"requests": [{"createItem": {"item": {"title": ...,
    "questionItem": {"question": {"required": True, "textQuestion": {}}}}, "location": {"index": 0}}}]})`
    (choice questions: `"choiceQuestion": {"type": "RADIO", "options": [{"value": ...}]}`);
    `forms.forms().responses().list(formId=...).execute()`."""

    _api = "forms"


calendar = CalendarService()
gmail = GmailService()
drive = DriveService()
sheets = SheetsService()
docs = DocsService()
slides = SlidesService()
forms = FormsService()


# --- paging ------------------------------------------------------------------

_LIST_KEYS = ("items", "files", "messages", "threads", "drafts", "labels", "responses", "permissions")


def list_all(method: Callable[..., Any], **params: Any) -> list[dict]:
    """Every item of a paged list call, following nextPageToken.
    Example: `list_all(calendar.events().list, calendarId="primary", singleEvents=True)`;
    `list_all(gmail.users().messages().list, userId="me", q="is:unread")`.
    Returns the concatenated "items"/"files"/"messages"/... lists."""
    out: list[dict] = []
    token = None
    while True:
        page = method(**params, **({"pageToken": token} if token else {})).execute()
        key = next((k for k in _LIST_KEYS if k in page), None)
        out.extend(page.get(key, []) if key else [])
        token = page.get("nextPageToken")
        if not token:
            return out


# --- Gmail -------------------------------------------------------------------


def _addresses(value: str | list[str] | None) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else ", ".join(value)


def _raw_message(to: str | list[str], subject: str, body: str, cc: str | list[str] | None,
                 bcc: str | list[str] | None, attachments: dict[str, bytes] | None) -> str:
    msg = EmailMessage()
    msg["To"] = _addresses(to)
    if cc:
        msg["Cc"] = _addresses(cc)
    if bcc:
        msg["Bcc"] = _addresses(bcc)
    msg["Subject"] = subject
    msg.set_content(body)
    for name, data in (attachments or {}).items():
        # The type from the name, as a mail client would send it (report.csv -> text/csv).
        maintype, _, subtype = (mimetypes.guess_type(name)[0] or "application/octet-stream").partition("/")
        if maintype == "text":  # add_attachment takes text as str
            msg.add_attachment(data.decode("utf-8", "replace"), subtype=subtype, filename=name)
        else:
            msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return base64.urlsafe_b64encode(msg.as_bytes()).decode()


def send_email(to: str | list[str], subject: str, body: str, cc: str | list[str] | None = None,
               bcc: str | list[str] | None = None, attachments: dict[str, bytes] | None = None) -> dict:
    """Send a plain-text email from the account. `to`/`cc`/`bcc`: an address or a list.
    `attachments`: {filename: bytes}. Returns the sent message {"id", "threadId", "labelIds"}."""
    raw = _raw_message(to, subject, body, cc, bcc, attachments)
    return gmail.users().messages().send(userId="me", body={"raw": raw}).execute()


def create_draft(to: str | list[str], subject: str, body: str, cc: str | list[str] | None = None) -> dict:
    """Save (not send) a plain-text email as a draft. Returns {"id", "message": {...}}."""
    raw = _raw_message(to, subject, body, cc, None, None)
    return gmail.users().drafts().create(userId="me", body={"message": {"raw": raw}}).execute()


def _text_of(part: dict) -> tuple[str, list[str]]:
    """(plain text body, attachment filenames) of a `format=full` payload."""
    if part.get("filename"):
        return "", [part["filename"]]
    mime = part.get("mimeType", "")
    if mime.startswith("multipart/"):
        texts: list[str] = []
        names: list[str] = []
        for sub in part.get("parts", []):
            text, found = _text_of(sub)
            names += found
            if text and (mime != "multipart/alternative" or not texts):
                texts.append(text)
        return "\n".join(texts), names
    data = part.get("body", {}).get("data")
    if mime == "text/plain" and data:
        return base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)).decode("utf-8", "replace"), []
    return "", []


def read_email(message_id: str) -> dict:
    """One message as plain fields: {"id", "threadId", "from", "to", "cc", "subject", "date",
    "body" (plain text), "labels" (label ids, e.g. INBOX, UNREAD, Label_1), "attachments" (names),
    "snippet"}. `to`/`cc` are lists of addresses."""
    return message_fields(gmail.users().messages().get(userId="me", id=message_id, format="full").execute())


def message_fields(msg: dict) -> dict:
    """The plain fields of a `format=full` Gmail message (what `read_email` returns)."""
    headers = {h["name"].lower(): h["value"] for h in msg.get("payload", {}).get("headers", [])}
    body, names = _text_of(msg.get("payload", {}))
    return {
        "id": msg["id"], "threadId": msg.get("threadId"), "from": headers.get("from", ""),
        "to": [a for _, a in getaddresses([headers.get("to", "")]) if a],
        "cc": [a for _, a in getaddresses([headers.get("cc", "")]) if a],
        "subject": headers.get("subject", ""), "date": headers.get("date", ""), "body": body,
        "labels": msg.get("labelIds", []), "attachments": names, "snippet": msg.get("snippet", ""),
    }


def search_emails(query: str = "", max_results: int = 500) -> list[dict]:
    """Messages matching a Gmail search query (e.g. 'from:bob@x.com subject:invoice is:unread'),
    newest first, each as `read_email` returns it. Follows pages up to `max_results` messages."""
    ids: list[str] = []
    token = None
    while len(ids) < max_results:
        page = gmail.users().messages().list(userId="me", q=query, maxResults=min(500, max_results),
                                             **({"pageToken": token} if token else {})).execute()
        ids += [m["id"] for m in page.get("messages", [])]
        token = page.get("nextPageToken")
        if not token:
            break
    return [read_email(i) for i in ids[:max_results]]


def label_id(name: str, create: bool = False) -> str:
    """The id of the Gmail label called `name` (system labels: INBOX, STARRED, ...);
    with create=True a missing user label is created."""
    labels = gmail.users().labels().list(userId="me").execute().get("labels", [])
    for lab in labels:
        if lab["name"].lower() == name.lower() or lab["id"] == name:
            return lab["id"]
    if not create:
        raise KeyError(f"no Gmail label {name!r}; existing: {sorted(lab['name'] for lab in labels)}")
    return gmail.users().labels().create(userId="me", body={"name": name}).execute()["id"]


# --- Drive -------------------------------------------------------------------


def _quote(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def find_files(name: str | None = None, mime_type: str | None = None, parent: str | None = None,
               name_contains: str | None = None, query: str | None = None, trashed: bool = False) -> list[dict]:
    """Drive files matching all given conditions (every page), each {"id", "name", "mimeType",
    "parents", "modifiedTime", "size", "webViewLink", "trashed"}. `name`: exact name;
    `parent`: folder id; `query`: extra Drive q clause, e.g. "modifiedTime > '2025-01-01T00:00:00'".
    Mime types: folders application/vnd.google-apps.folder, Docs ...document, Sheets ...spreadsheet."""
    clauses = [f"trashed = {'true' if trashed else 'false'}"]
    if name is not None:
        clauses.append(f"name = {_quote(name)}")
    if name_contains is not None:
        clauses.append(f"name contains {_quote(name_contains)}")
    if mime_type is not None:
        clauses.append(f"mimeType = {_quote(mime_type)}")
    if parent is not None:
        clauses.append(f"{_quote(parent)} in parents")
    if query:
        clauses.append(f"({query})")
    return list_all(drive.files().list, q=" and ".join(clauses), pageSize=1000,
                    fields="nextPageToken, files(id, name, mimeType, parents, modifiedTime, size, webViewLink, trashed)")


_EXPORT_AS = {DOC: "text/plain", SHEET: "text/csv", SLIDES: "text/plain"}


def download_text(file_id: str) -> str:
    """The content of a Drive file as text (Google Docs as plain text, Sheets as CSV of the first sheet)."""
    meta = drive.files().get(fileId=file_id, fields="mimeType").execute()
    export = _EXPORT_AS.get(meta["mimeType"])
    if export:
        data = drive.files().export(fileId=file_id, mimeType=export).execute()
    else:
        data = drive.files().get_media(fileId=file_id).execute()
    return data.decode("utf-8", "replace") if isinstance(data, bytes) else str(data)


def upload_text(name: str, content: str, mime_type: str = "text/plain", parent: str | None = None) -> dict:
    """Create a Drive file holding `content`; returns {"id", "name", "mimeType", "parents", "webViewLink"}."""
    from googleapiclient.http import MediaInMemoryUpload

    body: dict[str, Any] = {"name": name}
    if parent:
        body["parents"] = [parent]
    media = MediaInMemoryUpload(content.encode(), mimetype=mime_type)
    return drive.files().create(body=body, media_body=media,
                                fields="id, name, mimeType, parents, webViewLink").execute()


def file_link(file_id: str) -> str:
    """The shareable web link (webViewLink) of a Drive file."""
    return drive.files().get(fileId=file_id, fields="webViewLink").execute()["webViewLink"]


# --- Sheets ------------------------------------------------------------------


def read_sheet(spreadsheet_id: str, range: str, formatted: bool = False) -> list[list]:
    """The values of an A1 range (e.g. "Sheet1!A1:D20", "Data" for a whole tab) as rows.
    Numbers come back as numbers unless formatted=True (then as displayed strings).
    Trailing empty cells/rows are omitted, as the API does."""
    render = "FORMATTED_VALUE" if formatted else "UNFORMATTED_VALUE"
    return sheets.spreadsheets().values().get(
        spreadsheetId=spreadsheet_id, range=range, valueRenderOption=render).execute().get("values", [])


def write_sheet(spreadsheet_id: str, range: str, rows: list[list], raw: bool = False) -> dict:
    """Write rows starting at an A1 range (e.g. "Sheet1!A1"). Strings like "=SUM(B2:B9)",
    "12" or "TRUE" are parsed as a person typing them unless raw=True. Returns the update summary."""
    return sheets.spreadsheets().values().update(
        spreadsheetId=spreadsheet_id, range=range, body={"values": rows},
        valueInputOption="RAW" if raw else "USER_ENTERED").execute()


def append_rows(spreadsheet_id: str, range: str, rows: list[list]) -> dict:
    """Append rows after the last row of the table at `range` (e.g. "Sheet1!A1")."""
    return sheets.spreadsheets().values().append(
        spreadsheetId=spreadsheet_id, range=range, body={"values": rows},
        valueInputOption="USER_ENTERED", insertDataOption="INSERT_ROWS").execute()


def create_spreadsheet(title: str, rows: list[list] | None = None, sheet: str = "Sheet1") -> str:
    """Create a spreadsheet (optionally filled with `rows` from A1 of tab `sheet`); returns its id."""
    body = {"properties": {"title": title}, "sheets": [{"properties": {"title": sheet}}]}
    sid = sheets.spreadsheets().create(body=body, fields="spreadsheetId").execute()["spreadsheetId"]
    if rows:
        write_sheet(sid, f"'{sheet}'!A1", rows)
    return sid


# --- Docs --------------------------------------------------------------------


def _paragraphs(content: list[dict]) -> list[str]:
    out = []
    for element in content:
        if "paragraph" in element:
            out.append("".join(run.get("textRun", {}).get("content", "")
                               for run in element["paragraph"].get("elements", [])))
        elif "table" in element:
            for row in element["table"].get("tableRows", []):
                for cell in row.get("tableCells", []):
                    out += _paragraphs(cell.get("content", []))
    return out


def doc_text(document_id: str) -> str:
    """The plain text of a Google Doc (paragraphs separated by newlines)."""
    doc = docs.documents().get(documentId=document_id).execute()
    return "".join(_paragraphs(doc.get("body", {}).get("content", [])))


def create_doc(title: str, text: str = "") -> str:
    """Create a Google Doc holding `text` (newlines separate paragraphs); returns its id."""
    doc_id = docs.documents().create(body={"title": title}).execute()["documentId"]
    if text:
        append_to_doc(doc_id, text)
    return doc_id


def append_to_doc(document_id: str, text: str) -> None:
    """Append `text` at the end of a Google Doc's body."""
    doc = docs.documents().get(documentId=document_id).execute()
    end = doc["body"]["content"][-1]["endIndex"] - 1
    docs.documents().batchUpdate(documentId=document_id, body={"requests": [
        {"insertText": {"location": {"index": end}, "text": text}}]}).execute()


HELPERS = ["list_all", "send_email", "create_draft", "read_email", "search_emails", "label_id",
           "find_files", "download_text", "upload_text", "file_link",
           "read_sheet", "write_sheet", "append_rows", "create_spreadsheet",
           "doc_text", "create_doc", "append_to_doc"]
EXPORTS = [*SERVICES, *HELPERS]
