"""The request pipeline every emulated Google API goes through.

``Emulator.dispatch`` takes one raw HTTP request and:

1. answers admin calls (``/_emulator/...``; 403 when ``admin=False``, as on
   every endpoint an agent can reach) and batch posts (``/batch...``);
2. continues resumable uploads (``?upload_id=``) and re-enters with the whole body;
3. matches the route from the discovery documents (404 if no method has that path);
4. validates parameters (400 in Google's format), reads the JSON body (400 if it
   is required and missing or not JSON), splits ``uploadType=multipart`` bodies;
5. calls the registered handler (501 naming the method if there is none);
6. applies ``fields`` (validated against the response schema), answers
   ``If-None-Match`` with 304, serialises JSON.

The handler-registration API is documented in ``__init__.py``.
"""

from __future__ import annotations

import importlib
import json
import shutil
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

from .discovery import Router
from .errors import ApiError, not_implemented
from .fields import apply_fields, check_fields, parse_fields
from .limits import EmulatorLimits
from .store import SnapshotError, Store

# Service packages imported by every Emulator (each registers its handlers when
# imported). A package that does not exist yet is skipped: its methods answer 501.
SERVICE_MODULES: tuple[str, ...] = ("calendar", "gmail", "drive", "sheets", "docs", "slides", "forms")


@dataclass
class Request:
    """What a handler receives."""

    emulator: Emulator
    method_id: str
    params: dict[str, Any]
    """Path and query parameters, converted to their discovery types; repeated ones are lists."""
    body: Any
    """Parsed JSON request body (a dict), or None."""
    media: bytes | None
    """Uploaded content for media uploads (simple, multipart or resumable), else None."""
    media_type: str | None
    """Content type of ``media``."""
    headers: dict[str, str]
    """Request headers, lower-case names."""
    base_url: str
    """``http://host:port`` as the client addressed the server (for Location/selfLink URLs)."""
    media_file: Path | None = None
    """A finished resumable upload's content on disk, for handlers registered with
    ``media_file=True`` (``media`` is then None); the handler may move or delete it."""

    @property
    def store(self) -> Store:
        return self.emulator.store

    @property
    def user(self) -> str:
        """The single emulated user's email address."""
        return self.emulator.user


@dataclass
class Response:
    """A non-default answer: another status, raw bytes (``alt=media``), extra headers."""

    status: int = 200
    body: Any = None
    """dict/list -> JSON; bytes -> sent as is; a Path -> that file's content, streamed; None -> empty body."""
    content_type: str | None = None
    headers: dict[str, str] = field(default_factory=dict)


Handler = Callable[[Request], "dict[str, Any] | Response | None"]
ResetHook = Callable[[Store, str], None]

HANDLERS: dict[str, Handler] = {}
MEDIA_FILE_HANDLERS: set[str] = set()
"""Methods whose handler takes a finished resumable upload as ``req.media_file``."""
# Methods that declare a request body Google nonetheless lets clients omit.
_BODY_OPTIONAL = {"drive.files.update", "drive.files.copy", "drive.files.create",
                  "sheets.spreadsheets.values.clear"}
RESET_HOOKS: list[ResetHook] = []


def handler(method_id: str, media_file: bool = False) -> Callable[[Handler], Handler]:
    """Register ``fn`` as the implementation of discovery method ``method_id``;
    ``media_file``: it reads large uploads from ``req.media_file`` (not loaded in memory)."""

    def register(fn: Handler) -> Handler:
        HANDLERS[method_id] = fn
        if media_file:
            MEDIA_FILE_HANDLERS.add(method_id)
        return fn

    return register


def on_reset(fn: ResetHook) -> ResetHook:
    """Register ``fn(store, user)`` to seed the empty state (e.g. the primary calendar)."""
    RESET_HOOKS.append(fn)
    return fn


def load_service_modules() -> None:
    for name in SERVICE_MODULES:
        full = f"{__package__}.{name}"
        try:
            importlib.import_module(full)
        except ModuleNotFoundError as exc:
            if exc.name != full:
                raise


@dataclass
class RawResponse:
    status: int
    headers: dict[str, str]
    body: bytes
    file: Path | None = None
    """Content to send from this file instead of ``body`` (a large download, never loaded whole)."""


def _json_response(status: int, data: Any, headers: dict[str, str] | None = None) -> RawResponse:
    body = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    h = {"Content-Type": "application/json; charset=UTF-8"}
    h.update(headers or {})
    return RawResponse(status, h, body)


