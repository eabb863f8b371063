"""google.drive_* judges: a Drive file's place, type and content, and whom it is shared with."""

from __future__ import annotations

from typing import Literal

from ...reset_scripts.google.account import MIME_SHORT, clients, drive_find, folder_path, list_all
from ...runtime.tasks.helpers import clip, short
from ...runtime.tasks.steps import StepContext, Verdict, judge
from ._lookup import _as_list, _nearest


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
        text = file_text(ctx, f).removeprefix("\ufeff")  # Google's text/plain export of a Doc starts with a BOM
        if content_equals is not None and text.replace("\r\n", "\n").strip() != content_equals.strip():
            texts.append(text)
            continue
        missing = [w for w in wants if w.lower() not in text.lower()]
        if not missing:
            return Verdict.ok(f"{name!r}{where} has the expected content", file_id=f["id"])
        texts.append(text)
    expected = f"equal {clip(content_equals, 100)}" if content_equals is not None else f"contain {wants}"
    return Verdict.fail(f"{name!r}{where} should {expected} but holds {clip(short(texts[0], 200))}")


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
