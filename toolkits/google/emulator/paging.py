"""``pageToken`` / ``nextPageToken`` paging.

Tokens are opaque to clients (as Google's are): an offset plus a fingerprint of
the query, so a token replayed with a different query is rejected with 400
instead of silently returning the wrong page.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Sequence
from typing import Any, TypeVar

from .errors import ApiError

T = TypeVar("T")

# Parameters that do not change which items a list returns.
_NOT_QUERY = {"pageToken", "maxResults", "pageSize", "fields", "alt", "prettyPrint", "key",
              "quotaUser", "access_token", "oauth_token", "$.xgafv", "callback"}


def _fingerprint(params: dict[str, Any]) -> str:
    relevant = {k: v for k, v in params.items() if k not in _NOT_QUERY}
    return hashlib.sha1(json.dumps(relevant, sort_keys=True, default=str).encode()).hexdigest()[:10]


def encode_token(offset: int, params: dict[str, Any]) -> str:
    raw = json.dumps([offset, _fingerprint(params)]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_token(token: str, params: dict[str, Any]) -> int:
    try:
        padded = token + "=" * (-len(token) % 4)
        offset, fingerprint = json.loads(base64.urlsafe_b64decode(padded))
        offset = int(offset)
    except (ValueError, TypeError):  # bad base64 or JSON (ValueErrors both), not a pair, not a number
        raise ApiError(400, f"Invalid page token '{token}'", "invalid", location="pageToken") from None
    if fingerprint != _fingerprint(params) or offset < 0:
        raise ApiError(400, "The page token does not belong to this query", "invalid", location="pageToken")
    return offset


def paginate(
    items: Sequence[T],
    params: dict[str, Any],
    *,
    default_size: int,
    max_size: int,
    size_param: str = "maxResults",
) -> tuple[list[T], str | None]:
    """One page of ``items`` and the token for the next page (None on the last page).

    ``params`` are the request's typed parameters (``req.params``). A page size
    above ``max_size`` is clamped, as Google does.
    """
    size = params.get(size_param) or default_size
    size = max(1, min(int(size), max_size))
    token = params.get("pageToken")
    start = decode_token(token, params) if token else 0
    page = list(items[start : start + size])
    nxt = encode_token(start + size, params) if start + size < len(items) else None
    return page, nxt
