"""google.event_match and google.message_match: an event or a mail matched field by field, exactly.

The other google.* judges match loosely (titles case-insensitive, bodies by contained text). These
two decide as AgentStudio's Calendar and Gmail evaluators do, so tasks imported from it keep their
verdicts: every field given must be equal (a body after stripping), an event's colour, reminders,
recurrence and attendees included, and a search is scoped as AgentStudio scopes it (all mail or
the drafts; the trash only when asked; ``folder`` as Gmail's ``in:``).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Literal

from ...reset_scripts.google.account import calendar_id, clients, list_all
from ...runtime.tasks.helpers import clip, short
from ...runtime.tasks.steps import StepContext, Verdict, judge
from ._lookup import _events

_EMAIL = re.compile(r"[\w.-]+@[\w.-]+")


def first_email(text: str) -> str | None:
    """The first address in a header's text, as AgentStudio's ``extract_email`` reads it."""
    found = _EMAIL.findall(text)
    return found[0] if found else None


def instant(text: str) -> datetime:
    """An ISO date-time as AgentStudio's ``time_match`` reads it ("Z" is UTC; no zone: local time)."""
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


def _reminder_keys(reminders: dict) -> set[str]:
    return {f"{r.get('method')}:{r.get('minutes')}" for r in reminders.get("overrides", [])}


def event_differences(ev: dict, summary: str, start: str, end: str, description: str | None,
                      location: str | None, attendees: list[str] | None, color_id: str | None,
                      reminders: list[str] | None, reminders_use_default: bool | None,
                      recurrence: list[str] | None) -> list[str]:
    """What keeps ``ev`` from matching (empty: it matches). Texts compare exactly; start and end
    must be date-times (an all-day event never matches) at the same instant."""
    out = []
    for name, want in (("summary", summary), ("description", description), ("location", location)):
        if want is not None and ev.get(name) != want:
            out.append(f"{name} {ev.get(name)!r} instead of {want!r}")
    for name, want in (("start", start), ("end", end)):
        have = (ev.get(name) or {}).get("dateTime")
        if have is None or instant(have) != instant(want):
            out.append(f"{name} {ev.get(name)} instead of {want}")
    if color_id is not None and ev.get("colorId") != color_id:
        out.append(f"colorId {ev.get('colorId')!r} instead of {color_id!r}")
    if recurrence is not None and ev.get("recurrence") != recurrence:
        out.append(f"recurrence {ev.get('recurrence')} instead of {recurrence}")
    if attendees is not None and {a.get("email") for a in ev.get("attendees") or []} != set(attendees):
        out.append(f"attendees {sorted(a.get('email', '') for a in ev.get('attendees') or [])} instead of {sorted(attendees)}")
    if reminders is not None:
        have = ev.get("reminders") or {}
        if have.get("useDefault") != reminders_use_default or _reminder_keys(have) != set(reminders):
            out.append(f"reminders {have} instead of useDefault {reminders_use_default}, overrides {reminders}")
    return out


@judge("google.event_match")
def event_match(ctx: StepContext, summary: str, start: str, end: str, description: str | None = None,
                location: str | None = None, attendees: list[str] | None = None, color_id: str | None = None,
                reminders: list[str] | None = None, reminders_use_default: bool | None = None,
                recurrence: list[str] | None = None, exists: bool = True, calendar: str = "primary") -> Verdict:
    """An event between ``start`` and ``end`` (ISO date-times) matches every field given exactly:
    ``summary``, ``description``, ``location`` (case and spaces count), the start and end instants,
    ``color_id``, ``recurrence`` (the same rules in order), ``attendees`` (the same set of
    addresses), ``reminders`` ("popup:30": the same overrides) with ``reminders_use_default``.
    ``exists: false``: no such event. AgentStudio's check_event_exists decides this way."""
    try:
        cal_id = calendar_id(ctx, calendar)
    except LookupError as exc:
        return Verdict.fail(str(exc))
    lo, hi = instant(start), instant(end)
    near = []
    for ev in _events(ctx, cal_id):
        ev_start, ev_end = (ev.get("start") or {}).get("dateTime"), (ev.get("end") or {}).get("dateTime")
        if ev_start is None or ev_end is None or not (instant(ev_end) > lo and instant(ev_start) < hi):
            continue  # all-day (never matches) or outside the window AgentStudio searches (timeMin/timeMax)
        problems = event_differences(ev, summary, start, end, description, location, attendees, color_id,
                                     reminders, reminders_use_default, recurrence)
        if not problems:
            if exists:
                return Verdict.ok(f"event {summary!r} matches every field", event_id=ev["id"])
            return Verdict.fail(f"event {summary!r} ({start} - {end}) still exists")
        near.append(f"{ev.get('summary')!r}: " + "; ".join(problems))
    if not exists:
        return Verdict.ok(f"no event matching {summary!r} between {start} and {end}")
    if not near:
        return Verdict.fail(f"no event between {start} and {end} (looking for {summary!r})")
    return Verdict.fail(f"no event between {start} and {end} matches {summary!r}: " + " | ".join(near[:3]))