def quota_exceeded() -> ApiError:
    """Google's answer to an upload past the account's storage quota."""
    return ApiError(403, "The user's Drive storage quota has been exceeded.", "storageQuotaExceeded")


def error_response(err: ApiError) -> RawResponse:
    return _json_response(err.code, err.to_json())


def split_multipart(body: bytes, content_type: str) -> list[tuple[dict[str, str], bytes]]:
    """Parts of a multipart body as (lower-case headers, content). Binary safe."""
    boundary = None
    for piece in content_type.split(";")[1:]:
        key, _, value = piece.strip().partition("=")
        if key.lower() == "boundary":
            boundary = value.strip().strip('"')
    if not boundary:
        raise ApiError(400, f"Content-Type {content_type!r} has no multipart boundary", "badContent")
    delim = b"--" + boundary.encode()
    parts = []
    for chunk in body.split(delim)[1:]:
        if chunk.startswith(b"--"):
            break
        chunk = chunk[2:] if chunk.startswith(b"\r\n") else chunk.lstrip(b"\n")
        if chunk.endswith(b"\r\n"):
            chunk = chunk[:-2]
        elif chunk.endswith(b"\n"):
            chunk = chunk[:-1]
        head, sep, content = chunk.partition(b"\r\n\r\n")
        if not sep:
            head, sep, content = chunk.partition(b"\n\n")
        headers: dict[str, str] = {}
        for line in head.decode("latin-1").splitlines():
            name, colon, value = line.partition(":")
            if colon:
                headers[name.strip().lower()] = value.strip()
        parts.append((headers, content))
    return parts


@dataclass
class _UploadSession:
    method: str
    path: str
    headers: dict[str, str]
    metadata: bytes
    media_type: str
    total: int | None
    file: Path
    """Where the chunks received so far are appended."""
    received: int = 0
    touched: float = field(default_factory=time.monotonic)
    query: list[tuple[str, str]] = field(default_factory=list)
    """The initiating request's query (fields, supportsAllDrives, ...), replayed at the end."""


