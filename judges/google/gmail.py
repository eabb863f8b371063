"""google.* judges on Gmail: sent mails and drafts, labels and read state, and a mail's cc, bcc and attachments."""

from __future__ import annotations

from email.utils import getaddresses
from typing import Any, Literal

from ...reset_scripts.google.account import clients, drive_find, list_all
from ...reset_scripts.google.gmail import label_ids
from ...runtime.tasks.helpers import clip, short
from ...runtime.tasks.steps import StepContext, Verdict, judge
from ._lookup import _as_list, _lower_set, _nearest


def _messages(ctx: StepContext, **params: Any) -> list[dict]:
    # googleapiclient: imported only when a Gmail judge runs
    from ...toolkits.google.api import message_fields

    gmail = clients(ctx).gmail
    refs = list_all(gmail.users().messages().list, "messages", userId="me", maxResults=500, **params)
    return [message_fields(gmail.users().messages().get(userId="me", id=m["id"], format="full").execute())
            for m in refs]


def _mail_problems(m: dict, to: list[str] | None, cc: list[str] | None, subject_contains: str | None,
                   body_contains: list[str], attachment: str | None,
                   body_excludes: list[str] = (), only_to: bool = False) -> list[str]:
    problems = []
    if to is not None and not _lower_set(to) <= _lower_set(m["to"]):
        problems.append(f"is addressed to {m['to']} instead of {to}")
    elif to is not None and only_to and _lower_set(m["to"]) - _lower_set(to):
        problems.append(f"is also addressed to {sorted(_lower_set(m['to']) - _lower_set(to))}")
    for text in body_excludes:
        if text.lower() in m["body"].lower():
            problems.append(f"has a body that should not contain {text!r}")
    if cc is not None and not _lower_set(cc) <= _lower_set(m["cc"]):
        problems.append(f"has cc {m['cc']} instead of {cc}")
    if subject_contains is not None and subject_contains.lower() not in m["subject"].lower():
        problems.append(f"has subject {m['subject']!r} (without {subject_contains!r})")
    for text in body_contains:
        if text.lower() not in m["body"].lower():
            problems.append(f"has a body without {text!r}: {clip(short(m['body'], 160))}")
    if attachment is not None and attachment not in m["attachments"]:
        problems.append(f"has attachments {m['attachments']} instead of {attachment!r}")
    return problems


def _mail_verdict(found: list[dict], what: str, **want: Any) -> Verdict:
    if not found:
        return Verdict.fail(f"there are no {what}")
    reports = []
    for m in found:
        problems = _mail_problems(m, **want)
        if not problems:
            return Verdict.ok(f"found the expected {what[:-1]} {m['subject']!r} to {m['to']}", message_id=m["id"])
        reports.append(f"{m['subject']!r} " + "; ".join(problems))
    shown = " | ".join(reports[:3]) + (f" (and {len(reports) - 3} more)" if len(reports) > 3 else "")
    return Verdict.fail(f"none of the {len(found)} {what} matches: {shown}")


@judge("google.email_sent")
def email_sent(ctx: StepContext, to: str | list[str], subject_contains: str | None = None,
               body_contains: str | list[str] | None = None, cc: str | list[str] | None = None,
               attachment: str | None = None, link_to: str | None = None, count: int | None = None,
               only_to: bool = False, body_excludes: str | list[str] | None = None,
               not_link_to: str | list[str] | None = None) -> Verdict:
    """A sent message addressed to ``to`` (all of them, among To) with a subject and body containing
    the texts (case-insensitive), cc'ing ``cc`` and carrying the attachment named ``attachment``.
    ``link_to``: the name of a Drive file whose web link (webViewLink) the body must contain.
    ``count``: exactly this many sent messages match. ``only_to``: no To recipient beyond ``to``.
    ``body_excludes`` / ``not_link_to``: texts / Drive files' links the body must not contain."""
    bodies = _as_list(body_contains)
    excludes = _as_list(body_excludes)
    for name in _as_list(not_link_to):
        excludes += [f["webViewLink"] for f in drive_find(ctx, name, None, None, False)]
    if link_to is not None:
        files = drive_find(ctx, link_to, None, None, False)
        if not files:
            return Verdict.fail(f"the judge needs the Drive file {link_to!r}, which does not exist")
        bodies = [*bodies, files[0]["webViewLink"]]
    sent = _messages(ctx, labelIds=["SENT"])
    want = {"to": _as_list(to), "cc": _as_list(cc) if cc is not None else None,
            "subject_contains": subject_contains, "body_contains": bodies, "attachment": attachment,
            "body_excludes": excludes, "only_to": only_to}
    if count is not None:
        matching = [m for m in sent if not _mail_problems(m, **want)]
        if len(matching) != count:
            return Verdict.fail(f"{len(matching)} sent messages match, expected {count} "
                                f"(sent subjects: {[m['subject'] for m in sent][:8]})")
    return _mail_verdict(sent, "sent messages", **want)


