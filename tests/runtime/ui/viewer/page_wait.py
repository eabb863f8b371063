"""What the viewer's browser tests share: waiting for a page that redraws on its own schedule."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

WAIT_S = 60.0


def until(what: str, check: Callable[[], Any], timeout: float = WAIT_S) -> Any:
    """Poll ``check`` until it returns something truthy; an exception (an element replaced mid-read)
    counts as not yet."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        try:
            last = check()
        except Exception as exc:  # noqa: BLE001 - an element replaced mid-read: try again
            last = exc
        if last and not isinstance(last, Exception):
            return last
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what} (last: {last!r})")
