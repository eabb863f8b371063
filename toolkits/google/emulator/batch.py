"""Batch requests: ``POST /batch`` and ``/batch/<api>/<version>`` with multipart/mixed.

Each part is ``Content-Type: application/http`` holding one serialised HTTP
request; the answer is multipart/mixed with one ``application/http`` response
per part, in order, with ``Content-ID: <response-ID>`` as Google sends it
(googleapiclient's BatchHttpRequest matches answers to requests by that id).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import ApiError
from .framework import RawResponse, error_response, split_multipart
from .store import Store

if TYPE_CHECKING:
    from .framework import Emulator

MAX_BATCH = 1000  # Google's limit per batch request


def _parse_inner(data: bytes) -> tuple[str, str, dict[str, str], bytes]:
    head, sep, body = data.partition(b"\r\n\r\n")
    if not sep:
        head, sep, body = data.partition(b"\n\n")
    lines = head.decode("latin-1").splitlines()
    if not lines:
        raise ApiError(400, "batch part holds no HTTP request", "badContent")
    try:
        method, target, *_ = lines[0].split(" ")
    except ValueError:
        raise ApiError(400, f"batch part has a bad request line {lines[0]!r}", "badContent") from None
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, colon, value = line.partition(":")
        if colon:
            headers[name.strip().lower()] = value.strip()
    if "content-length" in headers and headers["content-length"].isdigit():
        body = body[: int(headers["content-length"])]
    if "://" in target:  # absolute URL: keep only path?query
        target = "/" + target.split("://", 1)[1].split("/", 1)[-1]
    return method.upper(), target, headers, body


def _inline(resp: RawResponse, limit: int) -> RawResponse:
    assert resp.file is not None
    try:
        if resp.file.stat().st_size > limit:
            return error_response(ApiError(413, f"a download inside a batch is limited to {limit} bytes; "
                                                "download the file by itself", "downloadTooLarge"))
        return RawResponse(resp.status, resp.headers, resp.file.read_bytes())
    except OSError:
        return error_response(ApiError(404, "the file's content is gone", "notFound"))


def handle_batch(
    emulator: Emulator, headers: dict[str, str], body: bytes, base_url: str, admin: bool = True
) -> RawResponse:
    """Answer each part through ``emulator.dispatch`` with the same ``admin`` as the batch itself."""
    content_type = headers.get("content-type", "")
    if not content_type.startswith("multipart/mixed"):
        raise ApiError(400, f"batch requests must be multipart/mixed, got {content_type!r}", "badContent")
    parts = split_multipart(body, content_type)
    if len(parts) > MAX_BATCH:
        raise ApiError(400, f"a batch holds at most {MAX_BATCH} calls, got {len(parts)}", "batchSizeTooLarge")
    boundary = "batch_" + Store.new_id(20)
    out = bytearray()
    for part_headers, content in parts:
        method, target, inner_headers, inner_body = _parse_inner(content)
        if target.split("?")[0].startswith("/batch"):
            raise ApiError(400, "nested batch requests are not allowed", "badContent")
        resp = emulator.dispatch(method, target, inner_headers, inner_body, base_url, admin=admin)
        if resp.file is not None:  # a download inside a batch: in memory, so within the request limit
            resp = _inline(resp, emulator.limits.max_request_bytes)
        cid = part_headers.get("content-id", "")
        cid = f"<response-{cid.strip('<>')}>" if cid else ""
        out += f"--{boundary}\r\nContent-Type: application/http\r\n".encode()
        if cid:
            out += f"Content-ID: {cid}\r\n".encode()
        out += b"\r\n"
        from http.client import responses

        out += f"HTTP/1.1 {resp.status} {responses.get(resp.status, '')}\r\n".encode()
        for name, value in resp.headers.items():
            out += f"{name}: {value}\r\n".encode("latin-1")
        out += f"Content-Length: {len(resp.body)}\r\n\r\n".encode() + resp.body + b"\r\n"
    out += f"--{boundary}--\r\n".encode()
    return RawResponse(200, {"Content-Type": f"multipart/mixed; boundary={boundary}"}, bytes(out))