class Emulator:
    """One emulator instance: a router, a store, the handlers. Thread safe.

    ``state_dir``: where the SQLite database and named snapshots live (None =
    in memory). ``user``: the single account's email address. ``files_dir``: where
    large content and unfinished uploads live (default: ``state_dir/files``, or a
    temporary folder; without ``state_dir`` it is removed on close). ``limits``: request sizes, the Drive quota,
    upload session lifetime.
    """

    def __init__(
        self, state_dir: Path | None = None, user: str = "me@deskact.test",
        limits: EmulatorLimits | None = None, files_dir: Path | None = None,
    ) -> None:
        load_service_modules()
        self.limits = limits or EmulatorLimits()
        self._own_files = state_dir is None  # the in-memory database dies with us: its files too
        if files_dir is None:
            files_dir = state_dir / "files" if state_dir else Path(tempfile.mkdtemp(prefix="deskact-google-"))
        self.upload_dir = files_dir / ".uploads"
        self.upload_dir.mkdir(parents=True, exist_ok=True)
        self.router = Router()
        unknown = sorted(set(HANDLERS) - set(self.router.methods))
        if unknown:
            raise ValueError(f"handlers registered for methods no discovery document has: {unknown}")
        self.user = user
        self.store = Store(state_dir, files_dir=files_dir)
        self._uploads: dict[str, _UploadSession] = {}
        fresh = not self.store.list("emulator.meta")
        if fresh:
            self._seed()
        else:
            self._seed_snapshot_of_empty()

    # ---- state ------------------------------------------------------------
    def _seed(self) -> None:
        with self.store.lock:
            for kind in [r[0] for r in self.store.conn.execute("SELECT DISTINCT kind FROM docs")]:
                self.store.conn.execute("DELETE FROM docs WHERE kind=?", (kind,))
            self.store.conn.execute("DELETE FROM blobs")
            self.store.conn.execute("DELETE FROM blob_files")
            self.store.conn.execute("DELETE FROM counters")
            self.store.put("emulator.meta", "meta", {"user": self.user, "created": time.time()})
            for hook in RESET_HOOKS:
                hook(self.store, self.user)
            self.store.save_snapshot("__empty__")

    def _seed_snapshot_of_empty(self) -> None:
        # Existing state on disk: keep it, but build the empty snapshot aside.
        with self.store.lock:
            self.store.save_snapshot("__current__")
            self._seed()
            self.store.restore_snapshot("__current__")
            self.store.delete_snapshot("__current__")

    def reset(self, snapshot: str | None = None) -> None:
        """Back to the seeded empty state, or to a named snapshot."""
        self.store.restore_snapshot(snapshot or "__empty__")
        with self.store.lock:
            for session in self._uploads.values():
                session.file.unlink(missing_ok=True)
            self._uploads.clear()
        self.store.collect_files()

    def snapshot(self, name: str) -> None:
        """Save the current state as ``name`` (also on disk when there is a state dir)."""
        self.store.save_snapshot(name)

    def close(self) -> None:
        self.store.close()
        if self._own_files and self.store.files_dir is not None:
            shutil.rmtree(self.store.files_dir, ignore_errors=True)
        else:
            shutil.rmtree(self.upload_dir, ignore_errors=True)

    # ---- the pipeline -----------------------------------------------------
    def dispatch(
        self, method: str, target: str, headers: dict[str, str], body: bytes, base_url: str,
        admin: bool = True, body_file: Path | None = None,
    ) -> RawResponse:
        """Answer one HTTP request. ``headers`` must have lower-case names.

        ``admin=False`` (the data endpoints: what a kernel reaches) refuses the
        admin API (``/_emulator/...``) with 403, batch parts included. ``body_file``:
        a resumable upload chunk the server spooled to disk (``body`` is then empty);
        dispatch removes it."""
        try:
            path, _, query = target.partition("?")
            override = headers.get("x-http-method-override")
            if override and method == "POST":
                # googleapiclient turns GETs with URIs over 2 KB into a form POST.
                method = override.upper()
                if headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
                    query = "&".join(q for q in (query, body.decode("latin-1")) if q)
                    body = b""
            auth = headers.get("authorization")
            if auth is not None and not auth.startswith("Bearer "):
                raise ApiError(401, "Request had invalid authentication credentials.", "authError",
                               location="Authorization", location_type="header")
            if path == "/_emulator" or path.startswith("/_emulator/"):
                if not admin:
                    raise ApiError(403, "The emulator's admin API (/_emulator/...) is host-only; "
                                   "this endpoint serves the Google APIs only.", "forbidden")
                return self._admin(method, path, body)
            if method == "POST" and path in self.router.batch_paths:
                from .batch import handle_batch

                return handle_batch(self, headers, body, base_url, admin)
            qs = parse_qsl(query, keep_blank_values=True)
            if any(k == "upload_id" for k, _ in qs):
                return self._continue_upload(dict(qs)["upload_id"], headers, body, base_url, body_file)
            return self._call(method, path, qs, headers, body, base_url)
        except ApiError as err:
            return error_response(err)
        except Exception as exc:  # noqa: BLE001 - a bug in a handler: answer 500 with the cause
            traceback.print_exc()
            return error_response(ApiError(500, f"emulator error: {type(exc).__name__}: {exc}", "backendError"))
        finally:
            if body_file is not None:
                body_file.unlink(missing_ok=True)

    def upload_room(self, target: str) -> int | None:
        """How many body bytes a request to ``target`` may send if it continues a resumable
        upload (it streams to disk), or None for any other request (``max_request_bytes``)."""
        qs = parse_qsl(target.partition("?")[2], keep_blank_values=True)
        upload_id = dict(qs).get("upload_id")
        if upload_id is None:
            return None
        with self.store.lock:
            self._expire_uploads()
            if upload_id not in self._uploads:
                return self.limits.max_request_bytes  # answered 404 once read
            held = sum(s.received for s in self._uploads.values())
        return max(self.limits.drive_quota_bytes - held, 0)

    def _call(
        self,
        method: str,
        path: str,
        qs: list[tuple[str, str]],
        headers: dict[str, str],
        body: bytes,
        base_url: str,
        media: bytes | None = None,
        media_type: str | None = None,
        media_file: Path | None = None,
    ) -> RawResponse:
        match = self.router.match(method, path)
        if match is None:
            if self.router.path_exists(path):
                raise ApiError(405, f"Method {method} is not allowed for {path}", "methodNotAllowed")
            raise ApiError(404, f"No Google API method matches {method} {path}", "notFound")
        spec = match.spec
        params = self._validate(spec, match.path_params, qs)
        content_type = headers.get("content-type", "")
        upload_type = params.get("uploadType")
        if media_file is not None and spec.id not in MEDIA_FILE_HANDLERS:
            media, media_file = media_file.read_bytes(), None
        if match.upload and media is None and media_file is None:
            if upload_type == "resumable":
                return self._start_upload(method, path, qs, headers, body, base_url)
            if upload_type == "multipart" or content_type.startswith("multipart/"):
                parts = split_multipart(body, content_type)
                if len(parts) != 2:
                    raise ApiError(400, f"multipart upload needs 2 parts (metadata, media), got {len(parts)}",
                                   "badContent")
                (_, body), (media_headers, media) = parts
                media_type = media_headers.get("content-type", "application/octet-stream")
            else:  # uploadType=media: the body is the content
                media, body = body, b""
                media_type = content_type or "application/octet-stream"
        parsed: Any = None
        if body.strip():
            try:
                parsed = json.loads(body)
            except ValueError as exc:
                raise ApiError(400, f"Invalid JSON payload received. {exc}", "parseError") from None
            if spec.request_ref and not isinstance(parsed, dict):
                raise ApiError(400, "Invalid JSON payload received. Expected an object.", "parseError")
        elif (spec.request_ref and media is None and media_file is None and method in ("POST", "PUT", "PATCH")
              and self._body_required(spec)):
            raise ApiError(400, f"Required request body missing for {spec.id}", "required")
        fn = HANDLERS.get(spec.id)
        if fn is None:
            raise not_implemented(spec.id)
        if params.get("alt") == "media" and not spec.supports_media_download:
            raise ApiError(400, f"alt=media is not supported by {spec.id}", "invalidParameter", location="alt")
        fields_tree = None
        if params.get("fields"):
            fields_tree = parse_fields(params["fields"])
            if spec.response_ref:
                check_fields(fields_tree, {"$ref": spec.response_ref},
                             lambda name: self.router.schema(spec.api, name), params["fields"])
        req = Request(self, spec.id, params, parsed, media, media_type, headers, base_url, media_file)
        with self.store.lock:
            self.store.conn.execute("BEGIN")
            try:
                result = fn(req)
            except BaseException:
                self.store.conn.execute("ROLLBACK")
                raise
            self.store.conn.execute("COMMIT")
        return self._render(result, fields_tree, headers, method)

    @staticmethod
    def _body_required(spec: Any) -> bool:
        # Google rejects a missing body for inserts/creates; an empty PATCH/POST
        # action body (e.g. drafts.send with nothing) is rejected by the handler.
        # Drive accepts these without a body (Google's own "move a file"
        # sample calls files.update with only addParents/removeParents).
        return spec.id not in _BODY_OPTIONAL

    def _validate(self, spec: Any, path_params: dict[str, str], qs: list[tuple[str, str]]) -> dict[str, Any]:
        from .discovery import validate_params

        return validate_params(spec, self.router.document_params(spec.api), path_params, qs)

    def _render(
        self, result: Any, fields_tree: Any, headers: dict[str, str], method: str
    ) -> RawResponse:
        if isinstance(result, Response):
            extra = dict(result.headers)
            if isinstance(result.body, (bytes, bytearray, Path)):
                extra.setdefault("Content-Type", result.content_type or "application/octet-stream")
                if isinstance(result.body, Path):
                    return RawResponse(result.status, extra, b"", file=result.body)
                return RawResponse(result.status, extra, bytes(result.body))
            if result.body is None:
                return RawResponse(result.status, extra, b"")
            data = apply_fields(result.body, fields_tree) if fields_tree else result.body
            return _json_response(result.status, data, extra)
        if result is None:
            return RawResponse(204, {}, b"")
        etag = result.get("etag") if isinstance(result, dict) else None
        if etag and method == "GET" and headers.get("if-none-match") == etag:
            return RawResponse(304, {"ETag": etag}, b"")
        data = apply_fields(result, fields_tree) if fields_tree else result
        return _json_response(200, data, {"ETag": etag} if etag else None)

    # ---- resumable uploads --------------------------------------------------
    def _start_upload(
        self, method: str, path: str, qs: list[tuple[str, str]], headers: dict[str, str],
        body: bytes, base_url: str,
    ) -> RawResponse:
        total_header = headers.get("x-upload-content-length", "")
        total = int(total_header) if total_header.isdigit() else None
        if total is not None and total > self.limits.drive_quota_bytes:
            raise quota_exceeded()
        upload_id = Store.new_id(24)
        keep = [(k, v) for k, v in qs if k not in ("uploadType", "upload_id")]
        with self.store.lock:
            self._expire_uploads()
            self._uploads[upload_id] = _UploadSession(
                method=method,
                path=path,
                headers={k: v for k, v in headers.items() if k != "content-length"},
                metadata=body,
                media_type=headers.get("x-upload-content-type", "application/octet-stream"),
                total=total,
                file=self.upload_dir / upload_id,
                query=keep + [("uploadType", "resumable")],
            )
            self._uploads[upload_id].file.touch()
        keep += [("uploadType", "resumable"), ("upload_id", upload_id)]
        location = f"{base_url}{path}?{urlencode(keep)}"
        return RawResponse(200, {"Location": location, "X-GUploader-UploadID": upload_id}, b"")

    def _expire_uploads(self) -> None:
        """Drop sessions untouched for ``upload_session_ttl_s`` (call under the store lock)."""
        cutoff = time.monotonic() - self.limits.upload_session_ttl_s
        for upload_id, session in list(self._uploads.items()):
            if session.touched < cutoff:
                del self._uploads[upload_id]
                session.file.unlink(missing_ok=True)

    def _continue_upload(
        self, upload_id: str, headers: dict[str, str], body: bytes, base_url: str, body_file: Path | None,
    ) -> RawResponse:
        with self.store.lock:  # chunks of one session must not interleave
            self._expire_uploads()
            session = self._uploads.get(upload_id)
            if session is None:
                raise ApiError(404, f"No active upload session {upload_id} (finished, expired or never started)",
                               "notFound")
            size = body_file.stat().st_size if body_file is not None else len(body)
            crange = headers.get("content-range", "")
            total = session.total
            append = True
            if crange.startswith("bytes "):
                span, _, declared = crange[6:].partition("/")
                if declared.isdigit():
                    total = int(declared)
                elif declared != "*":
                    raise ApiError(400, f"Content-Range {crange!r}: the total is not a number", "badContent")
                if span == "*":
                    append = False
                else:
                    first = span.split("-")[0]
                    if not first.isdigit():
                        raise ApiError(400, f"Content-Range {crange!r} is not bytes FIRST-LAST/TOTAL", "badContent")
                    if int(first) != session.received:
                        raise ApiError(400, f"Content-Range {crange} does not continue at byte {session.received}",
                                       "badContent")
            elif crange:
                raise ApiError(400, f"Content-Range {crange!r} is not bytes FIRST-LAST/TOTAL", "badContent")
            if append:
                held = sum(s.received for s in self._uploads.values())
                if held + size > self.limits.drive_quota_bytes:
                    self._drop_upload(upload_id)
                    raise quota_exceeded()
                with session.file.open("ab") as out:
                    if body_file is not None:
                        with body_file.open("rb") as chunk:
                            shutil.copyfileobj(chunk, out, 1024 * 1024)
                    else:
                        out.write(body)
                session.received += size
                if not crange:
                    total = session.received
            session.touched = time.monotonic()
            if total is not None and session.received > total:
                self._drop_upload(upload_id)
                raise ApiError(400, f"upload sent {session.received} bytes, more than its total {total}", "badContent")
            if total is None or session.received < total:
                h = {"Range": f"bytes=0-{session.received - 1}"} if session.received else {}
                return RawResponse(308, h, b"")
            del self._uploads[upload_id]
            try:
                return self._call(session.method, session.path, session.query, session.headers, session.metadata,
                                  base_url, media_type=session.media_type, media_file=session.file)
            finally:
                session.file.unlink(missing_ok=True)

    def _drop_upload(self, upload_id: str) -> None:
        session = self._uploads.pop(upload_id, None)
        if session is not None:
            session.file.unlink(missing_ok=True)

    # ---- admin ------------------------------------------------------------------
    def _admin(self, method: str, path: str, body: bytes) -> RawResponse:
        parts = path.strip("/").split("/")[1:]
        try:
            if parts == ["health"] and method == "GET":
                return _json_response(200, {"ok": True, "user": self.user})
            if parts == ["snapshots"] and method == "GET":
                return _json_response(200, {"snapshots": self.store.snapshot_names()})
            if parts == ["reset"] and method == "POST":
                data = json.loads(body) if body.strip() else {}
                started = time.perf_counter()
                self.reset(data.get("snapshot"))
                return _json_response(200, {"reset": data.get("snapshot") or "empty",
                                            "ms": round((time.perf_counter() - started) * 1000, 3)})
            if len(parts) == 2 and parts[0] == "snapshot" and method == "POST":
                self.snapshot(parts[1])
                return _json_response(200, {"saved": parts[1]})
            if len(parts) == 2 and parts[0] == "snapshot" and method == "DELETE":
                if not self.store.delete_snapshot(parts[1]):
                    raise ApiError(404, f"snapshot {parts[1]!r} does not exist", "notFound")
                return RawResponse(204, {}, b"")
        except SnapshotError as exc:
            raise ApiError(404 if "does not exist" in str(exc) else 400, str(exc), "invalid") from None
        raise ApiError(404, f"unknown admin call {method} {path} (health, snapshots, reset, snapshot/NAME)",
                       "notFound")
