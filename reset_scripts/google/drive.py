"""google.drive_files: seed Drive with folders and files (content inline or from fixtures)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ...runtime.tasks.helpers import fixture
from ...runtime.tasks.steps import StepContext, reset_step
from .account import FOLDER, MIME_SHORT, _repeat, _require_reset, clients, folder_path


class DriveFileSpec(BaseModel):
    """A Drive file or folder. ``parent``: a folder path like "Projects/2024" (created)."""

    model_config = ConfigDict(extra="forbid")
    name: str
    mime_type: str = "text/plain"
    """A MIME type, or folder / document / spreadsheet / presentation / form."""
    parent: str = ""
    content: str | None = None
    src: str | None = None
    """A fixture file to upload instead of ``content``."""
    trashed: bool = False
    starred: bool = False
    description: str | None = None
    repeat: int = Field(1, ge=1, le=2000)


@reset_step("google.drive_files")
def drive_files(ctx: StepContext, files: list[DriveFileSpec]) -> None:
    """Create Drive files and folders (``{i}`` in name/content with ``repeat``)."""
    from googleapiclient.http import MediaInMemoryUpload

    _require_reset(ctx)
    drive = clients(ctx).drive
    for spec in files:
        mime = MIME_SHORT.get(spec.mime_type, spec.mime_type)
        parent = folder_path(ctx, spec.parent, create=True)
        data = fixture(ctx, spec.src).read_bytes() if spec.src else None
        for i in range(1, spec.repeat + 1):
            body: dict[str, Any] = {"name": _repeat(spec.repeat, spec.name, i), "mimeType": mime,
                                    "parents": [parent]}
            if spec.starred:
                body["starred"] = True
            if spec.description is not None:
                body["description"] = spec.description
            content = data if data is not None else (
                (_repeat(spec.repeat, spec.content, i) or "").encode() if spec.content is not None else None)
            if content is not None and mime != FOLDER and not mime.startswith("application/vnd.google-apps"):
                media = MediaInMemoryUpload(content, mimetype=mime)
                made = drive.files().create(body=body, media_body=media, fields="id").execute()
            else:
                made = drive.files().create(body=body, fields="id").execute()
            if spec.trashed:
                drive.files().update(fileId=made["id"], body={"trashed": True}).execute()
