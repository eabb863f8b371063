"""Each provider adapter, with its real SDK, against a local server speaking its wire format.

Parametrized over anthropic, openai and google (the ``provider`` fixture):
normal reply, reply without code, 429 + Retry-After, 500 twice, timeouts,
malformed responses, non-retryable 4xx, missing API key.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from deskact.runtime.agent.models import Message, ModelCallError, make_model
from deskact.runtime.agent.parsing import extract_code
from deskact.runtime.config import Config
from deskact.runtime.errors import MissingAPIKey, ModelError
from fake_servers import Canned, FakeServer
from provider_support import SERVERS, TEST_KEYS, SleepRecorder, model_for, png

Serve = Callable[..., FakeServer]
ASK = [Message(role="user", text="Make a folder called reports.", images=[png(1)])]


def test_normal_reply_returns_text_and_records_usage(provider: str, serve: Serve) -> None:
    server = serve(["Creating it.\n```python\nimport os\nos.makedirs('reports')\n```"])
    reply = model_for(provider, server).reply("You are an agent.", ASK)
    assert extract_code(reply.text).code == "import os\nos.makedirs('reports')"
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (11, 7)
    assert reply.usage.retries == 0
    assert reply.usage.calls == 1
    assert reply.usage.latency_s > 0
    assert len(server.requests) == 1


def test_reply_without_code_is_returned_as_text(provider: str, serve: Serve) -> None:
    server = serve(["The folder already exists, nothing to do."])
    reply = model_for(provider, server).reply("sys", ASK)
    assert reply.text == "The folder already exists, nothing to do."
    assert extract_code(reply.text).code is None


def test_429_with_retry_after_waits_that_long_then_succeeds(provider: str, serve: Serve) -> None:
    cls = SERVERS[provider]
    server = serve(
        [cls.error(429, "slow down", headers={"retry-after": "0.2"}), "```python\nexit()\n```"]
    )
    model = model_for(provider, server)
    model.sleep = recorder = SleepRecorder()
    reply = model.reply("sys", ASK)
    assert reply.text == "```python\nexit()\n```"
    assert reply.usage.retries == 1
    # Retry-After (0.2 s) replaced the computed backoff (at most 0.01 s here).
    assert recorder.waits == [0.2]
    assert server.requests[1].received_at - server.requests[0].received_at >= 0.2
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (11, 7)


def test_500_twice_then_success(provider: str, serve: Serve) -> None:
    cls = SERVERS[provider]
    server = serve([cls.error(500, "boom"), cls.error(503, "busy"), "done"])
    model = model_for(provider, server)
    model.sleep = recorder = SleepRecorder()
    reply = model.reply("sys", ASK)
    assert reply.text == "done"
    assert reply.usage.retries == 2
    assert len(server.requests) == 3
    # Full jitter: each wait is within [0, initial * 2**n].
    assert all(0 <= wait <= 0.01 * 2**n for n, wait in enumerate(recorder.waits))


def test_500_until_retries_run_out_is_a_clear_error(provider: str, serve: Serve) -> None:
    cls = SERVERS[provider]
    server = serve([cls.error(502, "bad gateway upstream")] * 3)
    with pytest.raises(ModelCallError) as info:
        model_for(provider, server, max_retries=2).reply("sys", ASK)
    message = str(info.value)
    assert message.startswith(f"{provider}/")
    assert (
        "HTTP 502" in message and "bad gateway upstream" in message and "after 2 retries" in message
    )
    assert info.value.usage.retries == 2
    assert len(server.requests) == 3


def test_timeout_is_retried_then_fails_clearly(provider: str, serve: Serve) -> None:
    slow = Canned(text="too late", delay=3.0)
    server = serve([slow, slow])
    with pytest.raises(ModelCallError) as info:
        model_for(provider, server, timeout=0.3, max_retries=1).reply("sys", ASK)
    assert "timed out" in str(info.value) and "after 1 retry" in str(info.value)
    assert info.value.failure is not None and info.value.failure.kind == "timeout"
    assert len(server.requests) == 2


def test_timeout_then_success(provider: str, serve: Serve) -> None:
    slow = Canned(text="too late", delay=3.0)
    server = serve([slow, "in time"])
    reply = model_for(provider, server, timeout=0.3, max_retries=1).reply("sys", ASK)
    assert reply.text == "in time" and reply.usage.retries == 1


@pytest.mark.parametrize("body", [{"unexpected": "shape"}, "<html>gateway says hi</html>", []])
def test_malformed_response_is_a_model_error(provider: str, serve: Serve, body: object) -> None:
    server = serve([Canned(status=200, body=body)])
    with pytest.raises(ModelError) as info:
        model_for(provider, server).reply("sys", ASK)
    assert "malformed response" in str(info.value)
    assert str(info.value).startswith(f"{provider}/")
    assert len(server.requests) == 1  # not retried: the same request would get the same answer


def test_other_4xx_is_not_retried(provider: str, serve: Serve) -> None:
    cls = SERVERS[provider]
    server = serve([cls.error(400, "image too large"), "never sent"])
    with pytest.raises(ModelCallError) as info:
        model_for(provider, server).reply("sys", ASK)
    assert "HTTP 400" in str(info.value) and "image too large" in str(info.value)
    assert info.value.usage.retries == 0
    assert len(server.requests) == 1


def test_408_is_retried(provider: str, serve: Serve) -> None:
    cls = SERVERS[provider]
    server = serve([cls.error(408, "request timeout"), "ok"])
    reply = model_for(provider, server).reply("sys", ASK)
    assert reply.text == "ok" and reply.usage.retries == 1


def test_connection_refused_is_retried_then_fails(provider: str, serve: Serve) -> None:
    server = serve([])
    url_server = server  # keep the URL, then stop the server so the port refuses
    model = model_for(provider, url_server, max_retries=1)
    server.__exit__(None, None, None)
    with pytest.raises(ModelCallError) as info:
        model.reply("sys", ASK)
    assert "could not connect" in str(info.value) or "timed out" in str(info.value)
    assert info.value.usage.retries == 1


def test_missing_api_key_names_the_variable(provider: str) -> None:
    model = make_model(f"{provider}/x", Config(), environ={})
    var = getattr(Config().providers, provider).api_key_env
    with pytest.raises(MissingAPIKey, match=var):
        model.check_ready()
    ready = make_model(f"{provider}/x", Config(), environ=TEST_KEYS)
    ready.check_ready()  # keys present: no error, and no network needed


def test_deadline_shortens_the_request_timeout_and_skips_retries(
    provider: str, serve: Serve
) -> None:
    server = serve([Canned(text="too late", delay=3.0), "never asked"])
    model = model_for(provider, server, timeout=60, max_retries=5)
    model.client()  # the SDK's import and client set-up happen before the deadline starts: only the call is timed
    model.deadline = time.monotonic() + 0.5
    with pytest.raises(ModelCallError) as info:
        model.reply("sys", ASK)
    message = str(info.value)
    assert "shortened by the episode's time limit" in message
    assert "no time left to retry" in message
    assert len(server.requests) == 1


def test_retry_after_beyond_the_deadline_fails_at_once(provider: str, serve: Serve) -> None:
    cls = SERVERS[provider]
    server = serve([cls.error(429, "quota", headers={"retry-after": "30"}), "never asked"])
    model = model_for(provider, server, backoff_max=60)
    model.sleep = recorder = SleepRecorder()
    model.deadline = time.monotonic() + 5
    with pytest.raises(ModelCallError, match="HTTP 429: .*quota.*no time left to retry"):
        model.reply("sys", ASK)
    assert recorder.waits == []


def test_deadline_already_passed(provider: str, serve: Serve) -> None:
    server = serve(["never asked"])
    model = model_for(provider, server)
    model.deadline = time.monotonic() - 1
    with pytest.raises(ModelCallError, match="time limit passed before the call"):
        model.reply("sys", ASK)
    assert server.requests == []
