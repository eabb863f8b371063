"""Routing and parameter validation driven by the bundled discovery documents.

Every emulated API is described by the discovery document google-api-python-client
ships (``googleapiclient/discovery_cache/documents/<api>.<version>.json``). From it
we build one route per method (``servicePath`` + ``flatPath``/``path``), plus the
media-upload routes (``/upload/...`` and ``/resumable/upload/...``) and the batch
path, and we check path/query parameters (type, format, enum, required, minimum)
the way Google's front end does before any handler runs.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import googleapiclient

from .errors import ApiError, invalid_param, required

DOCUMENTS_DIR = Path(googleapiclient.__file__).parent / "discovery_cache" / "documents"

# (api, version) pairs the emulator serves. All share one server: their paths
# do not collide (calendar/v3/..., gmail/v1/..., drive/v3/..., v4/spreadsheets,
# v1/documents, v1/presentations, v1/forms).
APIS: tuple[tuple[str, str], ...] = (
    ("calendar", "v3"),
    ("gmail", "v1"),
    ("drive", "v3"),
    ("sheets", "v4"),
    ("docs", "v1"),
    ("slides", "v1"),
    ("forms", "v1"),
)

# Parameters the front end accepts on every request, whatever the document says.
_ALWAYS_ACCEPTED = {
    "alt", "fields", "key", "oauth_token", "access_token", "prettyPrint", "quotaUser",
    "userIp", "$.xgafv", "callback", "uploadType", "upload_protocol", "upload_id",
}


@cache
def load_document(api: str, version: str) -> dict[str, Any]:
    """The bundled discovery document (parsed JSON, cached; do not mutate)."""
    path = DOCUMENTS_DIR / f"{api}.{version}.json"
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: no bundled discovery document for {api} {version}") from None


@dataclass
class MethodSpec:
    """One method of a discovery document."""

    id: str  # e.g. "calendar.events.get" (the key handlers register under)
    api: str
    version: str
    http_method: str
    parameters: dict[str, dict[str, Any]]
    request_ref: str | None
    response_ref: str | None
    supports_media_download: bool
    media_upload: bool


@dataclass
class Route:
    spec: MethodSpec
    http_method: str
    regex: re.Pattern[str]
    names: list[str]
    literal_len: int  # more literal characters = more specific, tried first
    upload: str | None = None  # None, "simple" or "resumable"


@dataclass
class Match:
    spec: MethodSpec
    path_params: dict[str, str]
    upload: str | None


def _compile(template: str) -> tuple[re.Pattern[str], list[str], int]:
    """``calendar/v3/calendars/{calendarId}/events`` -> regex with named groups.

    ``{+name}`` (reserved expansion) may contain slashes; ``{name}`` may not.
    Matching is done on the still-percent-encoded path, so an encoded ``/`` or
    ``:`` inside a value never confuses the literal parts of the template.
    """
    names: list[str] = []
    out = []
    literal = 0
    pos = 0
    for m in re.finditer(r"\{(\+?)([^}]+)\}", template):
        chunk = template[pos : m.start()]
        literal += len(chunk)
        out.append(re.escape(chunk))
        names.append(m.group(2))
        out.append("(.+?)" if m.group(1) else "([^/]+?)")
        pos = m.end()
    chunk = template[pos:]
    literal += len(chunk)
    out.append(re.escape(chunk))
    return re.compile("^/" + "".join(out) + "$"), names, literal


def _walk_methods(node: dict[str, Any]) -> list[dict[str, Any]]:
    found = list(node.get("methods", {}).values())
    for child in node.get("resources", {}).values():
        found.extend(_walk_methods(child))
    return found


class Router:
    """All routes of all emulated APIs, plus their batch paths."""

    def __init__(self, apis: tuple[tuple[str, str], ...] = APIS) -> None:
        self.routes: dict[str, list[Route]] = {}
        self.methods: dict[str, MethodSpec] = {}
        self.batch_paths: set[str] = {"/batch"}
        self.documents: dict[str, dict[str, Any]] = {}
        for api, version in apis:
            doc = load_document(api, version)
            self.documents[api] = doc
            if doc.get("batchPath"):
                self.batch_paths.add("/" + doc["batchPath"].strip("/"))
            base = doc.get("servicePath", "")
            for m in _walk_methods(doc):
                spec = MethodSpec(
                    id=m["id"],
                    api=api,
                    version=version,
                    http_method=m["httpMethod"],
                    parameters=m.get("parameters", {}),
                    request_ref=(m.get("request") or {}).get("$ref"),
                    response_ref=(m.get("response") or {}).get("$ref"),
                    supports_media_download=bool(m.get("supportsMediaDownload")),
                    media_upload="mediaUpload" in m,
                )
                self.methods[spec.id] = spec
                templates = {base + m["path"]}
                flat = m.get("flatPath")
                # Some flatPaths name a placeholder no parameter has (Slides'
                # "{presentationsId}"); only the path template is usable then.
                if flat and all(n.lstrip("+") in spec.parameters for n in re.findall(r"\{([^}]+)\}", flat)):
                    templates.add(base + flat)
                for t in templates:
                    self._add(Route(spec, spec.http_method, *_compile(t)))
                if spec.media_upload:
                    protocols = m["mediaUpload"].get("protocols", {})
                    for kind in ("simple", "resumable"):
                        if kind in protocols:
                            path = protocols[kind]["path"].lstrip("/")
                            self._add(Route(spec, spec.http_method, *_compile(path), upload=kind))
        for routes in self.routes.values():
            routes.sort(key=lambda r: -r.literal_len)

    def _add(self, route: Route) -> None:
        first = route.regex.pattern[2:].split("/", 1)[0].replace("\\", "")
        self.routes.setdefault(f"{route.http_method} {first}", []).append(route)

    def match(self, http_method: str, path: str) -> Match | None:
        first = path.lstrip("/").split("/", 1)[0]
        for route in self.routes.get(f"{http_method} {first}", ()):
            m = route.regex.match(path)
            if m:
                params = {n: unquote(v) for n, v in zip(route.names, m.groups())}
                return Match(route.spec, params, route.upload)
        return None

    def path_exists(self, path: str) -> bool:
        """True when some route matches ``path`` with another HTTP method."""
        first = path.lstrip("/").split("/", 1)[0]
        return any(
            r.regex.match(path)
            for key, routes in self.routes.items()
            if key.split(" ", 1)[1] == first
            for r in routes
        )

    def schema(self, api: str, name: str) -> dict[str, Any] | None:
        return self.documents[api].get("schemas", {}).get(name)

    def document_params(self, api: str) -> dict[str, dict[str, Any]]:
        return self.documents[api].get("parameters", {})


def _convert(name: str, raw: str, desc: dict[str, Any]) -> Any:
    kind = desc.get("type", "string")
    if kind == "integer":
        try:
            value: Any = int(raw)
        except ValueError:
            raise invalid_param(name, raw, "not an integer") from None
        if "minimum" in desc and value < int(desc["minimum"]):
            raise invalid_param(name, raw, f"must be at least {desc['minimum']}")
        return value
    if kind == "number":
        try:
            return float(raw)
        except ValueError:
            raise invalid_param(name, raw, "not a number") from None
    if kind == "boolean":
        low = raw.lower()
        if low in ("true", "1"):
            return True
        if low in ("false", "0"):
            return False
        raise invalid_param(name, raw, "not a boolean")
    if "enum" in desc and raw not in desc["enum"]:
        raise invalid_param(name, raw, "must be one of " + ", ".join(desc["enum"]))
    if desc.get("format") == "date-time":
        parse_datetime(raw, name)
    if desc.get("format") == "int64":
        try:
            int(raw)
        except ValueError:
            raise invalid_param(name, raw, "not an integer") from None
    return raw


def parse_datetime(raw: str, name: str) -> datetime:
    """RFC 3339 timestamp with offset (``Z`` allowed), as Google requires."""
    try:
        value = datetime.fromisoformat(raw.replace("z", "Z"))
    except ValueError:
        raise ApiError(400, f"Bad Request: invalid {name} '{raw}'", "badRequest", location=name) from None
    if value.tzinfo is None:
        raise ApiError(400, f"Bad Request: {name} '{raw}' has no time zone offset", "badRequest", location=name)
    return value


def validate_params(
    spec: MethodSpec,
    doc_params: dict[str, dict[str, Any]],
    path_params: dict[str, str],
    query: list[tuple[str, str]],
) -> dict[str, Any]:
    """Typed parameters (path + query); repeated ones as lists. Raises ApiError(400)."""
    out: dict[str, Any] = {}
    for name, raw in query:
        desc = spec.parameters.get(name) or doc_params.get(name)
        if desc is None or desc.get("location") == "path":
            if name in _ALWAYS_ACCEPTED:
                out[name] = raw
                continue
            raise ApiError(
                400,
                f'Invalid JSON payload received. Unknown name "{name}": Cannot bind query parameter. '
                f"Field '{name}' could not be found in request message.",
                "badRequest",
                location=name,
            )
        value = _convert(name, raw, desc)
        if desc.get("repeated"):
            out.setdefault(name, []).append(value)
        else:
            out[name] = value
    for name, raw in path_params.items():
        desc = spec.parameters.get(name, {})
        if raw == "":
            raise required(name)
        out[name] = _convert(name, raw, desc) if desc else raw
    for name, desc in spec.parameters.items():
        if desc.get("required") and name not in out:
            raise required(name)
    return out
