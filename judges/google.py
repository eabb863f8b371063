"""google.* judges: what the agent left in the Google account.

They read the account through host-side googleapiclient clients
(``ctx.services["google"]["clients"]``), so they judge the emulator and a real
account alike. Feedback names what was expected and what was found instead
(the nearest titles, the actual times, the actual cells).
"""

from __future__ import annotations

import difflib
import math
from typing import Any

from ..reset_scripts._common import clip, short
from ..reset_scripts.google import (
    FOLDER,
    MIME_SHORT,
    RelTime,
    anchor,
    calendar_id,
    calendar_tz,
    clients,
    drive_find,
    folder_path,
    label_ids,
    list_all,
)
from ..runtime.tasks.steps import StepContext, Verdict, judge
from ..toolkits.google import when


def _nearest(name: str, found: list[str], what: str) -> str:
    if not found:
        return f"there are no {what}"
    close = difflib.get_close_matches(name, found, n=3, cutoff=0.3)
    shown = close or found[:5]
    return f"{what} found: {', '.join(repr(x) for x in shown)}" + (f" (of {len(found)})" if len(found) > len(shown) else "")


def _lower_set(values: list[str]) -> set[str]:
    return {v.strip().lower() for v in values}


# --- Calendar --------------------------------------------------------------------


def _events(ctx: StepContext, cal_id: str) -> list[dict]:
    return list_all(clients(ctx).calendar.events().list, "items", calendarId=cal_id, maxResults=2500)


def _event_problems(ev: dict, tz: str, start: Any, end: Any, attendees: list[str] | None,
                    location: str | None, description_contains: str | None, recurrence: str | None) -> list[str]:
    problems = []
    actual_start = when.parse_event_time(ev.get("start", {}))
    actual_end = when.parse_event_time(ev.get("end", {}))
    if start is not None and not when.same_time(actual_start, start):
        problems.append(f"starts {when.show(actual_start, tz)} instead of {when.show(start, tz)}")
    if end is not None and not when.same_time(actual_end, end):
        problems.append(f"ends {when.show(actual_end, tz)} instead of {when.show(end, tz)}")
    if attendees is not None:
        have = _lower_set([a.get("email", "") for a in ev.get("attendees", [])])
        missing = sorted(_lower_set(attendees) - have)
        if missing:
            problems.append(f"lacks attendees {missing} (has {sorted(have)})")
    if location is not None and (ev.get("location") or "").strip().lower() != location.strip().lower():
        problems.append(f"has location {ev.get('location')!r} instead of {location!r}")
    if description_contains is not None and description_contains.lower() not in (ev.get("description") or "").lower():
        problems.append(f"has description {clip(ev.get('description') or '', 100)}, "
                        f"which does not contain {description_contains!r}")
    if recurrence is not None and not any(recurrence.upper() in r.upper() for r in ev.get("recurrence", [])):
        problems.append(f"has recurrence {ev.get('recurrence', [])} instead of one containing {recurrence!r}")
    return problems


