"""Drive v3 emulator conformance, through google-api-python-client.

Also unit tests of the `q` language (drive_query) as pure functions.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from deskact.toolkits.google.emulator.drive import ROOT_ID
from deskact.toolkits.google.emulator.drive.query import QueryError, compile_query
from googleapiclient.errors import HttpError
from googleapiclient.http import MediaIoBaseUpload

FOLDER = "application/vnd.google-apps.folder"


# ------------------------------------------------------------ q (pure logic)

def _f(**kw: Any) -> dict[str, Any]:
    base = {"name": "Quarterly Report", "mimeType": "text/plain", "parents": ["p1"], "trashed": False,
            "starred": False, "modifiedTime": "2024-05-01T10:00:00.000Z", "description": ""}
    base.update(kw)
    return base


@pytest.mark.parametrize(("q", "expected"), [
    ("name = 'Quarterly Report'", True),
    ("name = 'quarterly report'", False),
    ("name != 'x'", True),
    ("name contains 'Quar'", True),
    ("name contains 'report'", True),       # word prefix, case-insensitive
    ("name contains 'port'", False),        # Drive matches prefixes, not substrings
    ("mimeType contains 'text/'", True),
    ("'p1' in parents", True),
    ("'p2' in parents", False),
    ("not 'p2' in parents", True),
    ("trashed = false and starred = false", True),
    ("trashed = true or name contains 'Quar'", True),
    ("modifiedTime > '2024-04-30T00:00:00'", True),
    ("modifiedTime >= '2024-05-01T10:00:00Z'", True),
    ("modifiedTime < '2024-05-01'", False),
    ("(name = 'a' or name = 'Quarterly Report') and not trashed = true", True),
    ("name = 'It\\'s'", False),
])
def test_query_language(q: str, expected: bool) -> None:
    assert compile_query(q)(_f()) is expected


def test_query_escapes_and_root_alias() -> None:
    assert compile_query("name = 'It\\'s done'")(_f(name="It's done"))
    assert compile_query("'root' in parents", root_id="p1")(_f())
    assert compile_query("fullText contains 'quarterly report'")(_f())
    assert compile_query("fullText contains 'budget'")(_f(_fullText="the budget is final"))
    assert not compile_query("fullText contains 'budg'")(_f(_fullText="the budget is final"))


@pytest.mark.parametrize("bad", ["name = ", "name ~ 'x'", "'x' in name", "trashed = 'yes'",
                                 "modifiedTime > 'not a date'", "bogus = 'x'", "name = 'x' and", "(name = 'x'",
                                 "name contains 'x' or or"])
def test_query_errors(bad: str) -> None:
    with pytest.raises(QueryError):
        compile_query(bad)


# --------------------------------------------------------------- conformance

def _upload(drive: Any, name: str, data: bytes, mime: str = "text/plain", parents: list[str] | None = None,
            resumable: bool = False, fields: str = "id,name,mimeType,size,parents,md5Checksum") -> dict[str, Any]:
    body: dict[str, Any] = {"name": name}
    if parents:
        body["parents"] = parents
    media = MediaIoBaseUpload(io.BytesIO(data), mime, resumable=resumable, chunksize=256 * 1024 if resumable else -1)
    return drive.files().create(body=body, media_body=media, fields=fields).execute()


def test_create_metadata_default_fields_and_get(emu: Any) -> None:
    drive = emu.build("drive", "v3")
    folder = drive.files().create(body={"name": "Projects", "mimeType": FOLDER}).execute()
    assert set(folder) == {"kind", "id", "name", "mimeType"}  # v3's default field set
    assert folder["mimeType"] == FOLDER
    full = drive.files().get(fileId=folder["id"], fields="*").execute()
    assert full["parents"] == [ROOT_ID] and full["trashed"] is False and full["ownedByMe"] is True
    root = drive.files().get(fileId="root", fields="id,name").execute()
    assert root == {"id": ROOT_ID, "name": "My Drive"}


def test_multipart_and_resumable_uploads_download(emu: Any) -> None:
    drive = emu.build("drive", "v3")
    small = _upload(drive, "notes.txt", b"hello drive")
    assert small["size"] == "11" and small["mimeType"] == "text/plain"
    assert drive.files().get_media(fileId=small["id"]).execute() == b"hello drive"
    big_data = bytes(range(256)) * 3000  # 768000 bytes: three resumable chunks
    big = _upload(drive, "blob.bin", big_data, "application/octet-stream", resumable=True)
    assert set(big) == {"id", "name", "mimeType", "size", "parents", "md5Checksum"}  # fields survive the session
    got = drive.files().get(fileId=big["id"], fields="size,md5Checksum").execute()
    assert got["size"] == str(len(big_data))
    assert drive.files().get_media(fileId=big["id"]).execute() == big_data


def test_list_q_paging_order(emu: Any) -> None:
    drive = emu.build("drive", "v3")
    folder = drive.files().create(body={"name": "Reports", "mimeType": FOLDER}).execute()
    for i in range(7):
        _upload(drive, f"report {i}.txt", f"r{i}".encode(), parents=[folder["id"]])
    _upload(drive, "other.txt", b"x")
    q = f"'{folder['id']}' in parents and trashed = false"
    names: list[str] = []
    token = None
    pages = 0
    while True:
        resp = drive.files().list(q=q, pageSize=3, pageToken=token, orderBy="name",
                                  fields="nextPageToken,files(name)").execute()
        names += [f["name"] for f in resp["files"]]
        pages += 1
        token = resp.get("nextPageToken")
        if not token:
            break
    assert pages == 3 and names == [f"report {i}.txt" for i in range(7)]
    desc = drive.files().list(q=q, orderBy="name desc", pageSize=2).execute()
    assert [f["name"] for f in desc["files"]] == ["report 6.txt", "report 5.txt"]
    folders = drive.files().list(q=f"mimeType = '{FOLDER}'").execute()["files"]
    assert [f["name"] for f in folders] == ["Reports"]
    with pytest.raises(HttpError) as err:
        drive.files().list(q="name = ").execute()
    assert err.value.resp.status == 400
    with pytest.raises(HttpError) as err:
        drive.files().list(orderBy="size").execute()
    assert err.value.resp.status == 400
    with pytest.raises(HttpError) as err:
        drive.files().list(q=q, pageToken="garbage").execute()
    assert err.value.resp.status == 400


def test_update_rename_move_content(emu: Any) -> None:
    drive = emu.build("drive", "v3")
    a = drive.files().create(body={"name": "A", "mimeType": FOLDER}).execute()
    b = drive.files().create(body={"name": "B", "mimeType": FOLDER}).execute()
    f = _upload(drive, "draft.txt", b"v1", parents=[a["id"]])
    moved = drive.files().update(fileId=f["id"], addParents=b["id"], removeParents=a["id"],
                                 body={"name": "final.txt"}, fields="name,parents").execute()
    assert moved == {"name": "final.txt", "parents": [b["id"]]}
    media = MediaIoBaseUpload(io.BytesIO(b"version two"), "text/plain")
    drive.files().update(fileId=f["id"], media_body=media).execute()
    assert drive.files().get_media(fileId=f["id"]).execute() == b"version two"
    with pytest.raises(HttpError) as err:  # a second parent is refused
        drive.files().update(fileId=f["id"], addParents=a["id"]).execute()
    assert err.value.resp.status == 403
    with pytest.raises(HttpError) as err:  # parents is not writable in update
        drive.files().update(fileId=f["id"], body={"parents": [a["id"]]}).execute()
    assert err.value.resp.status == 403
    with pytest.raises(HttpError) as err:  # a folder cannot go inside itself
        drive.files().update(fileId=b["id"], addParents=b["id"], removeParents="root").execute()
    assert err.value.resp.status == 400


def test_trash_copy_delete_and_404(emu: Any) -> None:
    drive = emu.build("drive", "v3")
    folder = drive.files().create(body={"name": "Old", "mimeType": FOLDER}).execute()
    child = _upload(drive, "inside.txt", b"data", parents=[folder["id"]])
    drive.files().update(fileId=folder["id"], body={"trashed": True}).execute()
    got = drive.files().get(fileId=child["id"], fields="trashed,explicitlyTrashed").execute()
    assert got == {"trashed": True, "explicitlyTrashed": False}
    live = drive.files().list(q="trashed = false").execute()["files"]
    assert live == []
    drive.files().update(fileId=folder["id"], body={"trashed": False}).execute()
    assert drive.files().get(fileId=child["id"], fields="trashed").execute() == {"trashed": False}
    copy = drive.files().copy(fileId=child["id"], body={}, fields="name,parents,id").execute()
    assert copy["name"] == "Copy of inside.txt" and copy["parents"] == [folder["id"]]  # inherits the folder
    assert drive.files().get_media(fileId=copy["id"]).execute() == b"data"
    copy = drive.files().copy(fileId=child["id"], body={"parents": ["root"], "name": "kept.txt"}).execute()
    drive.files().delete(fileId=folder["id"]).execute()
    with pytest.raises(HttpError) as err:
        drive.files().get(fileId=child["id"]).execute()
    assert err.value.resp.status == 404
    assert drive.files().get(fileId=copy["id"]).execute()["name"] == "kept.txt"  # was in root
    with pytest.raises(HttpError) as err:
        drive.files().delete(fileId="doesNotExist").execute()
    assert err.value.resp.status == 404
    with pytest.raises(HttpError) as err:
        drive.files().create(body={"name": "x", "parents": ["missingFolder"]}).execute()
    assert err.value.resp.status == 404


def test_empty_trash(emu: Any) -> None:
    drive = emu.build("drive", "v3")
    f = _upload(drive, "junk.txt", b"j")
    drive.files().update(fileId=f["id"], body={"trashed": True}).execute()
    drive.files().emptyTrash().execute()
    with pytest.raises(HttpError) as err:
        drive.files().get(fileId=f["id"]).execute()
    assert err.value.resp.status == 404


def test_google_types_cross_service_and_export(emu: Any) -> None:
    drive = emu.build("drive", "v3")
    sheets = emu.build("sheets", "v4")
    docs = emu.build("docs", "v1")
    # Drive -> service: a Drive file with a Google mimeType is a real empty doc/sheet.
    sheet_file = drive.files().create(body={"name": "Tracker", "mimeType": "application/vnd.google-apps.spreadsheet"}).execute()
    ss = sheets.spreadsheets().get(spreadsheetId=sheet_file["id"]).execute()
    assert ss["properties"]["title"] == "Tracker" and ss["sheets"][0]["properties"]["title"] == "Sheet1"
    doc_file = drive.files().create(body={"name": "Memo", "mimeType": "application/vnd.google-apps.document"}).execute()
    assert docs.documents().get(documentId=doc_file["id"]).execute()["title"] == "Memo"
    # Service -> Drive: created spreadsheets/documents show up with the right mimeType.
    made = docs.documents().create(body={"title": "Plan"}).execute()
    listed = drive.files().list(q="mimeType = 'application/vnd.google-apps.document'", orderBy="name").execute()
    assert [f["name"] for f in listed["files"]] == ["Memo", "Plan"]
    docs.documents().batchUpdate(documentId=made["documentId"], body={"requests": [
        {"insertText": {"location": {"index": 1}, "text": "Ship it"}}]}).execute()
    text = drive.files().export(fileId=made["documentId"], mimeType="text/plain").execute()
    assert text.decode("utf-8-sig") == "Ship it\n"
    # Renaming in Drive renames the document.
    drive.files().update(fileId=made["documentId"], body={"name": "Plan v2"}).execute()
    assert docs.documents().get(documentId=made["documentId"]).execute()["title"] == "Plan v2"
    sheets.spreadsheets().values().update(spreadsheetId=sheet_file["id"], range="A1", valueInputOption="RAW",
                                          body={"values": [["a", "b"], [1, 2]]}).execute()
    assert drive.files().export(fileId=sheet_file["id"], mimeType="text/csv").execute() == b"a,b\r\n1,2\r\n"
    # fullText search sees the content.
    hits = drive.files().list(q="fullText contains 'ship'").execute()["files"]
    assert [h["id"] for h in hits] == [made["documentId"]]
    with pytest.raises(HttpError) as err:
        drive.files().get_media(fileId=made["documentId"]).execute()
    assert err.value.resp.status == 403
    with pytest.raises(HttpError) as err:
        drive.files().export(fileId=made["documentId"], mimeType="image/png").execute()
    assert err.value.resp.status == 400
    # Deleting in Drive deletes the document.
    drive.files().delete(fileId=made["documentId"]).execute()
    with pytest.raises(HttpError) as err:
        docs.documents().get(documentId=made["documentId"]).execute()
    assert err.value.resp.status == 404


def test_upload_with_conversion(emu: Any) -> None:
    drive = emu.build("drive", "v3")
    sheets = emu.build("sheets", "v4")
    media = MediaIoBaseUpload(io.BytesIO(b"name,score\nann,3\nbob,5\n"), "text/csv")
    f = drive.files().create(body={"name": "Scores", "mimeType": "application/vnd.google-apps.spreadsheet"},
                             media_body=media).execute()
    vals = sheets.spreadsheets().values().get(spreadsheetId=f["id"], range="A1:B3",
                                              valueRenderOption="UNFORMATTED_VALUE").execute()
    assert vals["values"] == [["name", "score"], ["ann", 3], ["bob", 5]]


def test_permissions(emu: Any) -> None:
    drive = emu.build("drive", "v3")
    f = _upload(drive, "shared.txt", b"s")
    perm = drive.permissions().create(fileId=f["id"], body={"type": "user", "role": "writer",
                                                            "emailAddress": "bob@example.com"}).execute()
    assert perm["role"] == "writer"
    roles = {p["role"] for p in drive.permissions().list(fileId=f["id"]).execute()["permissions"]}
    assert roles == {"owner", "writer"}
    hits = drive.files().list(q="'bob@example.com' in writers").execute()["files"]
    assert [h["id"] for h in hits] == [f["id"]]
    drive.permissions().delete(fileId=f["id"], permissionId=perm["id"]).execute()
    with pytest.raises(HttpError) as err:
        drive.permissions().get(fileId=f["id"], permissionId=perm["id"]).execute()
    assert err.value.resp.status == 404


def test_about_requires_fields(emu: Any) -> None:
    drive = emu.build("drive", "v3")
    with pytest.raises(HttpError) as err:
        drive.about().get().execute()
    assert err.value.resp.status == 400
    about = drive.about().get(fields="user(emailAddress)").execute()
    assert about == {"user": {"emailAddress": "me@deskact.test"}}
