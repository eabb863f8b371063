"""Google judges for the fields the first set cannot see: event reminders, exact attendees and
recurrence; a mail's cc, bcc and attachments; Docs links, outline and tables; Sheets formats; Drive sharing.

Like judges/google.py they read the account through the host-side API clients, so they judge
the emulator and a real account alike, and the feedback shows what was found.
"""

from __future__ import annotations

from email.utils import getaddresses
from typing import Any, Literal

from ..reset_scripts._common import clip
from ..reset_scripts.google import MIME_SHORT, calendar_id, clients, drive_find, list_all
from ..runtime.tasks.steps import StepContext, Verdict, judge
from .google import _events, _find_by_title, _lower_set, _missing_doc, _nearest


def _rule_key(rule: str) -> str:
    """RRULE:FREQ=WEEKLY;COUNT=10;BYDAY=MO and RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=10 are the same rule."""
    head, _, body = rule.strip().upper().partition(":")
    return head + ":" + ";".join(sorted(body.split(";")))


def _reminders(ev: dict) -> list[str]:
    rem = ev.get("reminders") or {}
    if rem.get("useDefault", False):
        return ["default"]
    return sorted(f"{r.get('method')}:{r.get('minutes')}" for r in rem.get("overrides", []))


@judge("google.event_fields")
def event_fields(ctx: StepContext, summary: str, calendar: str = "primary", attendees: list[str] | None = None,
                 attendees_at_least: list[str] | None = None, reminders: list[str] | None = None,
                 recurrence: list[str] | None = None) -> Verdict:
    """Every event titled ``summary`` in ``calendar`` has exactly the ``attendees`` (or at least
    ``attendees_at_least``), exactly the ``reminders`` ("popup:10", "email:1440"; ["default"] = the
    calendar's defaults) and exactly the ``recurrence`` rules (part order ignored)."""
    try:
        cal = calendar_id(ctx, calendar)
    except LookupError as exc:
        return Verdict.fail(str(exc))
    events = _events(ctx, cal)
    named = [e for e in events if (e.get("summary") or "").strip().lower() == summary.strip().lower()]
    if not named:
        return Verdict.fail(f"no event titled {summary!r}; " + _nearest(summary, [e.get("summary") or "" for e in events], "events"))
    for ev in named:
        have = _lower_set([a.get("email", "") for a in ev.get("attendees", [])])
        problems = []
        if attendees is not None and have != _lower_set(attendees):
            problems.append(f"has attendees {sorted(have)}, not exactly {sorted(_lower_set(attendees))}")
        if attendees_at_least is not None and (missing := _lower_set(attendees_at_least) - have):
            problems.append(f"lacks attendees {sorted(missing)}")
        if reminders is not None and _reminders(ev) != sorted(r.strip().lower() for r in reminders):
            problems.append(f"has reminders {_reminders(ev)}, not {sorted(reminders)}")
        if recurrence is not None and sorted(map(_rule_key, ev.get("recurrence", []))) != sorted(map(_rule_key, recurrence)):
            problems.append(f"has recurrence {ev.get('recurrence', [])}, not {recurrence}")
        if problems:
            return Verdict.fail(f"event {summary!r} " + "; ".join(problems))
    return Verdict.ok(f"event {summary!r}: attendees, reminders and recurrence as expected")


# --- Gmail -----------------------------------------------------------------------------------


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


# --- Docs ------------------------------------------------------------------------------------


def _doc(ctx: StepContext, title: str) -> dict | Verdict:
    mime = MIME_SHORT["document"]
    found = _find_by_title(ctx, title, mime)
    if not found:
        return _missing_doc(ctx, title, mime, "document")
    return clients(ctx).docs.documents().get(documentId=found[0]["id"]).execute()


def _paragraphs(doc: dict) -> list[dict]:
    return [el["paragraph"] for el in doc.get("body", {}).get("content", []) if "paragraph" in el]


@judge("google.doc_link")
def doc_link(ctx: StepContext, title: str, text: str, url: str) -> Verdict:
    """In the Google Doc ``title``, the text ``text`` is a hyperlink to ``url`` (all of it, one link);
    ``url: ""`` means none of it is a link."""
    doc = _doc(ctx, title)
    if isinstance(doc, Verdict):
        return doc
    runs = [(r["textRun"].get("content", ""), (r["textRun"].get("textStyle", {}).get("link") or {}).get("url"))
            for p in _paragraphs(doc) for r in p.get("elements", []) if "textRun" in r]
    full, pos = "".join(t for t, _ in runs), 0
    start = full.find(text)
    if start < 0:
        return Verdict.fail(f"document {title!r} does not contain {text!r}")
    links = set()
    for content, link in runs:
        if pos < start + len(text) and start < pos + len(content):
            links.add(link)
        pos += len(content)
    if links == {url or None}:
        return Verdict.ok(f"{text!r} links to {url}" if url else f"{text!r} is not a link")
    shown = sorted(str(x) for x in links if x) or ["nothing"]
    return Verdict.fail(f"{text!r} in document {title!r} links to {shown if len(shown) > 1 else shown[0]}, "
                        + (f"not {url}" if url else "but should not be a link"))