@judge("google.event_exists")
def event_exists(ctx: StepContext, summary: str, start: RelTime | None = None, end: RelTime | None = None,
                 attendees: list[str] | None = None, location: str | None = None,
                 description_contains: str | None = None, recurrence: str | None = None,
                 calendar: str = "primary", time_zone: str | None = None, count: int | None = None) -> Verdict:
    """An event titled ``summary`` (case-insensitive) exists in ``calendar`` with the given start/end
    (absolute or relative times, wall times in ``time_zone`` or the calendar's zone; a date alone
    means all-day), attendees (at least these), location, description text and recurrence rule
    text (e.g. "FREQ=WEEKLY"). ``count``: exactly this many events carry the title."""
    try:
        cal_id = calendar_id(ctx, calendar)
    except LookupError as exc:
        return Verdict.fail(str(exc))
    tz = time_zone or calendar_tz(ctx, cal_id)
    want_start = when.resolve(start, tz, anchor(ctx)) if start else None
    want_end = when.resolve(end, tz, anchor(ctx)) if end else None
    events = _events(ctx, cal_id)
    named = [e for e in events if (e.get("summary") or "").strip().lower() == summary.strip().lower()]
    if not named:
        return Verdict.fail(f"no event titled {summary!r} in calendar {calendar!r}; "
                            + _nearest(summary, [e.get("summary") or "" for e in events], "events"))
    if count is not None and len(named) != count:
        return Verdict.fail(f"{len(named)} events are titled {summary!r} in calendar {calendar!r}, expected {count}")
    reports = []
    for ev in named:
        problems = _event_problems(ev, tz, want_start, want_end, attendees, location, description_contains, recurrence)
        if not problems:
            return Verdict.ok(f"event {summary!r} exists with the expected fields", event_id=ev["id"])
        reports.append("; ".join(problems))
    return Verdict.fail(f"event {summary!r} exists but " + (reports[0] if len(reports) == 1 else
                        " / ".join(f"copy {n + 1} {r}" for n, r in enumerate(reports[:3]))))


@judge("google.event_absent")
def event_absent(ctx: StepContext, summary: str, calendar: str = "primary", start: RelTime | None = None,
                 time_zone: str | None = None) -> Verdict:
    """No event titled ``summary`` (case-insensitive) in ``calendar`` (only at ``start`` when given)."""
    try:
        cal_id = calendar_id(ctx, calendar)
    except LookupError as exc:
        return Verdict.fail(str(exc))
    tz = time_zone or calendar_tz(ctx, cal_id)
    want = when.resolve(start, tz, anchor(ctx)) if start else None
    left = [e for e in _events(ctx, cal_id) if (e.get("summary") or "").strip().lower() == summary.strip().lower()
            and (want is None or when.same_time(when.parse_event_time(e.get("start", {})), want))]
    if left:
        starts = [when.show(when.parse_event_time(e.get("start", {})), tz) for e in left[:3]]
        return Verdict.fail(f"{len(left)} event(s) titled {summary!r} still in calendar {calendar!r} (starting {starts})")
    return Verdict.ok(f"no event titled {summary!r} in calendar {calendar!r}")


# --- Gmail -----------------------------------------------------------------------


def _messages(ctx: StepContext, **params: Any) -> list[dict]:
    # googleapiclient: imported only when a Gmail judge runs
    from ..toolkits.google.api import message_fields

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


def _as_list(value: str | list[str] | None) -> list[str]:
    return [] if value is None else [value] if isinstance(value, str) else value


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
    from ..toolkits.google.api import message_fields

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


# --- Drive -----------------------------------------------------------------------


def file_text(ctx: StepContext, f: dict) -> str:
    drive = clients(ctx).drive
    mime = f["mimeType"]
    if mime == MIME_SHORT["document"] or mime == MIME_SHORT["presentation"]:
        data = drive.files().export(fileId=f["id"], mimeType="text/plain").execute()
    elif mime == MIME_SHORT["spreadsheet"]:
        data = drive.files().export(fileId=f["id"], mimeType="text/csv").execute()
    elif mime.startswith("application/vnd.google-apps"):
        return ""
    else:
        data = drive.files().get_media(fileId=f["id"]).execute()
    return data.decode("utf-8", "replace") if isinstance(data, bytes) else str(data)


