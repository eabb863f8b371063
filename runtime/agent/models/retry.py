"""One retry loop for every provider (the SDKs' own retries are switched off).

Why our own: the three SDKs retry differently (different status sets, one of
them ignores Retry-After), and the runner needs the retry count of every call.
Policy: exponential backoff with full jitter on 408, 429, 5xx, timeouts and
connection errors; Retry-After (seconds, HTTP date, or the non-standard
``retry-after-ms``) wins over the computed backoff; any other 4xx fails at once.
"""

from __future__ import annotations

import email.utils
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal, TypeVar

from ...config import ProviderConfig
from ...errors import ModelError
from .base import Usage

T = TypeVar("T")

FailureKind = Literal["status", "timeout", "connection", "invalid_response"]
BODY_EXCERPT_CHARS = 300
MIN_ATTEMPT_S = 1.0
"""A retry left with less time than this before the deadline is not worth sending."""
FATAL_STATUSES = frozenset({401, 403, 404})
"""A wrong key (401), a key without access (403), a model or path the server does not know (404)."""
INVALID_KEY_MARKERS = ("API_KEY_INVALID", "API key not valid")
"""Gemini answers a wrong key with 400 and one of these in the body."""


@dataclass(frozen=True)
class RetryPolicy:
    max_retries: int = 5
    backoff_initial: float = 1.0
    backoff_max: float = 60.0

    @classmethod
    def from_config(cls, settings: ProviderConfig) -> RetryPolicy:
        return cls(settings.max_retries, settings.backoff_initial, settings.backoff_max)


@dataclass(frozen=True)
class Failure:
    """One failed attempt, translated from an SDK exception by the adapter."""

    kind: FailureKind
    status: int | None = None
    body: str = ""
    retry_after: float | None = None

    @property
    def retryable(self) -> bool:
        if self.kind in ("timeout", "connection"):
            return True
        if self.kind == "status" and self.status is not None:
            return self.status in (408, 429) or self.status >= 500
        return False

    @property
    def fatal(self) -> bool:
        """The same call fails for every task of a run alike: the key, the model name or the URL is
        wrong, or nothing answers there (a connection still refused after the retries)."""
        if self.kind == "connection":
            return True
        if self.kind != "status" or self.status is None:
            return False
        return self.status in FATAL_STATUSES or (
            self.status == 400 and any(m in self.body for m in INVALID_KEY_MARKERS))

    def describe(self, retries: int = 0) -> str:
        """'HTTP 503 after 2 retries: <body excerpt>'."""
        if self.kind == "status":
            text = f"HTTP {self.status}"
        elif self.kind == "timeout":
            text = "request timed out"
        elif self.kind == "connection":
            text = "could not connect"
        else:
            text = "malformed response"
        if retries:
            text += f" after {retries} retr{'y' if retries == 1 else 'ies'}"
        body = excerpt(self.body)
        return f"{text}: {body}" if body else text


class ModelCallError(ModelError):
    """A provider call failed for good. Carries what the call cost so it is not lost."""

    def __init__(self, message: str, *, failure: Failure | None = None, usage: Usage | None = None):
        super().__init__(message)
        self.failure = failure
        self.usage = usage or Usage()

    @property
    def fatal(self) -> bool:
        """Every other call of the run would fail the same way (``Failure.fatal``): the run stops."""
        return self.failure is not None and self.failure.fatal


def excerpt(text: str, limit: int = BODY_EXCERPT_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def parse_retry_after(headers: Mapping[str, str] | None, now: float | None = None) -> float | None:
    """Seconds the server asked us to wait, or None if it did not say (or said nonsense)."""
    if not headers:
        return None
    ms = headers.get("retry-after-ms")
    if ms is not None:
        try:
            return max(float(ms) / 1000.0, 0.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    value = value.strip()
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    now = time.time() if now is None else now
    return max(when.timestamp() - now, 0.0)


def backoff_delay(retry: int, policy: RetryPolicy, rng: random.Random | None = None) -> float:
    """Full jitter: uniform in [0, min(max, initial * 2**retry)] (spreads out a herd of workers)."""
    ceiling = min(policy.backoff_max, policy.backoff_initial * (2**retry))
    return (rng or random).uniform(0.0, ceiling)


def call_with_retries(
    attempt: Callable[[], T],
    classify: Callable[[BaseException], Failure | None],
    *,
    who: str,
    policy: RetryPolicy,
    sleep: Callable[[float], None] = time.sleep,
    rng: random.Random | None = None,
    deadline: float | None = None,
) -> tuple[T, int]:
    """Run ``attempt`` until it succeeds; return (result, retries used).

    ``classify`` maps an SDK exception to a Failure (None = not an API failure:
    re-raised untouched, it is a bug). A non-retryable failure, the last
    retryable one, or one whose wait would pass ``deadline`` (a
    ``time.monotonic()`` value) becomes a ModelCallError naming ``who``, the
    status and a body excerpt.
    """
    retries = 0
    started = time.monotonic()
    while True:
        try:
            return attempt(), retries
        except Exception as exc:
            failure = classify(exc)
            if failure is None:
                raise
            if not failure.retryable or retries >= policy.max_retries:
                usage = Usage(retries=retries, calls=1, latency_s=time.monotonic() - started)
                raise ModelCallError(
                    f"{who}: {failure.describe(retries)}", failure=failure, usage=usage
                ) from exc
            delay = (
                failure.retry_after
                if failure.retry_after is not None
                else backoff_delay(retries, policy, rng)
            )
            delay = min(delay, policy.backoff_max)
            if deadline is not None and time.monotonic() + delay + MIN_ATTEMPT_S >= deadline:
                usage = Usage(retries=retries, calls=1, latency_s=time.monotonic() - started)
                raise ModelCallError(
                    f"{who}: {failure.describe(retries)} (no time left to retry before the episode's time limit)",
                    failure=failure,
                    usage=usage,
                ) from exc
            sleep(delay)
            retries += 1