@judge("google.draft_exists")
def draft_exists(ctx: StepContext, to: str | list[str] | None = None, subject_contains: str | None = None,
                 body_contains: str | list[str] | None = None) -> Verdict:
    """A draft (not sent) addressed to ``to`` whose subject and body contain the texts."""
    # googleapiclient: imported only when a Gmail judge runs
    from ...toolkits.google.api import message_fields

    gmail = clients(ctx).gmail
    found = []
    for d in list_all(gmail.users().drafts().list, "drafts", userId="me"):
        full = gmail.users().drafts().get(userId="me", id=d["id"], format="full").execute()
        found.append(message_fields(full["message"]))
    return _mail_verdict(found, "drafts", to=_as_list(to) if to is not None else None, cc=None,
                         subject_contains=subject_contains, body_contains=_as_list(body_contains), attachment=None)


def _label_names(ctx: StepContext) -> dict[str, str]:
    labels = clients(ctx).gmail.users().labels().list(userId="me").execute().get("labels", [])
    return {lab["id"]: lab["name"] for lab in labels}


def _select(messages: list[dict], subject_contains: str | None, from_contains: str | None) -> list[dict]:
    return [m for m in messages
            if (subject_contains is None or subject_contains.lower() in m["subject"].lower())
            and (from_contains is None or from_contains.lower() in m["from"].lower())]


@judge("google.label_applied")
def label_applied(ctx: StepContext, label: str, subject_contains: str | None = None,
                  from_contains: str | None = None, only: bool = False) -> Verdict:
    """Every message whose subject/sender contain the texts carries the Gmail label ``label``
    (a user label name or a system label); with ``only``, no other message carries it."""
    names = _label_names(ctx)
    try:
        (lab_id,) = label_ids(ctx, [label], create=False)
    except LookupError:
        return Verdict.fail(f"there is no label {label!r}; " + _nearest(label, sorted(set(names.values())), "labels"))
    everything = _messages(ctx, includeSpamTrash=True)
    chosen = _select(everything, subject_contains, from_contains)
    if not chosen:
        return Verdict.fail(f"no message has a subject containing {subject_contains!r} and a sender containing "
                            f"{from_contains!r} (the judge's selection is empty)")
    missing = [m for m in chosen if lab_id not in m["labels"]]
    if missing:
        shown = [(m["subject"], [names.get(x, x) for x in m["labels"]]) for m in missing[:3]]
        return Verdict.fail(f"{len(missing)} of {len(chosen)} selected messages lack label {label!r}: {shown}")
    if only:
        extra = [m for m in everything if lab_id in m["labels"] and m not in chosen]
        if extra:
            return Verdict.fail(f"label {label!r} is also on {len(extra)} other message(s), e.g. "
                                f"{[m['subject'] for m in extra[:3]]}")
    return Verdict.ok(f"all {len(chosen)} selected messages carry label {label!r}")