@judge("google.drive_file")
def drive_file(ctx: StepContext, name: str, parent: str | None = None, mime_type: str | None = None,
               content_contains: str | list[str] | None = None, content_equals: str | None = None,
               trashed: bool = False, exists: bool = True, count: int | None = None) -> Verdict:
    """A Drive file named ``name`` (in folder path ``parent``, "" = My Drive root; of ``mime_type``,
    which may be folder/document/spreadsheet/...) whose text contains or equals the given text
    (Docs read as text, Sheets as CSV). ``trashed``: look in the trash instead. ``exists: false``:
    no such (untrashed) file. ``count``: exactly this many match name/parent/type."""
    mime = MIME_SHORT.get(mime_type, mime_type) if mime_type else None
    where = f" in folder {parent!r}" if parent is not None else ""
    folder = None
    if parent is not None:
        folder = folder_path(ctx, parent, create=False)
        if folder is None:
            if exists:
                return Verdict.fail(f"folder {parent!r} does not exist (looking for {name!r} in it)")
            return Verdict.ok(f"folder {parent!r} does not exist, so {name!r} is not in it")
    found = drive_find(ctx, name, mime, folder, trashed)
    if not exists:
        if found:
            return Verdict.fail(f"{len(found)} file(s) named {name!r}{where} still exist"
                                + (" in the trash" if trashed else " (not trashed)"))
        return Verdict.ok(f"no file named {name!r}{where}")
    if not found:
        anywhere = drive_find(ctx, name, None, None, None)
        if anywhere:
            f = anywhere[0]
            return Verdict.fail(f"{name!r} exists but not as expected: it has mimeType {f['mimeType']}, "
                                f"trashed={f.get('trashed', False)}, parents {f.get('parents')} "
                                f"(wanted{where or ' any folder'}, type {mime or 'any'}, trashed={trashed})")
        names = [f["name"] for f in list_all(clients(ctx).drive.files().list, "files", q="trashed = false",
                                             fields="nextPageToken, files(name)", pageSize=1000)]
        return Verdict.fail(f"no file named {name!r}{where}; " + _nearest(name, names, "files"))
    if count is not None and len(found) != count:
        return Verdict.fail(f"{len(found)} files are named {name!r}{where}, expected {count}")
    wants = _as_list(content_contains)
    if not wants and content_equals is None:
        return Verdict.ok(f"{name!r} exists{where}", file_id=found[0]["id"])
    texts = []
    for f in found:
        text = file_text(ctx, f)
        if content_equals is not None and text.replace("\r\n", "\n").strip() != content_equals.strip():
            texts.append(text)
            continue
        missing = [w for w in wants if w.lower() not in text.lower()]
        if not missing:
            return Verdict.ok(f"{name!r}{where} has the expected content", file_id=f["id"])
        texts.append(text)
    expected = f"equal {clip(content_equals, 100)}" if content_equals is not None else f"contain {wants}"
    return Verdict.fail(f"{name!r}{where} should {expected} but holds {clip(short(texts[0], 200))}")


# --- Sheets ----------------------------------------------------------------------


def _find_by_title(ctx: StepContext, title: str, mime: str) -> list[dict]:
    """Files of a Google type by exact title, or by id when ``title`` is an existing id."""
    found = drive_find(ctx, title, mime, None, False)
    if found:
        return found
    try:
        f = clients(ctx).drive.files().get(fileId=title, fields="id, name, mimeType").execute()
    except Exception:  # noqa: BLE001 - not an id either
        return []
    return [f] if f.get("mimeType") == mime else []


def _missing_doc(ctx: StepContext, title: str, mime: str, what: str) -> Verdict:
    names = [f["name"] for f in list_all(clients(ctx).drive.files().list, "files",
                                         q=f"mimeType = '{mime}' and trashed = false", fields="nextPageToken, files(name)")]
    return Verdict.fail(f"no {what} titled {title!r}; " + _nearest(title, names, f"{what}s"))


