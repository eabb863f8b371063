"""Small pieces the service modules share.

Docs, Sheets, Slides and Forms each keep one record per Drive file id, answer
an unknown id with the same 404, follow Drive renames, and take a batchUpdate
body of one-kind requests. Calendar and Gmail resources have update/patch
pairs served by one writer. What differs between services (the id field,
where the title lives, how a request is applied) stays in the service module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from .errors import ApiError
from .framework import Request, handler
from .store import Store


def load_record(store: Store, kind: str, id_name: str, record_id: str) -> dict[str, Any]:
    """The stored record, or Google's 404 that names the id parameter (``documentId``...)."""
    record = store.get(kind, record_id)
    if record is None:
        raise ApiError(404, f"Requested entity was not found. ({id_name} {record_id})", "notFound")
    return record


def rename_hook(kind: str, *title_path: str) -> Callable[[Store, str, str], None]:
    """Drive's rename callback: write the new title at ``title_path`` inside the record.

    A file with no record in the service has no title to keep in step, so it is
    left alone.
    """

    def rename(store: Store, file_id: str, title: str) -> None:
        record = store.get(kind, file_id)
        if record is None:
            return
        parent = record
        for key in title_path[:-1]:
            parent = parent[key]
        parent[title_path[-1]] = title
        store.put(kind, file_id, record)

    return rename


def check_revision(body: dict[str, Any], current: str, what: str) -> None:
    """Refuse a batchUpdate whose ``writeControl.requiredRevisionId`` is not ``current``.

    ``what`` ends Google's message: "the latest revision of the document".
    """
    wanted = (body.get("writeControl") or {}).get("requiredRevisionId")
    if wanted and wanted != current:
        raise ApiError(400, f"The required revision ID does not match {what}.", "failedPrecondition")


def each_request(requests: list[Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(where, kind, payload) for each batchUpdate request, ``where`` as in ``requests[2].insertText``.

    Each request is checked just before the caller applies it, so the error
    reported is the first one in request order, whatever its cause.
    """
    for i, request in enumerate(requests):
        if not isinstance(request, dict) or len(request) != 1:
            raise ApiError(400, f"Invalid requests[{i}]: exactly one request kind must be set.", "badRequest")
        kind, payload = next(iter(request.items()))
        yield f"requests[{i}].{kind}", kind, payload or {}


def update_and_patch(update_id: str, patch_id: str, write: Callable[[Request, bool], dict[str, Any]]) -> None:
    """Serve a resource's update (``write(req, False)``: replace) and patch (``write(req, True)``: merge)."""
    handler(update_id)(lambda req: write(req, False))
    handler(patch_id)(lambda req: write(req, True))
