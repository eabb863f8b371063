"""What one emulator accepts: request sizes, upload sessions, the Drive quota it reports."""

from __future__ import annotations

from dataclasses import dataclass

MIB = 1024 * 1024


@dataclass(frozen=True)
class EmulatorLimits:
    max_request_bytes: int = 64 * MIB
    """A request body past this is refused with 413 before it is read (resumable upload
    chunks excepted: they stream to disk, within ``drive_quota_bytes``)."""
    drive_quota_bytes: int = 15 * 1024 * MIB
    """The Drive storage quota ``about.get`` reports and uploads are held to (403
    storageQuotaExceeded), as Google's free tier: also the most that open upload sessions hold."""
    upload_session_ttl_s: float = 3600.0
    """An unfinished resumable upload untouched this long is dropped with its data."""
    body_idle_s: float = 60.0
    """A request body that stops arriving this long is answered 408 and its connection closed
    (a client holding a connection with a half-sent body would keep a thread for ever)."""