def _cell_equal(actual: Any, expected: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return str(actual).upper() == str(expected).upper()
    if isinstance(expected, (int, float)):
        try:
            return math.isclose(float(actual), float(expected), rel_tol=1e-9, abs_tol=1e-9)
        except (TypeError, ValueError):
            return False
    return str(actual).strip() == str(expected).strip()


def _trim(rows: list[list[Any]]) -> list[list[Any]]:
    out = [list(r) for r in rows]
    for r in out:
        while r and r[-1] in ("", None):
            r.pop()
    while out and not out[-1]:
        out.pop()
    return out


def _rows_equal(actual: list[list[Any]], expected: list[list[Any]]) -> bool:
    return len(actual) == len(expected) and all(
        len(a) == len(e) and all(_cell_equal(x, y) for x, y in zip(a, e)) for a, e in zip(actual, expected))


def _row_key(row: list[Any]) -> list[str]:
    # 5 and 5.0 and "5" must sort alike: compare numbers by value, the rest as trimmed text.
    out = []
    for x in row:
        try:
            out.append(repr(float(x)) if not isinstance(x, bool) else str(x).upper())
        except (TypeError, ValueError):
            out.append(str(x).strip())
    return out


@judge("google.sheet_tabs")
def sheet_tabs(ctx: StepContext, spreadsheet: str, names: list[str]) -> Verdict:
    """The spreadsheet titled (or with id) ``spreadsheet`` has exactly the tabs ``names``, in order."""
    files = _find_by_title(ctx, spreadsheet, MIME_SHORT["spreadsheet"])
    if not files:
        return _missing_doc(ctx, spreadsheet, MIME_SHORT["spreadsheet"], "spreadsheet")
    api = clients(ctx).sheets
    seen = []
    for f in files:
        tabs = [s["properties"]["title"] for s in api.spreadsheets().get(spreadsheetId=f["id"]).execute()["sheets"]]
        if tabs == names:
            return Verdict.ok(f"{spreadsheet!r} has the tabs {names}")
        seen.append(tabs)
    return Verdict.fail(f"{spreadsheet!r} should have the tabs {names} but has {seen[0] if len(seen) == 1 else seen}")


@judge("google.sheet_range")
def sheet_range(ctx: StepContext, spreadsheet: str, range: str, equals: list[list[Any]],
                any_order: bool = False, formatted: bool = False) -> Verdict:
    """The cells of an A1 ``range`` of the spreadsheet titled (or with id) ``spreadsheet`` equal
    ``equals`` (numbers compared as numbers, text trimmed, trailing empty cells ignored).
    ``any_order``: rows may come in any order. ``formatted``: compare displayed strings."""
    files = _find_by_title(ctx, spreadsheet, MIME_SHORT["spreadsheet"])
    if not files:
        return _missing_doc(ctx, spreadsheet, MIME_SHORT["spreadsheet"], "spreadsheet")
    api = clients(ctx).sheets
    expected = _trim(equals)
    seen = []
    for f in files:
        try:
            values = api.spreadsheets().values().get(
                spreadsheetId=f["id"], range=range,
                valueRenderOption="FORMATTED_VALUE" if formatted else "UNFORMATTED_VALUE").execute().get("values", [])
        except Exception as exc:  # noqa: BLE001 - e.g. the tab does not exist: say so
            tabs = [s["properties"]["title"] for s in api.spreadsheets().get(spreadsheetId=f["id"]).execute()["sheets"]]
            seen.append(f"range {range!r} cannot be read ({short(str(exc), 120)}; tabs: {tabs})")
            continue
        actual = _trim(values)
        if any_order:
            if _rows_equal(sorted(actual, key=_row_key), sorted(expected, key=_row_key)):
                return Verdict.ok(f"{spreadsheet!r}!{range} holds the expected rows (any order)")
        elif _rows_equal(actual, expected):
            return Verdict.ok(f"{spreadsheet!r}!{range} holds the expected values")
        seen.append(f"it holds {clip(actual, 300)}")
    return Verdict.fail(f"{spreadsheet!r}!{range} should be {clip(expected, 300)} but " + " / ".join(seen[:2]))


# --- Docs ------------------------------------------------------------------------


def _doc_runs(doc: dict) -> list[tuple[str, dict, str]]:
    """(text, textStyle, paragraph namedStyleType) of every text run, tables included."""
    out = []

    def walk(content: list[dict]) -> None:
        for el in content:
            if "paragraph" in el:
                style = el["paragraph"].get("paragraphStyle", {}).get("namedStyleType", "NORMAL_TEXT")
                for run in el["paragraph"].get("elements", []):
                    if "textRun" in run:
                        out.append((run["textRun"].get("content", ""), run["textRun"].get("textStyle", {}), style))
            elif "table" in el:
                for row in el["table"].get("tableRows", []):
                    for cell in row.get("tableCells", []):
                        walk(cell.get("content", []))

    walk(doc.get("body", {}).get("content", []))
    return out


def _check_doc(doc: dict, text: str, bold: bool | None, heading: str | None, absent: bool) -> str | None:
    runs = _doc_runs(doc)
    full = "".join(r[0] for r in runs)
    pos = full.find(text)
    if absent:
        return None if pos < 0 else f"still contains {text!r}"
    if pos < 0:
        return f"does not contain {text!r}; its text is {clip(short(full, 240))}"
    problems = []
    while pos >= 0:
        problems = []
        offset, chars = 0, []
        for content, style, para in runs:
            lo, hi = max(pos, offset), min(pos + len(text), offset + len(content))
            if lo < hi:
                chars.append((style, para))
            offset += len(content)
        if bold is not None and any(bool(s.get("bold")) != bold for s, _ in chars):
            problems.append(f"{text!r} is {'not ' if bold else ''}bold")
        if heading is not None and any(p != heading for _, p in chars):
            problems.append(f"{text!r} is in a {sorted({p for _, p in chars})} paragraph, not {heading}")
        if not problems:
            return None
        pos = full.find(text, pos + 1)
    return "; ".join(problems)


@judge("google.doc_contains")
def doc_contains(ctx: StepContext, title: str, text: str, bold: bool | None = None,
                 heading: str | None = None, absent: bool = False) -> Verdict:
    """The Google Doc titled (or with id) ``title`` contains ``text`` (exact, case-sensitive);
    ``bold``: that occurrence is (not) bold; ``heading``: its paragraph style, e.g. HEADING_1,
    TITLE; ``absent: true``: the text must not occur."""
    files = _find_by_title(ctx, title, MIME_SHORT["document"])
    if not files:
        return _missing_doc(ctx, title, MIME_SHORT["document"], "document")
    reports = []
    for f in files:
        doc = clients(ctx).docs.documents().get(documentId=f["id"]).execute()
        problem = _check_doc(doc, text, bold, heading, absent)
        if problem is None:
            return Verdict.ok(f"document {title!r} " + ("does not contain" if absent else "contains") + f" {text!r}")
        reports.append(problem)
    return Verdict.fail(f"document {title!r}: " + reports[0])


# --- Slides / Forms --------------------------------------------------------------


def _shape_text(element: dict) -> str:
    runs = element.get("shape", {}).get("text", {}).get("textElements", [])
    return "".join(r.get("textRun", {}).get("content", "") for r in runs).strip()


def slide_titles(pres: dict) -> list[str]:
    titles = []
    for slide in pres.get("slides", []):
        title = ""
        for el in slide.get("pageElements", []):
            if el.get("shape", {}).get("placeholder", {}).get("type") in ("TITLE", "CENTERED_TITLE"):
                title = _shape_text(el)
                break
        titles.append(title)
    return titles


@judge("google.slide_title")
def slide_title(ctx: StepContext, presentation: str, title: str, index: int | None = None,
                slide_count: int | None = None) -> Verdict:
    """Slide ``index`` (0-based; any slide when omitted) of the presentation titled (or with id)
    ``presentation`` has the title ``title`` (trimmed, case-sensitive); ``slide_count``: the deck
    has exactly this many slides."""
    files = _find_by_title(ctx, presentation, MIME_SHORT["presentation"])
    if not files:
        return _missing_doc(ctx, presentation, MIME_SHORT["presentation"], "presentation")
    reports = []
    for f in files:
        titles = slide_titles(clients(ctx).slides.presentations().get(presentationId=f["id"]).execute())
        if slide_count is not None and len(titles) != slide_count:
            reports.append(f"has {len(titles)} slides, expected {slide_count} (titles {titles})")
            continue
        if index is None and title.strip() in titles or index is not None and index < len(titles) and titles[index] == title.strip():
            return Verdict.ok(f"presentation {presentation!r} has a slide titled {title!r}")
        where = f"slide {index}" if index is not None else "no slide"
        reports.append(f"{where} is not titled {title!r}: slide titles are {titles}")
    return Verdict.fail(f"presentation {presentation!r}: " + reports[0])


_KINDS = {"text": "textQuestion", "paragraph": "textQuestion", "radio": "choiceQuestion",
          "checkbox": "choiceQuestion", "dropdown": "choiceQuestion", "scale": "scaleQuestion"}


def _forms_titled(ctx: StepContext, title: str) -> list[dict]:
    api = clients(ctx).forms
    found = []
    for f in list_all(clients(ctx).drive.files().list, "files", q=f"mimeType = '{MIME_SHORT['form']}' and trashed = false",
                      fields="nextPageToken, files(id, name)"):
        if f["id"] == title or f["name"] == title:
            found.append(api.forms().get(formId=f["id"]).execute())
            continue
        form = api.forms().get(formId=f["id"]).execute()
        if form.get("info", {}).get("title") == title:
            found.append(form)
    return found


@judge("google.form_question")
def form_question(ctx: StepContext, form: str, title: str, kind: str | None = None,
                  options: list[str] | None = None, required: bool | None = None) -> Verdict:
    """The form titled (or with id) ``form`` has a question titled ``title`` (case-insensitive)
    of ``kind`` (text, paragraph, radio, checkbox, dropdown, scale) with exactly these options
    (any order) and this required flag."""
    forms = _forms_titled(ctx, form)
    if not forms:
        return _missing_doc(ctx, form, MIME_SHORT["form"], "form")
    reports = []
    for f in forms:
        items = f.get("items", [])
        match = [i for i in items if (i.get("title") or "").strip().lower() == title.strip().lower()]
        if not match:
            reports.append(f"has no question {title!r}; " + _nearest(title, [i.get("title", "") for i in items], "questions"))
            continue
        question = match[0].get("questionItem", {}).get("question", {})
        problems = []
        if kind is not None:
            have = next((k for k in ("textQuestion", "choiceQuestion", "scaleQuestion", "dateQuestion", "timeQuestion")
                         if k in question), "none")
            sub = question.get("choiceQuestion", {}).get("type", "")
            ok = have == _KINDS.get(kind) and (
                have != "choiceQuestion" or sub == {"radio": "RADIO", "checkbox": "CHECKBOX", "dropdown": "DROP_DOWN"}[kind])
            if kind in ("text", "paragraph") and have == "textQuestion":
                ok = bool(question["textQuestion"].get("paragraph")) == (kind == "paragraph")
            if not ok:
                problems.append(f"is a {have}{' ' + sub if sub else ''}, not a {kind} question")
        if options is not None:
            have_opts = [o.get("value", "") for o in question.get("choiceQuestion", {}).get("options", [])]
            if sorted(have_opts) != sorted(options):
                problems.append(f"has options {have_opts} instead of {options}")
        if required is not None and bool(question.get("required")) != required:
            problems.append(f"is {'not ' if required else ''}required")
        if not problems:
            return Verdict.ok(f"form {form!r} has the question {title!r} as expected")
        reports.append(f"question {title!r} " + "; ".join(problems))
    return Verdict.fail(f"form {form!r}: " + reports[0])


__all__ = ["FOLDER", "file_text", "slide_titles"]