def _mail(ctx: StepContext, message_id: str) -> dict:
    from ...toolkits.google.api import message_fields  # googleapiclient: only when the judge runs

    raw = clients(ctx).gmail.users().messages().get(userId="me", id=message_id, format="full").execute()
    fields = message_fields(raw)
    headers = {h["name"].lower(): h["value"] for h in raw.get("payload", {}).get("headers", [])}
    fields.update(to_header=headers.get("to", ""), cc_header=headers.get("cc"))
    return fields


def mail_differences(m: dict, recipient: str | None, subject: str | None, body: str | None,
                     cc: str | None, attachment: str | None) -> list[str]:
    """AgentStudio's ``message_match``: the first To address, the stripped body, and the subject,
    Cc header and first attachment's name, each exactly."""
    out = []
    if recipient is not None and first_email(m["to_header"]) != first_email(recipient):
        out.append(f"to {m['to_header']!r} instead of {recipient!r}")
    if body is not None and m["body"].strip() != body.strip():
        out.append(f"body {clip(short(m['body'], 120))} instead of {clip(body, 120)}")
    if subject is not None and m["subject"] != subject:
        out.append(f"subject {m['subject']!r} instead of {subject!r}")
    if cc is not None and m["cc_header"] != cc:
        out.append(f"cc {m['cc_header']!r} instead of {cc!r}")
    first_attachment = m["attachments"][0] if m["attachments"] else None
    if attachment is not None and first_attachment != attachment:
        out.append(f"attachment {first_attachment!r} instead of {attachment!r}")
    return out


@judge("google.message_match")
def message_match(ctx: StepContext, subject: str | None = None, recipient: str | None = None,
                  body: str | None = None, cc: str | None = None, attachment: str | None = None,
                  source: Literal["messages", "drafts"] = "messages", folder: str | None = None,
                  include_trash: bool = False, exists: bool | None = True, label: str | None = None,
                  labelled: bool = True) -> Verdict:
    """Mails (``source``: every message, or the drafts) matching every field given exactly: the
    first address of To equals ``recipient``'s, the stripped body ``body``, the subject, the Cc
    header and the first attachment's name. ``folder``: only messages with that label (Gmail's
    ``in:``, e.g. sent, draft); the trash and spam count only with ``include_trash``.
    ``exists``: whether one must match (null: no requirement); ``label``: every match has it
    (``labelled: false``: none has it). AgentStudio's Gmail evaluators decide this way."""
    gmail = clients(ctx).gmail
    if source == "drafts":
        ids = [d["message"]["id"] for d in list_all(gmail.users().drafts().list, "drafts", userId="me")]
    else:
        ids = [m["id"] for m in list_all(gmail.users().messages().list, "messages", userId="me",
                                         maxResults=500, includeSpamTrash=include_trash)]
    mails = [_mail(ctx, i) for i in ids]
    if not include_trash:
        mails = [m for m in mails if not {"TRASH", "SPAM"} & set(m["labels"])]
    if folder is not None:
        want = {"draft": "DRAFT", "drafts": "DRAFT"}.get(folder.lower(), folder.upper())
        mails = [m for m in mails if want in m["labels"]]
    where = f"{source}{f' in {folder}' if folder else ''}"
    matches, near = [], []
    for m in mails:
        problems = mail_differences(m, recipient, subject, body, cc, attachment)
        (near.append(f"{m['subject']!r}: " + "; ".join(problems)) if problems else matches.append(m))
    if exists is not None and bool(matches) != exists:
        if exists:
            return Verdict.fail(f"no {where} matches subject {subject!r}"
                                + (": " + " | ".join(near[:3]) if near else f" (there are {len(mails)})"))
        return Verdict.fail(f"{len(matches)} {where} still match subject {subject!r}")
    if label is not None:
        wrong = [m for m in matches if (label.upper() in m["labels"]) != labelled]
        if wrong:
            return Verdict.fail(f"{len(wrong)} of {len(matches)} matching mails {'lack' if labelled else 'have'}"
                                f" {label.upper()} (labels {wrong[0]['labels']})")
    return Verdict.ok(f"{len(matches)} {where} match subject {subject!r}" if matches else f"no {where} matches")


