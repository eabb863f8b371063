"""AgentStudio's Google procedures (Calendar, Gmail, Docs, Drive) -> deskact steps.

Events and mails are judged by ``google.event_match`` and ``google.message_match``, which decide
as AgentStudio's evaluators do (every field given, exactly; colour, reminders, recurrence, cc and
attachment included). A Google task starts from ``google.reset``'s empty account.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .common import Untranslatable, step

if TYPE_CHECKING:
    from .agentstudio import Acc

Steps = list[dict[str, Any]]


def _text(value: str) -> str:
    from .agentstudio import text  # the placeholders live with the importer

    return text(value)


def _when(v: Any, what: str) -> str:
    if not isinstance(v, dict) or "dateTime" not in v:
        raise Untranslatable(f"google_calendar: {what} {v!r} has no dateTime (AgentStudio's search needs one)")
    return str(v["dateTime"])


def _event_spec(info: dict[str, Any]) -> dict[str, Any]:
    out = {"summary": _text(info["summary"]), "start": _when(info.get("start"), "start"),
           "end": _when(info.get("end"), "end"), "description": info.get("description"),
           "location": info.get("location")}
    return {k: v for k, v in out.items() if v is not None}


def event_check(p: dict[str, Any], _: Acc) -> Steps:
    info = p["event_info"]
    reminders = info.get("reminders")
    if reminders is not None and "useDefault" not in reminders:
        raise Untranslatable("google_calendar.check_event_exists: reminders without useDefault")
    return [step("judge", "google.event_match", summary=_text(info["summary"]), start=_when(info.get("start"), "start"),
                 end=_when(info.get("end"), "end"), description=info.get("description"), location=info.get("location"),
                 attendees=[a["email"] for a in info["attendees"]] if "attendees" in info else None,
                 color_id=info.get("colorId"), recurrence=info.get("recurrence"),
                 reminders=[f"{r['method']}:{r['minutes']}" for r in reminders.get("overrides", [])] if reminders else None,
                 reminders_use_default=reminders.get("useDefault") if reminders else None,
                 exists=bool(p.get("exists", True)))]


def create_event(p: dict[str, Any], _: Acc) -> Steps:
    return [step("reset", "google.calendar_events", events=[_event_spec(p["event_info"])])]


def _mail_params(info: dict[str, Any]) -> dict[str, Any]:
    return {"subject": _opt(info.get("subject")), "recipient": _opt(info.get("recipient")),
            "body": _opt(info.get("body")), "cc": _opt(info.get("cc")), "attachment": _opt(info.get("attachment"))}


def _opt(value: Any) -> str | None:
    return None if value is None else _text(str(value))


def _note_body_contains(info: dict[str, Any], acc: Acc, where: str) -> None:
    if "body_contains" in info:
        acc.notes.append(f"gmail.{where}: body_contains not checked (AgentStudio's message_match never reads it)")


def sent_check(p: dict[str, Any], acc: Acc) -> Steps:
    info = p["message_info"]
    _note_body_contains(info, acc, "check_sent_message_exists")
    return [step("judge", "google.message_match", **_mail_params(info), folder=info.get("in"),
                 exists=bool(p.get("exists", True)))]


def draft_check(p: dict[str, Any], _: Acc) -> Steps:
    info = p["draft_info"]
    return [step("judge", "google.message_match", **_mail_params(info), source="drafts", folder=info.get("in"),
                 exists=bool(p.get("exists", True)))]


def in_trash(p: dict[str, Any], acc: Acc) -> Steps:
    info = p["message_info"]
    _note_body_contains(info, acc, "is_email_in_trash")
    return [step("judge", "google.message_match", **_mail_params(info), include_trash=True, exists=True,
                 label="TRASH", labelled=bool(p["in_trash"]))]


def important(p: dict[str, Any], _: Acc) -> Steps:
    # no matching mail passes, as in AgentStudio (its loop checks each match)
    return [step("judge", "google.message_match", **_mail_params(p["message_info"]), exists=None,
                 label="IMPORTANT", labelled=bool(p["gt"]))]


def send(p: dict[str, Any], acc: Acc) -> Steps:
    info = p["message_info"]
    message = {"to": _text(info["recipient"]), "subject": _text(info.get("subject", "")),
               "body": _text(info.get("body", "")), "labels": ["SENT"]}
    acc.sent.append(message)
    return [step("reset", "google.emails", messages=[message])]


def trash(p: dict[str, Any], acc: Acc) -> Steps:
    info = p["message_info"]
    _note_body_contains(info, acc, "trash_message")
    subject = _opt(info.get("subject"))
    hits = [m for m in acc.sent if subject is None or m["subject"] == subject]
    if not hits:
        raise Untranslatable("gmail.trash_message: trashes no mail sent earlier in the reset")
    for m in hits:
        m["labels"] = [*m["labels"], "TRASH"]  # the google.emails step holds the same dict
    return []


def draft(p: dict[str, Any], _: Acc) -> Steps:
    info = p["draft_info"]
    return [step("reset", "google.drafts", messages=[{"to": _text(info["recipient"]), "subject": _text(info["subject"]),
                                                      "body": _text(info["body"])}])]


def label(p: dict[str, Any], _: Acc) -> Steps:
    return [step("reset", "google.labels", names=[_text(p["label_name"])])]


def document(p: dict[str, Any], _: Acc) -> Steps:
    if p.get("hyperlink"):
        raise Untranslatable("google_docs.create_document with a hyperlink: google.document writes plain paragraphs")
    return [step("reset", "google.document", title=_text(p["title"]),
                 paragraphs=[_text(p["content"])] if p.get("content") else [])]


def _gone(name: str, mime: str | None) -> Steps:
    """No such file, trashed or not: AgentStudio's Drive search does not leave out the trash."""
    return [step("judge", "google.drive_file", name=name, mime_type=mime, exists=False),
            step("judge", "google.drive_file", name=name, mime_type=mime, trashed=True, exists=False)]


def doc_check(p: dict[str, Any], acc: Acc) -> Steps:
    title = _text(p["title"])
    if not p.get("exists", True):
        if p.get("content") is not None:
            raise Untranslatable("google_docs.check_doc_exists: exists false with content has no judge")
        return _gone(title, "document")
    acc.notes.append("google_docs.check_doc_exists: a document in the trash does not count here; AgentStudio's"
                     " search also finds trashed ones")
    return [step("judge", "google.drive_file", name=title, mime_type="document",
                 content_equals=_opt(p.get("content")))]


def file_check(p: dict[str, Any], _: Acc) -> Steps:
    if p.get("exists", True):
        raise Untranslatable("google_drive.check_file_exists: exists true counts trashed files, which"
                             " google.drive_file leaves out")
    return _gone(_text(p["file_name"]), None)


def doc_link(p: dict[str, Any], _: Acc) -> Steps:
    if not p.get("exists", True):
        raise Untranslatable("google_docs.hyperlink_match: exists false passes when the document or the text is"
                             " gone too; google.doc_link needs both")
    return [step("judge", "google.doc_link", title=_text(p["title"]), text=_text(p["text"]), url=_text(p["url"]))]


def label_check(p: dict[str, Any], _: Acc) -> Steps:
    return [step("judge", "google.label_exists", name=_text(p["label_name"]), exists=bool(p.get("exists", True)))]


def text_format(p: dict[str, Any], _: Acc) -> Steps:
    return [step("judge", "google.text_format", title=_text(p["title"]), text=_text(p["text"]),
                 font=_opt(p.get("font")), size=p.get("size"))]
