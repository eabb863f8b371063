"""Drive v3: files (metadata, media, multipart and resumable uploads), folders,
the `q` search language, trash, copy, export, and a small permissions model.

Files are `drive.file` documents holding the File resource (plus private
`_`-prefixed keys); binary content is the blob `drive:<id>`. Google-type
files (Docs, Sheets, Slides, Forms) keep their content in their own service;
`types.GOOGLE_TYPES` connects the two. Other modules call
`register_file`, `touch_file`, `rename_file` and `get_file` (below) so that
what they create shows up in Drive with the right mimeType.
"""

from __future__ import annotations

import hashlib
import secrets
import string
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..errors import ApiError
from ..framework import Request, Response, handler, on_reset, quota_exceeded
from ..paging import paginate
from ..store import Store
from .query import QueryError, compile_query, parse_rfc3339
from .types import EXPORT_EXTENSIONS, FOLDER, GOOGLE_PREFIX, GOOGLE_TYPES

KIND = "drive.file"
PERM_KIND = "drive.permission"
ROOT_ID = "0AEmulatedMyDriveRootFolderPVA"
_ID_ALPHABET = string.ascii_letters + string.digits + "-_"
_DEFAULT_FILE_FIELDS = ("kind", "id", "name", "mimeType")

_WEB_VIEW = {
    "application/vnd.google-apps.document": "https://docs.google.com/document/d/{id}/edit?usp=drivesdk",
    "application/vnd.google-apps.spreadsheet": "https://docs.google.com/spreadsheets/d/{id}/edit?usp=drivesdk",
    "application/vnd.google-apps.presentation": "https://docs.google.com/presentation/d/{id}/edit?usp=drivesdk",
    "application/vnd.google-apps.form": "https://docs.google.com/forms/d/{id}/edit?usp=drivesdk",
    FOLDER: "https://drive.google.com/drive/folders/{id}",
}