@judge("google.label_exists")
def label_exists(ctx: StepContext, name: str, exists: bool = True) -> Verdict:
    """A Gmail label called ``name`` (case-insensitive) exists, or with ``exists: false`` none does.
    AgentStudio's check_label_exists decides this way."""
    labels = clients(ctx).gmail.users().labels().list(userId="me").execute().get("labels", [])
    found = any(lab["name"].lower() == name.lower() for lab in labels)
    if found == exists:
        return Verdict.ok(f"label {name!r} {'exists' if found else 'does not exist'}")
    return Verdict.fail(f"label {name!r} {'still exists' if found else 'does not exist'}; labels:"
                        f" {sorted(lab['name'] for lab in labels if lab.get('type') == 'user')}")


def _run_format(doc: dict, text: str) -> dict | None:
    """The font and size of the first text run containing ``text``, a run without its own taking the
    NORMAL_TEXT style's (AgentStudio's ``find_text_format``)."""
    normal = next((s.get("textStyle", {}) for s in doc.get("namedStyles", {}).get("styles", [])
                   if s.get("namedStyleType") == "NORMAL_TEXT"), {})
    for element in doc.get("body", {}).get("content", []):
        for part in element.get("paragraph", {}).get("elements", []):
            run = part.get("textRun")
            if run and text in run.get("content", ""):
                style = run.get("textStyle", {})
                return {"font": style.get("weightedFontFamily", {}).get(
                            "fontFamily", normal.get("weightedFontFamily", {}).get("fontFamily")),
                        "size": style.get("fontSize", {}).get("magnitude", normal.get("fontSize", {}).get("magnitude"))}
    return None


@judge("google.text_format")
def text_format(ctx: StepContext, title: str, text: str, font: str | None = None, size: float | None = None) -> Verdict:
    """In a Google Doc titled ``title`` (trashed ones too), the first text run containing ``text``
    has the font family ``font`` and the size ``size`` (pt); a run without its own font or size
    takes the NORMAL_TEXT style's. The first document holding the text decides. AgentStudio's
    text_format_match decides this way."""
    from ...reset_scripts.google.account import drive_find

    docs = drive_find(ctx, title, "application/vnd.google-apps.document", None, None)
    if not docs:
        return Verdict.fail(f"no document titled {title!r}")
    for f in docs:
        doc = clients(ctx).docs.documents().get(documentId=f["id"]).execute()
        found = _run_format(doc, text)
        if found is None:
            continue
        if font and found["font"] != font:
            return Verdict.fail(f"{text!r} in {title!r} is in {found['font']!r}, not {font!r}")
        if size and found["size"] != size:
            return Verdict.fail(f"{text!r} in {title!r} is {found['size']} pt, not {size} pt")
        return Verdict.ok(f"{text!r} in {title!r} has the expected font and size")
    return Verdict.fail(f"no document titled {title!r} contains {text!r}")