@judge("google.email_state")
def email_state(ctx: StepContext, subject_contains: str | None = None, from_contains: str | None = None,
                has_labels: list[str] = [], lacks_labels: list[str] = []) -> Verdict:  # noqa: B006 - pydantic copies
    """Every message selected by subject/sender text has all of ``has_labels`` and none of
    ``lacks_labels`` (e.g. lacks UNREAD = read, lacks INBOX = archived, has TRASH = trashed, STARRED)."""
    names = _label_names(ctx)
    by_name = {v.lower(): k for k, v in names.items()}

    def ident(name: str) -> str:
        return by_name.get(name.lower(), name.upper())

    chosen = _select(_messages(ctx, includeSpamTrash=True), subject_contains, from_contains)
    if not chosen:
        return Verdict.fail(f"no message has a subject containing {subject_contains!r} and a sender "
                            f"containing {from_contains!r}")
    for m in chosen:
        have = set(m["labels"])
        lacking = [n for n in has_labels if ident(n) not in have]
        extra = [n for n in lacks_labels if ident(n) in have]
        if lacking or extra:
            shown = sorted(names.get(x, x) for x in have)
            what = "; ".join(filter(None, [lacking and f"lacks {lacking}", extra and f"still has {extra}"]))
            return Verdict.fail(f"message {m['subject']!r} {what} (its labels: {shown})")
    return Verdict.ok(f"all {len(chosen)} selected messages have the expected labels")


def _parts(part: dict) -> list[dict]:
    return [part] + [p for sub in part.get("parts", []) for p in _parts(sub)]


def mail_view(msg: dict) -> dict[str, Any]:
    """Addresses per header (lower case) and attachments (name -> MIME type) of a format=full message."""
    headers = {h["name"].lower(): h["value"] for h in msg.get("payload", {}).get("headers", [])}
    view: dict[str, Any] = {k: sorted(a.lower() for _, a in getaddresses([headers.get(k, "")]) if a)
                            for k in ("to", "cc", "bcc")}
    view["subject"] = headers.get("subject", "")
    view["attachments"] = {p["filename"]: p.get("mimeType", "") for p in _parts(msg.get("payload", {}))
                           if p.get("filename")}
    return view


def _mails(ctx: StepContext, folder: str) -> list[dict]:
    gmail = clients(ctx).gmail.users()
    if folder == "draft":
        refs = list_all(gmail.drafts().list, "drafts", userId="me")
        return [mail_view(gmail.drafts().get(userId="me", id=d["id"], format="full").execute()["message"]) for d in refs]
    refs = list_all(gmail.messages().list, "messages", userId="me", labelIds=["SENT"])
    return [mail_view(gmail.messages().get(userId="me", id=m["id"], format="full").execute()) for m in refs]


@judge("google.mail_fields")
def mail_fields(ctx: StepContext, subject_contains: str, folder: Literal["sent", "draft"] = "sent",
                to: list[str] | None = None, cc: list[str] | None = None, bcc: list[str] | None = None,
                attachments: list[str] | None = None, attachment_types: dict[str, str] | None = None) -> Verdict:
    """A sent message (or draft) whose subject contains ``subject_contains`` has exactly the ``to``,
    ``cc`` and ``bcc`` addresses given ([] = none), exactly the ``attachments`` (file names) and,
    for ``attachment_types``, those MIME types ({"report.pdf": "application/pdf"})."""
    mails = [m for m in _mails(ctx, folder) if subject_contains.lower() in m["subject"].lower()]
    if not mails:
        return Verdict.fail(f"no {folder} message has a subject containing {subject_contains!r}")
    reports = []
    for m in mails:
        problems = [f"{k} {m[k]} (want {sorted(_lower_set(v))})" for k, v in (("to", to), ("cc", cc), ("bcc", bcc))
                    if v is not None and m[k] != sorted(_lower_set(v))]
        names = sorted(m["attachments"])
        if attachments is not None and names != sorted(attachments):
            problems.append(f"attachments {names} (want {sorted(attachments)})")
        for name, mime in (attachment_types or {}).items():
            if m["attachments"].get(name, "").split(";")[0].lower() != mime.lower():
                problems.append(f"attachment {name!r} of type {m['attachments'].get(name, 'missing')!r} (want {mime!r})")
        if not problems:
            return Verdict.ok(f"{folder} message {m['subject']!r} has the expected recipients and attachments")
        reports.append(f"{m['subject']!r} has " + ", ".join(problems))
    return Verdict.fail(f"{folder} message " + " / ".join(reports[:3]))
