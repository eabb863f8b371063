"""google.drive_files against the emulator, checked through the API."""

from __future__ import annotations

from typing import Any

import pytest
from deskact.runtime.tasks.steps import StepContext, StepFailed, run_reset


def c(g: StepContext) -> Any:
    return g.services["google"]["clients"]


def test_drive_files_folders_content_trash_and_fixture(g: StepContext) -> None:
    (g.files / "logo.bin").write_bytes(b"\x00\x01binary")
    run_reset("google.drive_files", {"files": [
        {"name": "notes.txt", "parent": "Work/2025", "content": "hello"},
        {"name": "old.txt", "content": "bye", "trashed": True},
        {"name": "logo.bin", "src": "logo.bin", "mime_type": "application/octet-stream"},
        {"name": "f{i}.txt", "content": "n{i}", "repeat": 3},
        {"name": "Empty doc", "mime_type": "document"},
    ]}, g)
    drive = c(g).drive
    files = {f["name"]: f for f in drive.files().list(q="trashed = false", pageSize=100,
                                                      fields="files(id, name, parents, mimeType)").execute()["files"]}
    assert files["notes.txt"]["parents"] == [files["2025"]["id"]] and files["2025"]["parents"] == [files["Work"]["id"]]
    assert drive.files().get_media(fileId=files["notes.txt"]["id"]).execute() == b"hello"
    assert drive.files().get_media(fileId=files["logo.bin"]["id"]).execute() == b"\x00\x01binary"
    assert drive.files().get_media(fileId=files["f2.txt"]["id"]).execute() == b"n2"
    assert files["Empty doc"]["mimeType"] == "application/vnd.google-apps.document"
    assert "old.txt" not in files
    with pytest.raises(StepFailed, match="fixture 'missing.bin' not found"):
        run_reset("google.drive_files", {"files": [{"name": "x", "src": "missing.bin"}]}, g)
