"""How Drive talks to the services that own Google-type files.

A Docs document, a Sheets spreadsheet, a Slides presentation or a Form is one
Drive file whose content lives in its own service. Each of those modules
registers a `GoogleType` here (at import time) so Drive can create an empty
one, import uploaded content into it (a CSV upload with
`mimeType=application/vnd.google-apps.spreadsheet`), export it (Docs as
text/plain, Sheets as text/csv, ...), copy, rename and delete it, without
Drive importing those modules (and without import cycles).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..store import Store

FOLDER = "application/vnd.google-apps.folder"
DOCUMENT = "application/vnd.google-apps.document"
SPREADSHEET = "application/vnd.google-apps.spreadsheet"
PRESENTATION = "application/vnd.google-apps.presentation"
FORM = "application/vnd.google-apps.form"
GOOGLE_PREFIX = "application/vnd.google-apps."


@dataclass
class GoogleType:
    """Callbacks Drive uses on a Google-type file (all take the Drive file id)."""

    mime_type: str
    create_empty: Callable[[Store, str, str], None]
    """(store, file_id, title): create the service's empty resource."""
    delete: Callable[[Store, str], object]
    """(store, file_id): remove the service's resource (what it returns is ignored)."""
    copy: Callable[[Store, str, str, str], None]
    """(store, source_id, new_id, new_title)."""
    rename: Callable[[Store, str, str], None]
    """(store, file_id, title): keep the service's own title in step with Drive's name."""
    exporters: dict[str, Callable[[Store, str], bytes]] = field(default_factory=dict)
    """export mimeType -> (store, file_id) -> bytes."""
    importers: dict[str, Callable[[Store, str, str, bytes], None]] = field(default_factory=dict)
    """upload mimeType -> (store, file_id, title, content): replace content with the upload."""
    text: Callable[[Store, str], str] | None = None
    """Plain text for fullText search."""


GOOGLE_TYPES: dict[str, GoogleType] = {}


def register_type(kind: GoogleType) -> None:
    GOOGLE_TYPES[kind.mime_type] = kind


# Export formats Google lists in exportLinks / about.exportFormats.
EXPORT_EXTENSIONS = {
    "text/plain": "txt", "text/csv": "csv", "text/tab-separated-values": "tsv", "text/html": "html",
    "text/markdown": "md", "application/pdf": "pdf",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
}