@judge("google.doc_outline")
def doc_outline(ctx: StepContext, title: str, headings: list[str]) -> Verdict:
    """The headings of the Google Doc ``title``, in order, are exactly ``headings``, each written as
    "LEVEL text" with LEVEL one of TITLE, SUBTITLE, H1 ... H6 (e.g. ["H1 Results", "H2 Costs"])."""
    doc = _doc(ctx, title)
    if isinstance(doc, Verdict):
        return doc
    have = []
    for p in _paragraphs(doc):
        style = p.get("paragraphStyle", {}).get("namedStyleType", "NORMAL_TEXT")
        if style != "NORMAL_TEXT":
            text = "".join(r.get("textRun", {}).get("content", "") for r in p.get("elements", [])).strip()
            have.append(f"{style.replace('HEADING_', 'H')} {text}")
    want = [" ".join(h.split()) for h in headings]
    if have == want:
        return Verdict.ok(f"document {title!r} has the headings {want}")
    return Verdict.fail(f"document {title!r} has the headings {clip(have, 300)}, not {clip(want, 300)}")


def _cell_text(cell: dict) -> str:
    text = "".join(r.get("textRun", {}).get("content", "") for el in cell.get("content", [])
                   for r in el.get("paragraph", {}).get("elements", []))
    return " ".join(text.split())


def _diff_row(have: list[str], want: list[str], where: str) -> str | None:
    """Where ``have`` first differs from ``want`` (None when equal)."""
    for col, (h, w) in enumerate(zip(have, want), 1):
        if h != " ".join(w.split()):
            return f"{where}, column {col} is {h!r}, want {w!r}"
    return None if len(have) == len(want) else f"{where} has {len(have)} cells, want {len(want)}"


@judge("google.doc_table")
def doc_table(ctx: StepContext, title: str, rows: list[list[str]], index: int = 1, header: list[str] | None = None,
              contains: bool = False, row_count: int | None = None, column_count: int | None = None) -> Verdict:
    """The ``index``-th table (from 1) of the Google Doc ``title``, or the first whose first row is
    ``header``, has exactly the ``rows`` of cell texts (whitespace collapsed); ``contains: true``:
    each of ``rows`` is one of its rows, in any order. ``row_count``/``column_count`` check its size."""
    doc = _doc(ctx, title)
    if isinstance(doc, Verdict):
        return doc
    tables = [[[_cell_text(c) for c in r.get("tableCells", [])] for r in el["table"].get("tableRows", [])]
              for el in doc.get("body", {}).get("content", []) if "table" in el]
    if header is not None:
        picked = [t for t in tables if t and _diff_row(t[0], header, "") is None]
        if not picked:
            return Verdict.fail(f"no table in {title!r} has the header {header}; first rows: {[t[0] for t in tables if t]}")
        table, name = picked[0], f"the table headed {header}"
    elif not 1 <= index <= len(tables):
        return Verdict.fail(f"document {title!r} has {len(tables)} table(s), not a table number {index}")
    else:
        table, name = tables[index - 1], f"table {index} of {title!r}"
    columns = max((len(r) for r in table), default=0)
    if row_count is not None and len(table) != row_count or column_count is not None and columns != column_count:
        return Verdict.fail(f"{name} is {len(table)}x{columns}, want {row_count or len(table)}x{column_count or columns}")
    if contains:
        for want in rows:
            if all(_diff_row(have, want, "") for have in table):
                near = max(table, key=lambda h: sum(a == " ".join(b.split()) for a, b in zip(h, want)))
                return Verdict.fail(f"{name} has no row {want}; nearest: "
                                    f"{_diff_row(near, want, f'row {table.index(near) + 1}')}")
        return Verdict.ok(f"{name} has the rows {clip(rows, 200)}")
    for r, want in enumerate(rows):
        if r >= len(table):
            return Verdict.fail(f"{name} has {len(table)} rows, want {len(rows)}: row {r + 1} {want} is missing")
        if (diff := _diff_row(table[r], want, f"row {r + 1}")) is not None:
            return Verdict.fail(f"in {name}, {diff}")
    if len(table) != len(rows):
        return Verdict.fail(f"{name} has {len(table)} rows, want {len(rows)}; row {len(rows) + 1} is {table[len(rows)]}")
    return Verdict.ok(f"{name} is exactly {clip(rows, 200)}")


