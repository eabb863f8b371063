"""Errors in Google's JSON error format.

Google APIs answer failures with::

    {"error": {"code": 404, "message": "Not Found",
               "errors": [{"domain": "global", "reason": "notFound", "message": "Not Found"}],
               "status": "NOT_FOUND"}}

Handlers raise :class:`ApiError` (or one of the helpers below); the framework
turns it into that body with the same HTTP status. googleapiclient then raises
``HttpError`` whose ``.resp.status`` and ``.reason`` match what real Google gives.
"""

from __future__ import annotations

from typing import Any

# The canonical google.rpc status names, keyed by HTTP status.
_STATUS_NAMES: dict[int, str] = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    409: "ALREADY_EXISTS",
    410: "FAILED_PRECONDITION",
    412: "FAILED_PRECONDITION",
    413: "OUT_OF_RANGE",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    501: "UNIMPLEMENTED",
    503: "UNAVAILABLE",
}


class ApiError(Exception):
    """An error answered to the client in Google's format.

    ``reason`` is the legacy ``errors[0].reason`` (``notFound``, ``required``,
    ``invalid``, ``duplicate``, ``badRequest``...); ``location`` names the
    offending parameter when there is one, as Google does.
    """

    def __init__(
        self,
        code: int,
        message: str,
        reason: str = "badRequest",
        *,
        domain: str = "global",
        location: str | None = None,
        location_type: str | None = None,
        status: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason
        self.domain = domain
        self.location = location
        self.location_type = location_type
        self.status = status or _STATUS_NAMES.get(code, "UNKNOWN")

    def to_json(self) -> dict[str, Any]:
        item: dict[str, Any] = {"domain": self.domain, "reason": self.reason, "message": self.message}
        if self.location:
            item["location"] = self.location
            item["locationType"] = self.location_type or "parameter"
        return {
            "error": {
                "code": self.code,
                "message": self.message,
                "errors": [item],
                "status": self.status,
            }
        }


def not_found(message: str = "Not Found") -> ApiError:
    return ApiError(404, message, "notFound")


def bad_request(message: str, reason: str = "badRequest", location: str | None = None) -> ApiError:
    return ApiError(400, message, reason, location=location)


def invalid_param(name: str, value: Any, why: str = "") -> ApiError:
    msg = f"Invalid value '{value}' for parameter '{name}'" + (f": {why}" if why else "")
    return ApiError(400, msg, "invalidParameter", location=name)


def required(name: str, message: str | None = None) -> ApiError:
    return ApiError(400, message or f"Required parameter: {name}", "required", location=name)


def duplicate(message: str = "The requested identifier already exists.") -> ApiError:
    return ApiError(409, message, "duplicate")


def not_implemented(method_id: str) -> ApiError:
    return ApiError(
        501,
        f"Method {method_id} is in the discovery document but is not emulated by deskact",
        "notImplemented",
    )