def now_rfc3339() -> str:
    now = datetime.now(UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def new_file_id() -> str:
    """A Drive-looking id: 33 characters, URL-safe."""
    return "1" + "".join(secrets.choice(_ID_ALPHABET) for _ in range(32))


def _not_found(file_id: str) -> ApiError:
    return ApiError(404, f"File not found: {file_id}.", "notFound", location="fileId")


def _invalid(name: str, detail: str) -> ApiError:
    return ApiError(400, f"Invalid Value: {detail}", "invalid", location=name)


def _user(email: str) -> dict[str, Any]:
    return {"kind": "drive#user", "displayName": email.split("@")[0], "me": True,
            "permissionId": hashlib.sha1(email.encode()).hexdigest()[:20], "emailAddress": email}


# ------------------------------------------------------------ public helpers

def get_file(store: Store, file_id: str) -> dict[str, Any] | None:
    """The stored File record (with private keys), resolving 'root'."""
    return store.get(KIND, ROOT_ID if file_id == "root" else file_id)


def _save(store: Store, rec: dict[str, Any]) -> None:
    store.put(KIND, rec["id"], rec)


def register_file(store: Store, user: str, *, file_id: str, name: str, mime_type: str,
                  parents: list[str] | None = None, description: str | None = None) -> dict[str, Any]:
    """Create the Drive entry for a file another service created (a new spreadsheet...)."""
    now = now_rfc3339()
    rec: dict[str, Any] = {
        "kind": "drive#file", "id": file_id, "name": name, "mimeType": mime_type,
        "parents": list(parents or [ROOT_ID]), "trashed": False, "explicitlyTrashed": False,
        "starred": False, "createdTime": now, "modifiedTime": now, "modifiedByMeTime": now,
        "viewedByMeTime": now, "viewedByMe": True, "modifiedByMe": True, "version": "1",
        "owners": [_user(user)], "ownedByMe": True, "lastModifyingUser": _user(user),
        "shared": False, "spaces": ["drive"], "writersCanShare": True, "viewersCanCopyContent": True,
        "copyRequiresWriterPermission": False, "hasThumbnail": False, "quotaBytesUsed": "0",
        "webViewLink": _WEB_VIEW.get(mime_type, "https://drive.google.com/file/d/{id}/view?usp=drivesdk").format(id=file_id),
        "iconLink": f"https://drive-thirdparty.googleusercontent.com/16/type/{mime_type}",
        "capabilities": {"canEdit": True, "canCopy": mime_type != FOLDER, "canDelete": True, "canRename": True,
                         "canTrash": True, "canShare": True, "canDownload": True,
                         "canAddChildren": mime_type == FOLDER, "canListChildren": mime_type == FOLDER},
        "properties": {}, "appProperties": {},
    }
    if description is not None:
        rec["description"] = description
    if mime_type in GOOGLE_TYPES:
        kind = GOOGLE_TYPES[mime_type]
        rec["exportLinks"] = {m: f"https://docs.google.com/feeds/download/export?id={file_id}&exportFormat={EXPORT_EXTENSIONS.get(m, 'bin')}"
                              for m in kind.exporters}
    _save(store, rec)
    return rec


def touch_file(store: Store, file_id: str) -> None:
    """Bump modifiedTime and version after a service edited the file's content."""
    rec = store.get(KIND, file_id)
    if rec is None:
        return
    now = now_rfc3339()
    rec["modifiedTime"] = rec["modifiedByMeTime"] = now
    rec["version"] = str(int(rec.get("version", "1")) + 1)
    _save(store, rec)


def rename_file(store: Store, file_id: str, name: str) -> None:
    """Set the Drive name (a service changed its title)."""
    rec = store.get(KIND, file_id)
    if rec is not None and rec.get("name") != name:
        rec["name"] = name
        _save(store, rec)
        touch_file(store, file_id)


def delete_file_record(store: Store, file_id: str) -> None:
    store.delete(KIND, file_id)
    store.delete_blob("drive:" + file_id)
    store.delete_scope(PERM_KIND, file_id)


def public_view(rec: dict[str, Any], fields: str | None, default: tuple[str, ...] = _DEFAULT_FILE_FIELDS) -> dict[str, Any]:
    """Drop private keys; without a `fields` parameter Drive v3 returns only the default fields."""
    out = {k: v for k, v in rec.items() if not k.startswith("_")}
    if not out.get("description"):
        out.pop("description", None)
    if not fields:
        return {k: out[k] for k in default if k in out}
    return out


# --------------------------------------------------------------------- seed

@on_reset
def _seed(store: Store, user: str) -> None:
    rec = register_file(store, user, file_id=ROOT_ID, name="My Drive", mime_type=FOLDER, parents=[])
    rec["parents"] = []
    _save(store, rec)


# ------------------------------------------------------------------ helpers

def _require(store: Store, file_id: str) -> dict[str, Any]:
    rec = get_file(store, file_id)
    if rec is None:
        raise _not_found(file_id)
    return rec


def _check_parent(store: Store, parent_id: str) -> str:
    rec = get_file(store, parent_id)
    if rec is None:
        raise ApiError(404, f"File not found: {parent_id}.", "notFound", location="parents")
    if rec["mimeType"] != FOLDER:
        raise ApiError(403, f"The parent {parent_id} is not a folder.", "insufficientParentPermissions",
                       location="parents")
    return rec["id"]


def _extension(name: str) -> tuple[str | None, str | None]:
    parts = name.rsplit("/", 1)[-1].split(".")
    if len(parts) < 2 or not parts[0]:
        return None, None
    return parts[-1], ".".join(parts[1:])


def _media(req: Request) -> bytes | Path | None:
    """The upload's content: bytes, or a finished resumable upload's file (never loaded whole)."""
    return req.media_file if req.media_file is not None else req.media


def _check_quota(req: Request, file_id: str, size: int) -> None:
    """403 storageQuotaExceeded when ``size`` bytes in ``file_id`` would pass the quota."""
    used = sum(int(f.get("quotaBytesUsed") or 0) for f in req.store.list(KIND) if f["id"] != file_id)
    if used + size > req.emulator.limits.drive_quota_bytes:
        raise quota_exceeded()


def _set_content(req: Request, rec: dict[str, Any], data: bytes | Path, media_type: str | None) -> None:
    store = req.store
    mime = rec["mimeType"]
    if mime in GOOGLE_TYPES:
        kind = GOOGLE_TYPES[mime]
        src = (media_type or "text/plain").split(";")[0].strip()
        importer = kind.importers.get(src)
        if importer is None:
            raise ApiError(400, f"Cannot import {src} content into a {mime} file; supported: {sorted(kind.importers)}",
                           "badContent")
        importer(store, rec["id"], rec["name"], data.read_bytes() if isinstance(data, Path) else data)
        return
    if mime.startswith(GOOGLE_PREFIX):
        raise ApiError(400, f"A {mime} file cannot hold uploaded content.", "badContent")
    size = data.stat().st_size if isinstance(data, Path) else len(data)
    _check_quota(req, rec["id"], size)
    hashes = [hashlib.md5(), hashlib.sha1(), hashlib.sha256(), hashlib.md5()]
    if isinstance(data, Path):
        with data.open("rb") as stream:
            while block := stream.read(1024 * 1024):
                for h in hashes:
                    h.update(block)
    else:
        for h in hashes:
            h.update(data)
    hashes[3].update(rec["id"].encode())
    if isinstance(data, Path):
        store.put_blob_file("drive:" + rec["id"], data, hashes[2].hexdigest())
    else:
        store.put_blob("drive:" + rec["id"], data)
    rec["size"] = str(size)
    rec["quotaBytesUsed"] = str(size)
    rec["md5Checksum"] = hashes[0].hexdigest()
    rec["sha1Checksum"] = hashes[1].hexdigest()
    rec["sha256Checksum"] = hashes[2].hexdigest()
    rec["headRevisionId"] = hashes[3].hexdigest()[:24]


_WRITABLE = {"name", "description", "starred", "trashed", "properties", "appProperties", "mimeType",
             "modifiedTime", "viewedByMeTime", "originalFilename", "folderColorRgb", "writersCanShare",
             "copyRequiresWriterPermission", "contentHints", "parents", "id", "viewersCanCopyContent",
             "contentRestrictions", "shortcutDetails", "inheritedPermissionsDisabled"}


def _apply_metadata(rec: dict[str, Any], meta: dict[str, Any], *, creating: bool) -> None:
    for key, value in meta.items():
        if key in ("kind",):
            continue
        if key not in _WRITABLE:
            raise ApiError(403, f"The resource body includes fields which are not directly writable: {key}",
                           "fieldNotWritable")
        if key == "parents" and not creating:
            raise ApiError(403, "The parents field is not directly writable in update requests. "
                                "Use the addParents and removeParents parameters instead.", "fieldNotWritable")
        if key in ("parents", "id"):
            continue
        if key in ("properties", "appProperties"):
            merged = dict(rec.get(key) or {})
            for pk, pv in (value or {}).items():
                if pv is None:
                    merged.pop(pk, None)  # null deletes a property, as in Drive
                else:
                    merged[pk] = str(pv)
            rec[key] = merged
        elif key == "modifiedTime":
            rec[key] = _normalize_time(value, "modifiedTime")
        elif value is None:
            rec.pop(key, None)
        else:
            rec[key] = value
    if "name" in meta or creating:
        ext, full = _extension(rec["name"])
        if ext and not rec["mimeType"].startswith(GOOGLE_PREFIX):
            rec["fileExtension"], rec["fullFileExtension"] = ext, full


def _normalize_time(value: Any, field: str) -> str:
    try:
        dt = parse_rfc3339(str(value))
    except QueryError:
        raise _invalid(field, f"{field} must be an RFC 3339 date-time, got {value!r}") from None
    return dt.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"


def _set_trashed(store: Store, rec: dict[str, Any], trashed: bool, explicit: bool = True) -> None:
    """Trash (or restore) a file and, for a folder, everything under it."""
    rec["trashed"] = trashed
    rec["explicitlyTrashed"] = trashed and explicit
    if trashed:
        rec["trashedTime"] = now_rfc3339()
        rec["trashingUser"] = rec.get("lastModifyingUser")
    else:
        rec.pop("trashedTime", None)
        rec.pop("trashingUser", None)
    _save(store, rec)
    if rec["mimeType"] == FOLDER:
        for child in _children(store, rec["id"]):
            if trashed and not child.get("trashed"):
                _set_trashed(store, child, True, explicit=False)
            elif not trashed and child.get("trashed") and not child.get("explicitlyTrashed"):
                _set_trashed(store, child, False)


def _children(store: Store, folder_id: str) -> list[dict[str, Any]]:
    return [f for f in store.list(KIND) if folder_id in (f.get("parents") or [])]


def _delete_tree(store: Store, rec: dict[str, Any]) -> None:
    if rec["mimeType"] == FOLDER:
        for child in _children(store, rec["id"]):
            # A child with another parent survives (it only loses this one).
            others = [p for p in child["parents"] if p != rec["id"]]
            if others:
                child["parents"] = others
                _save(store, child)
            else:
                _delete_tree(store, child)
    kind = GOOGLE_TYPES.get(rec["mimeType"])
    if kind is not None:
        kind.delete(store, rec["id"])
    delete_file_record(store, rec["id"])


def _text_of(store: Store, rec: dict[str, Any]) -> str:
    kind = GOOGLE_TYPES.get(rec["mimeType"])
    if kind is not None and kind.text is not None:
        return kind.text(store, rec["id"])
    mime = rec["mimeType"]
    if mime.startswith("text/") or mime in ("application/json", "application/xml", "application/csv"):
        data = store.get_blob("drive:" + rec["id"]) or b""
        return data[:1_000_000].decode("utf-8", "replace")
    return ""


# ----------------------------------------------------------------- ordering

_ORDER_KEYS = {"createdTime", "folder", "modifiedByMeTime", "modifiedTime", "name", "name_natural",
               "quotaBytesUsed", "recency", "sharedWithMeTime", "starred", "viewedByMeTime"}


def _natural(s: str) -> list[Any]:
    import re
    return [int(t) if t.isdigit() else t.casefold() for t in re.split(r"(\d+)", s)]


def _sort(files: list[dict[str, Any]], order_by: str | None) -> list[dict[str, Any]]:
    # Drive does not document its default order; most recently modified first
    # is what the web UI shows and what agents expect.
    spec = order_by or "modifiedTime desc"
    keys: list[tuple[str, bool]] = []
    for part in spec.split(","):
        words = part.split()
        if not words or words[0] not in _ORDER_KEYS or len(words) > 2 or (len(words) == 2 and words[1].lower() not in ("asc", "desc")):
            raise _invalid("orderBy", f"orderBy {spec!r}: unknown sort key {part.strip()!r}; use one of {sorted(_ORDER_KEYS)}")
        keys.append((words[0], len(words) == 2 and words[1].lower() == "desc"))
    out = list(files)
    for key, desc in reversed(keys):
        def k(f: dict[str, Any], key: str = key) -> Any:
            if key == "folder":
                return 0 if f["mimeType"] == FOLDER else 1
            if key == "name":
                return f.get("name", "").casefold()
            if key == "name_natural":
                return _natural(f.get("name", ""))
            if key == "starred":
                return 1 if f.get("starred") else 0
            if key == "quotaBytesUsed":
                return int(f.get("quotaBytesUsed") or 0)
            if key == "recency":
                return max(f.get("modifiedTime", ""), f.get("viewedByMeTime", ""))
            return f.get(key) or ""
        # 'folder' sorts folders first ascending; desc puts them last.
        out.sort(key=k, reverse=desc)
    return out


# ------------------------------------------------------------------ handlers

@handler("drive.about.get")
def about_get(req: Request) -> dict[str, Any]:
    if not req.params.get("fields"):
        raise ApiError(400, "The 'fields' parameter is required for this method.", "required", location="fields")
    used = sum(int(f.get("quotaBytesUsed") or 0) for f in req.store.list(KIND))
    exports = {m: sorted(k.exporters) for m, k in GOOGLE_TYPES.items()}
    imports = {m: [t] for t, k in GOOGLE_TYPES.items() for m in k.importers}
    return {"kind": "drive#about", "user": _user(req.user),
            "storageQuota": {"limit": str(req.emulator.limits.drive_quota_bytes), "usage": str(used), "usageInDrive": str(used),
                             "usageInDriveTrash": "0"},
            "importFormats": imports, "exportFormats": exports, "maxUploadSize": str(5 * 1024**4),
            "appInstalled": False, "folderColorPalette": ["#ac725e", "#d06b64", "#f83a22"],
            "canCreateDrives": False}


@handler("drive.files.generateIds")
def files_generate_ids(req: Request) -> dict[str, Any]:
    count = int(req.params.get("count", 10))
    if not 1 <= count <= 1000:
        raise _invalid("count", f"count must be between 1 and 1000, got {count}")
    return {"kind": "drive#generatedIds", "space": req.params.get("space", "drive"),
            "ids": [new_file_id() for _ in range(count)]}


@handler("drive.files.create", media_file=True)
def files_create(req: Request) -> dict[str, Any]:
    meta = dict(req.body or {})
    media = _media(req)
    mime = meta.get("mimeType") or (req.media_type.split(";")[0] if media is not None and req.media_type else None) \
        or "application/octet-stream"
    file_id = meta.get("id") or new_file_id()
    if get_file(req.store, file_id) is not None:
        raise ApiError(409, f"A file already exists with the provided ID: {file_id}.", "duplicate", location="id")
    parents = [_check_parent(req.store, p) for p in (meta.get("parents") or ["root"])]
    if len(parents) > 1:
        raise ApiError(403, "A file can only have one parent folder (Drive's single-parent rule).",
                       "cannotAddParent")
    name = meta.get("name") or "Untitled"
    rec = register_file(req.store, req.user, file_id=file_id, name=name, mime_type=mime, parents=parents)
    if media is not None:
        rec["originalFilename"] = meta.get("originalFilename", name)
    _apply_metadata(rec, {k: v for k, v in meta.items() if k != "mimeType"}, creating=True)
    kind = GOOGLE_TYPES.get(mime)
    if kind is not None:
        kind.create_empty(req.store, file_id, rec["name"])
    if media is not None:
        _set_content(req, rec, media, req.media_type)
    elif mime != FOLDER and kind is None:
        rec["size"] = "0"
        rec["md5Checksum"] = hashlib.md5(b"").hexdigest()
        req.store.put_blob("drive:" + file_id, b"")
    _save(req.store, rec)
    _ensure_owner_permission(req.store, rec, req.user)
    return public_view(rec, req.params.get("fields"))


@handler("drive.files.get")
def files_get(req: Request) -> dict[str, Any] | Response:
    rec = _require(req.store, req.params["fileId"])
    if req.params.get("alt") == "media":
        if rec["mimeType"].startswith(GOOGLE_PREFIX):
            raise ApiError(403, "Only files with binary content can be downloaded. Use Export with Docs Editors files.",
                           "fileNotDownloadable", location="alt")
        key = "drive:" + rec["id"]
        # A large file is sent from its file, not read into memory first.
        return Response(200, req.store.blob_file(key) or req.store.get_blob(key) or b"", rec["mimeType"])
    return public_view(rec, req.params.get("fields"))


@handler("drive.files.export")
def files_export(req: Request) -> Response:
    rec = _require(req.store, req.params["fileId"])
    kind = GOOGLE_TYPES.get(rec["mimeType"])
    if kind is None:
        raise ApiError(403, "Export only supports Docs Editors files.", "fileNotExportable")
    target = req.params["mimeType"]
    exporter = kind.exporters.get(target)
    if exporter is None:
        raise ApiError(400, f"The requested conversion is not supported: {rec['mimeType']} -> {target}. "
                            f"Supported: {sorted(kind.exporters)}", "badRequest", location="convertTo")
    return Response(200, exporter(req.store, rec["id"]), target)


@handler("drive.files.list")
def files_list(req: Request) -> dict[str, Any]:
    p = req.params
    try:
        pred = compile_query(p.get("q"), root_id=ROOT_ID, me=req.user)
    except QueryError as exc:
        raise _invalid("q", f"q {p.get('q')!r}: {exc}") from None
    q_lower = (p.get("q") or "").lower()
    needs_text = "fulltext" in q_lower
    needs_people = "writers" in q_lower or "readers" in q_lower
    spaces = set((p.get("spaces") or "drive").split(","))
    if not spaces <= {"drive", "appDataFolder", "photos"}:
        raise _invalid("spaces", f"spaces {p.get('spaces')!r}: use drive or appDataFolder")
    hits = []
    for rec in req.store.list(KIND):
        if rec["id"] == ROOT_ID or not (set(rec.get("spaces") or ["drive"]) & spaces):
            continue
        view = rec
        if needs_text:
            view = dict(rec, _fullText=_text_of(req.store, rec))
        if needs_people:  # permission lookups cost two queries per file
            view = dict(view, _writers=_people(req.store, rec, ("owner", "organizer", "fileOrganizer", "writer")),
                        _readers=_people(req.store, rec, ("owner", "organizer", "fileOrganizer", "writer", "commenter",
                                                          "reader")))
        if pred(view):
            hits.append(rec)
    page, token = paginate(_sort(hits, p.get("orderBy")), p, default_size=100, max_size=1000, size_param="pageSize")
    out: dict[str, Any] = {"kind": "drive#fileList", "incompleteSearch": False,
                           "files": [public_view(f, p.get("fields")) for f in page]}
    if token:
        out["nextPageToken"] = token
    return out


@handler("drive.files.update", media_file=True)
def files_update(req: Request) -> dict[str, Any]:
    rec = _require(req.store, req.params["fileId"])
    if rec["id"] == ROOT_ID:
        raise ApiError(403, "The user does not have sufficient permissions for this file.", "insufficientFilePermissions")
    meta = dict(req.body or {})
    new_mime = meta.get("mimeType")
    if new_mime and new_mime != rec["mimeType"] and (new_mime.startswith(GOOGLE_PREFIX) or rec["mimeType"].startswith(GOOGLE_PREFIX)):
        raise ApiError(403, f"Cannot change the mimeType of {rec['mimeType']} to {new_mime}; use files.copy to convert.",
                       "fieldNotWritable")
    was_trashed = bool(rec.get("trashed"))
    old_name = rec["name"]
    _apply_metadata(rec, meta, creating=False)
    add = [p for p in (req.params.get("addParents") or "").split(",") if p]
    remove = [p for p in (req.params.get("removeParents") or "").split(",") if p]
    parents = list(rec.get("parents") or [])
    for pid in remove:
        real = ROOT_ID if pid == "root" else pid
        if real not in parents:
            raise ApiError(404, f"File not found: {pid}.", "notFound", location="removeParents")
        parents.remove(real)
    for pid in add:
        real = _check_parent(req.store, pid)
        if real == rec["id"] or _is_ancestor(req.store, rec["id"], real):
            raise ApiError(400, "A folder cannot be moved into itself or one of its descendants.", "invalidParent")
        if real not in parents:
            parents.append(real)
    if len(parents) > 1:
        raise ApiError(403, "Increasing the number of parents is not allowed. A file can have only one parent: "
                            "pass removeParents along with addParents to move it.", "cannotAddParent")
    rec["parents"] = parents
    media = _media(req)
    if media is not None:
        _set_content(req, rec, media, req.media_type)
    if "trashed" in meta and bool(meta["trashed"]) != was_trashed:
        _set_trashed(req.store, rec, bool(meta["trashed"]))
    if rec["name"] != old_name and rec["mimeType"] in GOOGLE_TYPES:
        GOOGLE_TYPES[rec["mimeType"]].rename(req.store, rec["id"], rec["name"])
    if "modifiedTime" not in meta:
        rec["modifiedTime"] = rec["modifiedByMeTime"] = now_rfc3339()
    rec["version"] = str(int(rec.get("version", "1")) + 1)
    _save(req.store, rec)
    return public_view(rec, req.params.get("fields"))


def _is_ancestor(store: Store, maybe_ancestor: str, node: str) -> bool:
    seen: set[str] = set()
    stack = [node]
    while stack:
        cur = stack.pop()
        if cur in seen:
            continue
        seen.add(cur)
        rec = store.get(KIND, cur)
        for p in (rec or {}).get("parents") or []:
            if p == maybe_ancestor:
                return True
            stack.append(p)
    return False


@handler("drive.files.copy")
def files_copy(req: Request) -> dict[str, Any]:
    src = _require(req.store, req.params["fileId"])
    if src["mimeType"] == FOLDER:
        raise ApiError(403, "This file cannot be copied by the user.", "cannotCopyFile")
    meta = dict(req.body or {})
    new_id = meta.get("id") or new_file_id()
    parents = [_check_parent(req.store, p) for p in (meta.get("parents") or src.get("parents") or ["root"])]
    rec = register_file(req.store, req.user, file_id=new_id, name=meta.get("name") or f"Copy of {src['name']}",
                        mime_type=src["mimeType"], parents=parents[:1], description=src.get("description"))
    for key in ("properties", "appProperties", "size", "md5Checksum", "sha1Checksum", "sha256Checksum",
                "quotaBytesUsed", "fileExtension", "fullFileExtension", "originalFilename", "headRevisionId"):
        if key in src:
            rec[key] = src[key]
    _apply_metadata(rec, {k: v for k, v in meta.items() if k != "mimeType"}, creating=True)
    kind = GOOGLE_TYPES.get(src["mimeType"])
    if kind is not None:
        kind.copy(req.store, src["id"], new_id, rec["name"])
    else:
        _check_quota(req, new_id, int(src.get("quotaBytesUsed") or 0))
        req.store.put_blob("drive:" + new_id, req.store.get_blob("drive:" + src["id"]) or b"")
    _save(req.store, rec)
    _ensure_owner_permission(req.store, rec, req.user)
    return public_view(rec, req.params.get("fields"))


@handler("drive.files.delete")
def files_delete(req: Request) -> None:
    rec = _require(req.store, req.params["fileId"])
    if rec["id"] == ROOT_ID:
        raise ApiError(403, "The user does not have sufficient permissions for this file.", "insufficientFilePermissions")
    _delete_tree(req.store, rec)


@handler("drive.files.emptyTrash")
def files_empty_trash(req: Request) -> None:
    for rec in req.store.list(KIND):
        if rec.get("trashed") and req.store.get(KIND, rec["id"]) is not None:
            _delete_tree(req.store, rec)


# -------------------------------------------------------------- permissions

def _ensure_owner_permission(store: Store, rec: dict[str, Any], user: str) -> None:
    u = _user(user)
    store.put(PERM_KIND, u["permissionId"], {"kind": "drive#permission", "id": u["permissionId"], "type": "user",
                                             "role": "owner", "emailAddress": user, "displayName": u["displayName"],
                                             "deleted": False, "pendingOwner": False}, scope=rec["id"])


def _people(store: Store, rec: dict[str, Any], roles: tuple[str, ...]) -> list[str]:
    out = []
    for perm in store.list(PERM_KIND, rec["id"]):
        if perm.get("role") in roles:
            out.append(perm.get("emailAddress") or perm.get("domain") or ("anyone" if perm.get("type") == "anyone" else ""))
    return [x for x in out if x]


_ROLES = {"owner", "organizer", "fileOrganizer", "writer", "commenter", "reader"}
_PERM_DEFAULT = ("kind", "id", "type", "role")


def _perm_view(perm: dict[str, Any], fields: str | None) -> dict[str, Any]:
    if fields:
        return perm
    return {k: perm[k] for k in _PERM_DEFAULT if k in perm}


@handler("drive.permissions.create")
def permissions_create(req: Request) -> dict[str, Any]:
    rec = _require(req.store, req.params["fileId"])
    body = dict(req.body or {})
    ptype, role = body.get("type"), body.get("role")
    if ptype not in ("user", "group", "domain", "anyone"):
        raise ApiError(400, f"Invalid permission type {ptype!r}: use user, group, domain or anyone.", "invalid",
                       location="permission.type")
    if role not in _ROLES:
        raise ApiError(400, f"Invalid permission role {role!r}: use one of {sorted(_ROLES)}.", "invalid",
                       location="permission.role")
    if ptype in ("user", "group") and not body.get("emailAddress"):
        raise ApiError(400, "The permission emailAddress field is required for type user or group.", "required",
                       location="permission.emailAddress")
    if role == "owner" and not req.params.get("transferOwnership"):
        raise ApiError(403, "The transferOwnership parameter must be enabled when the permission role is 'owner'.",
                       "forbidden", location="transferOwnership")
    key = body.get("emailAddress") or body.get("domain") or "anyone"
    perm_id = "anyoneWithLink" if ptype == "anyone" else hashlib.sha1(key.encode()).hexdigest()[:20]
    perm: dict[str, Any] = {"kind": "drive#permission", "id": perm_id, "type": ptype, "role": role,
                            "deleted": False, "pendingOwner": False}
    for k in ("emailAddress", "domain", "allowFileDiscovery", "expirationTime", "view"):
        if k in body:
            perm[k] = body[k]
    if "emailAddress" in body:
        perm["displayName"] = str(body["emailAddress"]).split("@")[0]
    req.store.put(PERM_KIND, perm_id, perm, scope=rec["id"])
    rec["shared"] = True
    _save(req.store, rec)
    return _perm_view(perm, req.params.get("fields"))


@handler("drive.permissions.list")
def permissions_list(req: Request) -> dict[str, Any]:
    rec = _require(req.store, req.params["fileId"])
    perms = req.store.list(PERM_KIND, rec["id"])
    page, token = paginate(perms, req.params, default_size=100, max_size=100, size_param="pageSize")
    out: dict[str, Any] = {"kind": "drive#permissionList",
                           "permissions": [_perm_view(p, req.params.get("fields")) for p in page]}
    if token:
        out["nextPageToken"] = token
    return out


def _require_perm(req: Request) -> tuple[dict[str, Any], dict[str, Any]]:
    rec = _require(req.store, req.params["fileId"])
    perm = req.store.get(PERM_KIND, req.params["permissionId"], scope=rec["id"])
    if perm is None:
        raise ApiError(404, f"Permission not found: {req.params['permissionId']}.", "notFound", location="permissionId")
    return rec, perm


@handler("drive.permissions.get")
def permissions_get(req: Request) -> dict[str, Any]:
    _, perm = _require_perm(req)
    return _perm_view(perm, req.params.get("fields"))


@handler("drive.permissions.update")
def permissions_update(req: Request) -> dict[str, Any]:
    rec, perm = _require_perm(req)
    role = (req.body or {}).get("role")
    if role is not None:
        if role not in _ROLES:
            raise ApiError(400, f"Invalid permission role {role!r}: use one of {sorted(_ROLES)}.", "invalid",
                           location="permission.role")
        perm["role"] = role
    req.store.put(PERM_KIND, perm["id"], perm, scope=rec["id"])
    return _perm_view(perm, req.params.get("fields"))


@handler("drive.permissions.delete")
def permissions_delete(req: Request) -> None:
    rec, perm = _require_perm(req)
    if perm.get("role") == "owner":
        raise ApiError(403, "The owner of a file cannot be removed.", "cannotRemoveOwner")
    req.store.delete(PERM_KIND, perm["id"], scope=rec["id"])
    rec["shared"] = any(p.get("role") != "owner" for p in req.store.list(PERM_KIND, rec["id"]))
    _save(req.store, rec)
