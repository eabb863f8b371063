"""google.* reset steps: start from a clean account, then seed it through the APIs.

Every Google task lists ``google.reset`` first: on the emulator it restores the
empty state (or a named snapshot) in milliseconds and records the instant that
relative times ("tomorrow 10:00") are resolved against, for seeding steps and
judges alike. The seeding steps call the Google APIs through host-side
googleapiclient clients (``ctx.services["google"]["clients"]``), so the same
task YAML works on the emulator and on a real account.
"""

from __future__ import annotations

import base64
import glob
import mimetypes
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from ..runtime.tasks.helpers import fixture
from ..runtime.tasks.steps import StepContext, StepFailed, reset_step
from ..toolkits.google import when

RelTime = Annotated[str, AfterValidator(when.check)]
"""An absolute or relative time (see deskact.toolkits.google.when)."""

MIME_SHORT = {
    "folder": "application/vnd.google-apps.folder", "document": "application/vnd.google-apps.document",
    "spreadsheet": "application/vnd.google-apps.spreadsheet",
    "presentation": "application/vnd.google-apps.presentation", "form": "application/vnd.google-apps.form",
}
FOLDER = MIME_SHORT["folder"]


# --- shared with judges/google/ -----------------------------------------------


def google_host(ctx: StepContext) -> dict[str, Any]:
    host = ctx.services.get("google")
    if not host:
        raise StepFailed("the google service is not running: add `toolkits: [google]` to the task")
    return host


def clients(ctx: StepContext) -> Any:
    return google_host(ctx)["clients"]


def anchor(ctx: StepContext) -> datetime:
    """The instant google.reset ran for this task (relative times resolve against it)."""
    return google_host(ctx).setdefault("state", {}).get("anchor") or datetime.now(UTC)


def _require_reset(ctx: StepContext) -> None:
    state = google_host(ctx).setdefault("state", {})
    if state.get("task_id") != ctx.task_id:
        raise StepFailed("list `google.reset` first in this task's reset steps (the account would keep "
                         "the previous task's data)")


def calendar_id(ctx: StepContext, name: str, create: bool = False) -> str:
    """A calendar id from "primary", an id, or a calendar's summary (created if asked)."""
    cal = clients(ctx).calendar
    if name == "primary":
        return "primary"
    entries = cal.calendarList().list().execute().get("items", [])
    for entry in entries:
        if name in (entry["id"], entry.get("summary")):
            return entry["id"]
    if not create:
        raise LookupError(f"no calendar {name!r}; calendars: {[e.get('summary') for e in entries]}")
    return cal.calendars().insert(body={"summary": name}).execute()["id"]


def calendar_tz(ctx: StepContext, cal_id: str) -> str:
    return clients(ctx).calendar.calendars().get(calendarId=cal_id).execute().get("timeZone") or "UTC"


def list_all(method: Any, key: str, **params: Any) -> list[dict]:
    out: list[dict] = []
    token = None
    while True:
        page = method(**params, **({"pageToken": token} if token else {})).execute()
        out += page.get(key, [])
        token = page.get("nextPageToken")
        if not token:
            return out


