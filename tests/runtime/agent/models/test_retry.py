"""The retry loop on its own: Retry-After parsing, full-jitter backoff, what is retried."""

from __future__ import annotations

import email.utils
import random

import pytest
from deskact.runtime.agent.models.retry import (
    Failure,
    ModelCallError,
    RetryPolicy,
    backoff_delay,
    call_with_retries,
    parse_retry_after,
)

NOW = 1_800_000_000.0


def test_retry_after_seconds_float_ms_and_date() -> None:
    assert parse_retry_after({"retry-after": "3"}) == 3.0
    assert parse_retry_after({"retry-after": "0.25"}) == 0.25
    assert parse_retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    date = email.utils.formatdate(NOW + 7, usegmt=True)
    assert parse_retry_after({"retry-after": date}, now=NOW) == pytest.approx(7.0)
    past = email.utils.formatdate(NOW - 30, usegmt=True)
    assert parse_retry_after({"retry-after": past}, now=NOW) == 0.0


def test_retry_after_absent_or_garbage_is_none() -> None:
    assert parse_retry_after(None) is None
    assert parse_retry_after({}) is None
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({"retry-after": "-5"}) == 0.0


def test_full_jitter_stays_under_the_doubling_ceiling() -> None:
    policy = RetryPolicy(max_retries=10, backoff_initial=1.0, backoff_max=8.0)
    rng = random.Random(7)
    for retry, ceiling in [(0, 1.0), (1, 2.0), (2, 4.0), (3, 8.0), (6, 8.0)]:
        waits = [backoff_delay(retry, policy, rng) for _ in range(200)]
        assert all(0.0 <= w <= ceiling for w in waits)
        assert max(waits) > ceiling / 2  # really spread over the range, not a constant


@pytest.mark.parametrize(
    ("failure", "retryable"),
    [
        (Failure("status", status=429), True),
        (Failure("status", status=408), True),
        (Failure("status", status=500), True),
        (Failure("status", status=529), True),
        (Failure("status", status=400), False),
        (Failure("status", status=401), False),
        (Failure("status", status=404), False),
        (Failure("status", status=413), False),
        (Failure("timeout"), True),
        (Failure("connection"), True),
        (Failure("invalid_response"), False),
    ],
)
def test_what_is_retried(failure: Failure, retryable: bool) -> None:
    assert failure.retryable is retryable


class Boom(Exception):
    def __init__(self, failure: Failure):
        self.failure = failure


def _run(failures: list[Failure], policy: RetryPolicy) -> tuple[object, int, list[float], int]:
    waits: list[float] = []
    calls = 0

    def attempt() -> str:
        nonlocal calls
        calls += 1
        if failures:
            raise Boom(failures.pop(0))
        return "ok"

    result, retries = call_with_retries(
        attempt,
        lambda exc: exc.failure if isinstance(exc, Boom) else None,
        who="test/model",
        policy=policy,
        sleep=waits.append,
        rng=random.Random(1),
    )
    return result, retries, waits, calls


def test_retry_after_wins_and_is_capped_by_backoff_max() -> None:
    policy = RetryPolicy(max_retries=5, backoff_initial=0.5, backoff_max=10.0)
    result, retries, waits, _ = _run(
        [
            Failure("status", status=429, retry_after=3.0),
            Failure("status", status=503, retry_after=99.0),
        ],
        policy,
    )
    assert (result, retries) == ("ok", 2)
    assert waits == [3.0, 10.0]


def test_non_retryable_fails_at_once_with_body_excerpt() -> None:
    body = '{"error": "bad request: ' + "x" * 1000 + '"}'
    with pytest.raises(ModelCallError) as info:
        _run([Failure("status", status=422, body=body)], RetryPolicy())
    message = str(info.value)
    assert message.startswith('test/model: HTTP 422: {"error": "bad request')
    assert len(message) < 400 and message.endswith("...")
    assert info.value.usage.retries == 0


def test_gives_up_after_max_retries() -> None:
    policy = RetryPolicy(max_retries=2, backoff_initial=0.1, backoff_max=1.0)
    with pytest.raises(
        ModelCallError, match=r"test/model: could not connect after 2 retries"
    ) as info:
        _run([Failure("connection", body="refused")] * 5, policy)
    assert info.value.usage.retries == 2


def test_unknown_exceptions_are_not_swallowed() -> None:
    def attempt() -> str:
        raise KeyError("bug in our code")

    with pytest.raises(KeyError):
        call_with_retries(
            attempt, lambda exc: None, who="x", policy=RetryPolicy(), sleep=lambda s: None
        )