# --- Sheets and Drive ----------------------------------------------------------------------


def _hex(color: dict | None) -> str | None:
    if not color:
        return None
    rgb = color.get("rgbColor", color)
    return "".join(f"{round(float(rgb.get(c, 0)) * 255):02X}" for c in ("red", "green", "blue"))


@judge("google.sheet_format")
def sheet_format(ctx: StepContext, spreadsheet: str, range: str, bold: bool | None = None,
                 italic: bool | None = None, background: str | None = None, number_format: str | None = None,
                 horizontal: str | None = None) -> Verdict:
    """Every cell of the A1 ``range`` ("Sheet1!A1:C1") of the spreadsheet ``spreadsheet`` has the format
    given: ``bold``, ``italic``, ``background`` (RGB hex "FFFF00"), ``number_format`` pattern, ``horizontal``."""
    mime = MIME_SHORT["spreadsheet"]
    found = _find_by_title(ctx, spreadsheet, mime)
    if not found:
        return _missing_doc(ctx, spreadsheet, mime, "spreadsheet")
    data = clients(ctx).sheets.spreadsheets().get(spreadsheetId=found[0]["id"], ranges=[range],
                                                  includeGridData=True).execute()
    grid = data["sheets"][0]["data"][0]
    want = {k: v for k, v in {"bold": bold, "italic": italic, "background": background and background.lstrip("#").upper(),
                              "number_format": number_format, "horizontal": horizontal and horizontal.upper()}.items()
            if v is not None}
    wrong = []
    for r, row in enumerate(grid.get("rowData", []) or [{}]):
        for c, cell in enumerate(row.get("values", []) or [{}]):
            fmt = cell.get("userEnteredFormat", {})
            have = {"bold": bool(fmt.get("textFormat", {}).get("bold")), "italic": bool(fmt.get("textFormat", {}).get("italic")),
                    "background": _hex(fmt.get("backgroundColorStyle") or fmt.get("backgroundColor")),
                    "number_format": fmt.get("numberFormat", {}).get("pattern"),
                    "horizontal": fmt.get("horizontalAlignment")}
            bad = [f"{k} {have[k]!r}" for k, v in want.items() if have[k] != v]
            if bad:
                wrong.append(f"cell {r + 1},{c + 1} of {range}: " + ", ".join(bad))
    if wrong:
        return Verdict.fail(f"{spreadsheet!r}: want {want}; " + "; ".join(wrong[:5]))
    return Verdict.ok(f"{spreadsheet!r} {range} is formatted as expected")


@judge("google.drive_permission")
def drive_permission(ctx: StepContext, name: str, email: str | None = None, role: str | None = None,
                     type: Literal["user", "group", "domain", "anyone"] = "user", exists: bool = True) -> Verdict:
    """The Drive file ``name`` is shared with ``email`` (or with anyone, ``type: anyone``) as ``role``
    (reader, commenter, writer, owner); ``exists: false``: it is not shared with them at all."""
    files = drive_find(ctx, name)
    if not files:
        return Verdict.fail(f"no Drive file named {name!r}")
    perms = list_all(clients(ctx).drive.permissions().list, "permissions", fileId=files[0]["id"],
                     fields="nextPageToken, permissions(id, type, role, emailAddress, domain)")
    who = (email or "").lower()
    mine = [p for p in perms if p.get("type") == type and (type == "anyone" or (p.get("emailAddress") or p.get("domain") or "").lower() == who)]
    shown = [f"{p.get('emailAddress') or p.get('domain') or p.get('type')}: {p.get('role')}" for p in perms]
    target = email or "anyone"
    if not exists:
        return Verdict.fail(f"{name!r} is still shared with {target} ({shown})") if mine else Verdict.ok(
            f"{name!r} is not shared with {target}")
    if not mine:
        return Verdict.fail(f"{name!r} is not shared with {target}; its permissions: {shown}")
    if role is not None and mine[0].get("role") != role:
        return Verdict.fail(f"{name!r} is shared with {target} as {mine[0].get('role')}, not {role}")
    return Verdict.ok(f"{name!r} is shared with {target}" + (f" as {role}" if role else ""))