def quote(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def drive_find(ctx: StepContext, name: str, mime_type: str | None = None, parent: str | None = None,
               trashed: bool | None = False) -> list[dict]:
    clauses = [f"name = {quote(name)}"]
    if mime_type:
        clauses.append(f"mimeType = {quote(mime_type)}")
    if parent:
        clauses.append(f"{quote(parent)} in parents")
    if trashed is not None:
        clauses.append(f"trashed = {str(trashed).lower()}")
    return list_all(clients(ctx).drive.files().list, "files", q=" and ".join(clauses),
                    fields="nextPageToken, files(id, name, mimeType, parents, trashed, webViewLink, modifiedTime)")


def folder_path(ctx: StepContext, path: str, create: bool) -> str | None:
    """The id of a folder path like "Projects/2024" under My Drive ("" = root)."""
    parent = "root"
    for part in [p for p in path.split("/") if p]:
        found = drive_find(ctx, part, FOLDER, parent)
        if found:
            parent = found[0]["id"]
        elif create:
            parent = clients(ctx).drive.files().create(
                body={"name": part, "mimeType": FOLDER, "parents": [parent]}, fields="id").execute()["id"]
        else:
            return None
    return parent


def _repeat(n: int, text: str | None, i: int) -> str | None:
    return text.replace("{i}", str(i)) if (text is not None and n > 1) else text


# --- reset -----------------------------------------------------------------------


@reset_step("google.reset")
def google_reset(ctx: StepContext, snapshot: str | None = None) -> None:
    """Start from an empty account (emulator: in milliseconds), or from a snapshot saved by
    ``google.snapshot``. On a real account this deletes the account's events, mail, labels and
    Drive files, and refuses unless ``google.allow_wipe`` is true in the config (use a
    throwaway account). Also records the instant relative times resolve against."""
    host = google_host(ctx)
    if host.get("backend") == "emulator":
        emulator = host["emulator"]
        from ..toolkits.google.emulator.store import SnapshotError

        try:
            emulator.reset(snapshot)
        except SnapshotError as exc:
            raise StepFailed(f"google.reset: {exc}") from exc
    else:
        if snapshot:
            raise StepFailed("google.reset: snapshots exist only on the emulator backend")
        if not getattr(ctx.config.google, "allow_wipe", False):
            raise StepFailed("google.reset on a real account deletes its events, mail and Drive files; "
                             "set google.allow_wipe: true in the config for a dedicated test account")
        _wipe_real_account(host["clients"])
    host["state"] = {"task_id": ctx.task_id, "anchor": datetime.now(UTC)}


def _wipe_real_account(c: Any) -> None:
    c.calendar.calendars().clear(calendarId="primary").execute()
    for entry in list_all(c.calendar.calendarList().list, "items"):
        if entry.get("accessRole") == "owner" and not entry.get("primary"):
            c.calendar.calendars().delete(calendarId=entry["id"]).execute()
    for msg in list_all(c.gmail.users().messages().list, "messages", userId="me", includeSpamTrash=False):
        c.gmail.users().messages().trash(userId="me", id=msg["id"]).execute()
    for draft in list_all(c.gmail.users().drafts().list, "drafts", userId="me"):
        c.gmail.users().drafts().delete(userId="me", id=draft["id"]).execute()
    for label in c.gmail.users().labels().list(userId="me").execute().get("labels", []):
        if label.get("type") == "user":
            c.gmail.users().labels().delete(userId="me", id=label["id"]).execute()
    for f in list_all(c.drive.files().list, "files", q="'me' in owners", fields="nextPageToken, files(id)"):
        c.drive.files().delete(fileId=f["id"]).execute()


@reset_step("google.snapshot")
def google_snapshot(ctx: StepContext, name: str) -> None:
    """Save the emulator's current state as ``name`` (for ``google.reset: {snapshot: name}``)."""
    host = google_host(ctx)
    if host.get("backend") != "emulator":
        raise StepFailed("google.snapshot works only on the emulator backend")
    host["emulator"].snapshot(name)


# --- Calendar --------------------------------------------------------------------


class EventSpec(BaseModel):
    """One event to create. ``start``/``end``: absolute or relative times; a date alone makes an
    all-day event (end exclusive). ``repeat`` > 1 creates copies, ``{i}`` in text becomes 1..n,
    each copy ``repeat_every_minutes`` later."""

    model_config = ConfigDict(extra="forbid")
    summary: str
    start: RelTime
    end: RelTime | None = None
    """Default: one hour after start (the next day for all-day events)."""
    description: str | None = None
    location: str | None = None
    attendees: list[str] = Field(default_factory=list)
    recurrence: list[str] = Field(default_factory=list)
    """RRULE lines, e.g. ["RRULE:FREQ=WEEKLY;COUNT=5"]."""
    time_zone: str | None = None
    """Zone of wall times (default: the calendar's)."""
    repeat: int = Field(1, ge=1, le=2000)
    repeat_every_minutes: int = 1440


@reset_step("google.calendar_events")
def calendar_events(ctx: StepContext, events: list[EventSpec], calendar: str = "primary",
                    time_zone: str | None = None) -> None:
    """Create events in ``calendar`` ("primary", or a calendar's name: created if missing).
    ``time_zone`` (IANA name) first sets the calendar's own time zone."""
    _require_reset(ctx)
    cal = clients(ctx).calendar
    cal_id = calendar_id(ctx, calendar, create=True)
    if time_zone:
        cal.calendars().patch(calendarId=cal_id, body={"timeZone": time_zone}).execute()
    default_tz = time_zone or calendar_tz(ctx, cal_id)
    for spec in events:
        tz = spec.time_zone or default_tz
        start = when.resolve(spec.start, tz, anchor(ctx))
        if spec.end is not None:
            end = when.resolve(spec.end, tz, anchor(ctx))
        else:
            end = start + (timedelta(hours=1) if isinstance(start, datetime) else timedelta(days=1))
        for i in range(1, spec.repeat + 1):
            shift = timedelta(minutes=spec.repeat_every_minutes * (i - 1))
            body: dict[str, Any] = {
                "summary": _repeat(spec.repeat, spec.summary, i),
                "start": when.event_time(start + shift, tz), "end": when.event_time(end + shift, tz),
            }
            if spec.description is not None:
                body["description"] = _repeat(spec.repeat, spec.description, i)
            if spec.location is not None:
                body["location"] = spec.location
            if spec.attendees:
                body["attendees"] = [{"email": a} for a in spec.attendees]
            if spec.recurrence:
                body["recurrence"] = spec.recurrence
            cal.events().insert(calendarId=cal_id, body=body).execute()


@reset_step("google.clear_calendar")
def clear_calendar(ctx: StepContext, calendar: str = "primary") -> None:
    """Delete every event of a calendar ("primary" or a calendar's name or id)."""
    cal = clients(ctx).calendar
    cal_id = calendar_id(ctx, calendar)
    if cal_id == "primary":
        cal.calendars().clear(calendarId="primary").execute()
        return
    for event in list_all(cal.events().list, "items", calendarId=cal_id):
        cal.events().delete(calendarId=cal_id, eventId=event["id"]).execute()


# --- Gmail -----------------------------------------------------------------------


class Attachment(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    content: str | None = None
    """Text content; or ``src``, a fixture file."""
    src: str | None = None


class EmailSpec(BaseModel):
    """One message placed in the mailbox (as if received, or sent when labels has SENT).
    ``repeat`` > 1 makes copies with ``{i}`` replaced by 1..n, each a minute older."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    from_: str = Field("someone@example.com", alias="from")
    to: list[str] | str | None = None
    """Default: the account itself."""
    cc: list[str] | str | None = None
    subject: str = ""
    body: str = ""
    date: RelTime | None = None
    """Default: now. Relative forms like "yesterday 09:00" (UTC) work."""
    labels: list[str] = Field(default_factory=lambda: ["INBOX", "UNREAD"])
    """System labels (INBOX, UNREAD, STARRED, IMPORTANT, SENT, ...) or user label names (created)."""
    attachments: list[Attachment] = Field(default_factory=list)
    repeat: int = Field(1, ge=1, le=2000)


_SYSTEM_LABELS = {"INBOX", "UNREAD", "STARRED", "IMPORTANT", "SENT", "DRAFT", "SPAM", "TRASH",
                  "CATEGORY_PERSONAL", "CATEGORY_SOCIAL", "CATEGORY_PROMOTIONS", "CATEGORY_UPDATES",
                  "CATEGORY_FORUMS"}


def label_ids(ctx: StepContext, names: list[str], create: bool = True) -> list[str]:
    gmail = clients(ctx).gmail
    existing = {lab["name"].lower(): lab["id"]
                for lab in gmail.users().labels().list(userId="me").execute().get("labels", [])}
    out = []
    for name in names:
        if name.upper() in _SYSTEM_LABELS:
            out.append(name.upper())
        elif name.lower() in existing:
            out.append(existing[name.lower()])
        elif create:
            made = gmail.users().labels().create(userId="me", body={"name": name}).execute()
            existing[name.lower()] = made["id"]
            out.append(made["id"])
        else:
            raise LookupError(f"no Gmail label {name!r}; labels: {sorted(existing)}")
    return out


def _addr(value: list[str] | str | None) -> str:
    return value if isinstance(value, str) else ", ".join(value or [])


def _build_email(ctx: StepContext, spec: EmailSpec, i: int, moment: datetime, user: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = _repeat(spec.repeat, spec.from_, i) or ""
    msg["To"] = _addr(spec.to) or user
    if spec.cc:
        msg["Cc"] = _addr(spec.cc)
    msg["Subject"] = _repeat(spec.repeat, spec.subject, i) or ""
    msg["Date"] = format_datetime(moment)
    msg.set_content(_repeat(spec.repeat, spec.body, i) or "")
    for att in spec.attachments:
        if att.src is not None:
            data = fixture(ctx, att.src).read_bytes()
        else:
            data = (att.content or "").encode()
        ctype = mimetypes.guess_type(att.name)[0] or "application/octet-stream"
        maintype, subtype = ctype.split("/", 1)
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=att.name)
    return msg.as_bytes()


def _insert_raw(ctx: StepContext, raw: bytes, labels: list[str]) -> None:
    clients(ctx).gmail.users().messages().insert(
        userId="me", internalDateSource="dateHeader",
        body={"raw": base64.urlsafe_b64encode(raw).decode(), "labelIds": labels}).execute()


@reset_step("google.emails")
def emails(ctx: StepContext, messages: list[EmailSpec] = [], eml: list[str] = [],  # noqa: B006 - pydantic copies
           eml_labels: list[str] = ["INBOX", "UNREAD"]) -> None:  # noqa: B006
    """Put messages in the mailbox: ``messages`` written inline, and/or ``eml`` fixture files
    (glob patterns in the suite's files/, RFC 2822) labelled ``eml_labels``. Dates come from
    the Date headers, so searches like ``after:`` work."""
    _require_reset(ctx)
    gmail = clients(ctx).gmail
    user = gmail.users().getProfile(userId="me").execute()["emailAddress"]
    for spec in messages:
        labels = label_ids(ctx, spec.labels)
        base = when.resolve(spec.date, "UTC", anchor(ctx)) if spec.date else anchor(ctx)
        if not isinstance(base, datetime):
            base = datetime.combine(base, datetime.min.time(), UTC).replace(hour=12)
        for i in range(1, spec.repeat + 1):
            _insert_raw(ctx, _build_email(ctx, spec, i, base - timedelta(minutes=i - 1), user), labels)
    for pattern in eml:
        root = fixture(ctx, ".")
        paths = sorted(glob.glob(str(root / pattern)))
        if not paths:
            raise StepFailed(f"google.emails: no .eml fixture matches {pattern!r} in {root}")
        labels = label_ids(ctx, eml_labels)
        for path in paths:
            _insert_raw(ctx, fixture(ctx, str(path)).read_bytes(), labels)


@reset_step("google.labels")
def labels(ctx: StepContext, names: list[str]) -> None:
    """Create Gmail user labels (nested ones as "Parent/Child")."""
    _require_reset(ctx)
    label_ids(ctx, names, create=True)


@reset_step("google.drafts")
def drafts(ctx: StepContext, messages: list[EmailSpec]) -> None:
    """Create draft messages (``from`` defaults to the account; labels are ignored)."""
    _require_reset(ctx)
    gmail = clients(ctx).gmail
    user = gmail.users().getProfile(userId="me").execute()["emailAddress"]
    for spec in messages:
        if "from_" not in spec.model_fields_set:
            spec = spec.model_copy(update={"from_": user})
        for i in range(1, spec.repeat + 1):
            raw = _build_email(ctx, spec, i, anchor(ctx), user)
            gmail.users().drafts().create(userId="me", body={
                "message": {"raw": base64.urlsafe_b64encode(raw).decode()}}).execute()


# --- Drive -----------------------------------------------------------------------


class DriveFileSpec(BaseModel):
    """A Drive file or folder. ``parent``: a folder path like "Projects/2024" (created)."""

    model_config = ConfigDict(extra="forbid")
    name: str
    mime_type: str = "text/plain"
    """A MIME type, or folder / document / spreadsheet / presentation / form."""
    parent: str = ""
    content: str | None = None
    src: str | None = None
    """A fixture file to upload instead of ``content``."""
    trashed: bool = False
    starred: bool = False
    description: str | None = None
    repeat: int = Field(1, ge=1, le=2000)


@reset_step("google.drive_files")
def drive_files(ctx: StepContext, files: list[DriveFileSpec]) -> None:
    """Create Drive files and folders (``{i}`` in name/content with ``repeat``)."""
    from googleapiclient.http import MediaInMemoryUpload

    _require_reset(ctx)
    drive = clients(ctx).drive
    for spec in files:
        mime = MIME_SHORT.get(spec.mime_type, spec.mime_type)
        parent = folder_path(ctx, spec.parent, create=True)
        data = fixture(ctx, spec.src).read_bytes() if spec.src else None
        for i in range(1, spec.repeat + 1):
            body: dict[str, Any] = {"name": _repeat(spec.repeat, spec.name, i), "mimeType": mime,
                                    "parents": [parent]}
            if spec.starred:
                body["starred"] = True
            if spec.description is not None:
                body["description"] = spec.description
            content = data if data is not None else (
                _repeat(spec.repeat, spec.content, i).encode() if spec.content is not None else None)
            if content is not None and mime != FOLDER and not mime.startswith("application/vnd.google-apps"):
                media = MediaInMemoryUpload(content, mimetype=mime)
                made = drive.files().create(body=body, media_body=media, fields="id").execute()
            else:
                made = drive.files().create(body=body, fields="id").execute()
            if spec.trashed:
                drive.files().update(fileId=made["id"], body={"trashed": True}).execute()


# --- Sheets / Docs / Slides / Forms ----------------------------------------------


def _place(ctx: StepContext, file_id: str, parent: str) -> None:
    if not parent:
        return
    folder = folder_path(ctx, parent, create=True)
    drive = clients(ctx).drive
    meta = drive.files().get(fileId=file_id, fields="parents").execute()
    drive.files().update(fileId=file_id, addParents=folder,
                         removeParents=",".join(meta.get("parents", [])), fields="id").execute()


@reset_step("google.spreadsheet")
def spreadsheet(ctx: StepContext, title: str, sheets: dict[str, list[list[Any]] | str] = {"Sheet1": []},  # noqa: B006
                parent: str = "") -> None:
    """Create a spreadsheet with tabs and their rows from A1 (entered as typed: numbers,
    booleans and "=formulas" are parsed); a tab's value may instead name a CSV fixture file.
    ``parent``: a Drive folder path."""
    import csv

    _require_reset(ctx)
    sheets = {name: list(csv.reader(fixture(ctx, rows).read_text(encoding="utf-8").splitlines()))
              if isinstance(rows, str) else rows for name, rows in sheets.items()}
    api = clients(ctx).sheets
    body = {"properties": {"title": title}, "sheets": [{"properties": {"title": name}} for name in sheets]}
    sid = api.spreadsheets().create(body=body, fields="spreadsheetId").execute()["spreadsheetId"]
    data = [{"range": f"'{name}'!A1", "values": rows} for name, rows in sheets.items() if rows]
    if data:
        api.spreadsheets().values().batchUpdate(spreadsheetId=sid, body={
            "valueInputOption": "USER_ENTERED", "data": data}).execute()
    _place(ctx, sid, parent)


@reset_step("google.document")
def document(ctx: StepContext, title: str, paragraphs: list[str] = [], bold: list[str] = [],  # noqa: B006
             parent: str = "") -> None:
    """Create a Google Doc with one paragraph per item; every occurrence of a ``bold`` text is bold."""
    _require_reset(ctx)
    api = clients(ctx).docs
    doc_id = api.documents().create(body={"title": title}).execute()["documentId"]
    text = "".join(p + "\n" for p in paragraphs)
    requests: list[dict[str, Any]] = []
    if text:
        requests.append({"insertText": {"location": {"index": 1}, "text": text.removesuffix("\n")}})
    for phrase in bold:
        start = text.find(phrase)
        if start < 0:
            raise StepFailed(f"google.document: bold text {phrase!r} is in no paragraph")
        while start >= 0:
            requests.append({"updateTextStyle": {
                "range": {"startIndex": 1 + _utf16(text[:start]), "endIndex": 1 + _utf16(text[:start + len(phrase)])},
                "textStyle": {"bold": True}, "fields": "bold"}})
            start = text.find(phrase, start + len(phrase))
    if requests:
        api.documents().batchUpdate(documentId=doc_id, body={"requests": requests}).execute()
    _place(ctx, doc_id, parent)


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


class SlideSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str
    body: str | None = None


@reset_step("google.presentation")
def presentation(ctx: StepContext, title: str, slides: list[SlideSpec] = [], parent: str = "") -> None:  # noqa: B006
    """Create a presentation whose slides have a title (and a body text when given)."""
    _require_reset(ctx)
    api = clients(ctx).slides
    pres = api.presentations().create(body={"title": title}).execute()
    pid = pres["presentationId"]
    requests: list[dict[str, Any]] = [{"deleteObject": {"objectId": s["objectId"]}} for s in pres.get("slides", [])]
    for n, spec in enumerate(slides):
        layout = "TITLE_AND_BODY" if spec.body is not None else "TITLE_ONLY"
        mappings = [{"layoutPlaceholder": {"type": "TITLE"}, "objectId": f"slide_{n:03d}_title"}]
        if spec.body is not None:
            mappings.append({"layoutPlaceholder": {"type": "BODY"}, "objectId": f"slide_{n:03d}_body"})
        requests.append({"createSlide": {"objectId": f"slide_{n:03d}", "insertionIndex": n,
                                         "slideLayoutReference": {"predefinedLayout": layout},
                                         "placeholderIdMappings": mappings}})
        requests.append({"insertText": {"objectId": f"slide_{n:03d}_title", "text": spec.title}})
        if spec.body:
            requests.append({"insertText": {"objectId": f"slide_{n:03d}_body", "text": spec.body}})
    if requests:
        api.presentations().batchUpdate(presentationId=pid, body={"requests": requests}).execute()
    _place(ctx, pid, parent)


class QuestionSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str
    kind: Literal["text", "paragraph", "radio", "checkbox", "dropdown", "scale"] = "text"
    options: list[str] = Field(default_factory=list)
    required: bool = False


def question_item(spec: QuestionSpec) -> dict[str, Any]:
    """The Forms API item for a question spec (used by the judges' feedback too)."""
    question: dict[str, Any] = {"required": spec.required}
    if spec.kind in ("text", "paragraph"):
        question["textQuestion"] = {"paragraph": spec.kind == "paragraph"}
    elif spec.kind == "scale":
        question["scaleQuestion"] = {"low": 1, "high": 5}
    else:
        question["choiceQuestion"] = {"type": {"radio": "RADIO", "checkbox": "CHECKBOX", "dropdown": "DROP_DOWN"}[spec.kind],
                                      "options": [{"value": o} for o in spec.options]}
    return {"title": spec.title, "questionItem": {"question": question}}


@reset_step("google.form")
def form(ctx: StepContext, title: str, questions: list[QuestionSpec] = [], description: str = "",  # noqa: B006
         responses: list[dict[str, str | list[str]]] = []) -> None:  # noqa: B006
    """Create a form with questions; ``responses`` (emulator only: the API cannot submit) are
    answers keyed by question title, e.g. ``{"Name": "Ann", "Topics": ["A", "B"]}``."""
    _require_reset(ctx)
    api = clients(ctx).forms
    fid = api.forms().create(body={"info": {"title": title}}).execute()["formId"]
    requests: list[dict[str, Any]] = []
    if description:
        requests.append({"updateFormInfo": {"info": {"description": description}, "updateMask": "description"}})
    for n, spec in enumerate(questions):
        requests.append({"createItem": {"item": question_item(spec), "location": {"index": n}}})
    if requests:
        api.forms().batchUpdate(formId=fid, body={"requests": requests}).execute()
    if responses:
        host = google_host(ctx)
        if host.get("backend") != "emulator":
            raise StepFailed("google.form responses can only be seeded on the emulator backend")
        from ..toolkits.google.emulator.forms import submit_response

        store = host["emulator"].store
        for n, answers in enumerate(responses):
            with store.lock:
                submit_response(store, fid, answers, respondent_email=f"respondent{n + 1}@example.com")
