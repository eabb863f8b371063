"""google.emails, google.labels and google.drafts: seed the mailbox (built messages or .eml fixtures)."""

from __future__ import annotations

import base64
import glob
import mimetypes
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime

from pydantic import BaseModel, ConfigDict, Field

from ...runtime.tasks.helpers import fixture
from ...runtime.tasks.steps import StepContext, StepFailed, reset_step
from ...toolkits.google import when
from .account import RelTime, _repeat, _require_reset, anchor, clients


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
