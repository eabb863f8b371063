"""What the three provider adapters share: API key lookup, lazy SDK import, retries, usage."""

from __future__ import annotations

import importlib
import json
import os
import threading
import time
from abc import abstractmethod
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any, ClassVar

from ...config import ProviderConfig
from ...errors import MissingAPIKey, ModelError
from .base import Message, Model, ModelReply, Usage
from .retry import (
    Failure,
    ModelCallError,
    RetryPolicy,
    call_with_retries,
    excerpt,
    parse_retry_after,
)


class CallDeadlinePassed(TimeoutError):
    """An attempt still unanswered at its whole-call deadline (a trickling server included)."""


class ParsedReply:
    """Text and token counts read from a provider response."""

    def __init__(self, text: str, input_tokens: int = 0, output_tokens: int = 0):
        self.text = text
        self.input_tokens = input_tokens
        self.output_tokens = output_tokens


class RemoteModel(Model):
    """A model behind an HTTP API. Subclasses build requests and read responses."""

    provider: ClassVar[str]
    sdk_module: ClassVar[str]
    """Module imported lazily (``import deskact`` must not pay for three SDKs)."""
    sdk_package: ClassVar[str]
    """PyPI name, for the 'not installed' message."""
    default_url: ClassVar[str] = ""
    """Where the SDK sends requests when ``base_url`` is not set (named in error messages)."""

    def __init__(
        self, model_id: str, settings: ProviderConfig, environ: Mapping[str, str] | None = None
    ):
        if not model_id:
            raise ModelError(f"model name {self.provider}/ has no model after the slash")
        self.model_id = model_id
        self.name = f"{self.provider}/{model_id}"
        self.settings = settings
        self._environ = environ
        self._client: Any = None
        self.sleep: Callable[[float], None] = time.sleep
        """How backoff waits (tests record the waits through it)."""

    @property
    def url(self) -> str:
        """The server this model's requests go to."""
        return self.settings.base_url or self.default_url or f"{self.provider}'s default URL"

    # -- readiness --------------------------------------------------------------

    def api_key(self) -> str | None:
        """The key from the configured variable; None if the server needs none."""
        var = self.settings.api_key_env
        if not var:
            return None
        environ = os.environ if self._environ is None else self._environ
        key = environ.get(var, "").strip()
        if not key:
            raise MissingAPIKey(
                f"{self.name}: the API key variable {var} is not set "
                f"(set {var}, or point providers.{self.provider}.api_key_env at another variable)"
            )
        return key

    def sdk(self) -> ModuleType:
        try:
            return importlib.import_module(self.sdk_module)
        except ImportError as exc:
            raise ModelError(  # the extras are named after the providers (pyproject.toml)
                f"{self.name}: the {self.sdk_package} package is not installed ({exc}); "
                f"pip install 'deskact[{self.provider}]'"
            ) from None

    def check_ready(self) -> None:
        self.api_key()
        self.sdk()

    # -- one call ---------------------------------------------------------------

    def client(self) -> Any:
        if self._client is None:
            self._client = self.make_client(self.sdk(), self.api_key())
        return self._client

    def reply(self, system: str, messages: list[Message]) -> ModelReply:
        if not messages:
            raise ModelError(f"{self.name}: asked to reply to an empty conversation")
        self.client()  # the first call imports the SDK: not the model's latency
        request = self.build_request(system, messages)
        started = time.monotonic()
        raw, retries = call_with_retries(
            # self.client() per attempt: an abandoned attempt closed the one before
            lambda: self._send_within(self.client(), request, self._attempt_timeout()),
            self._classify_with_timeout,
            who=f"{self.name} at {self.url}",  # a wrong URL is the likeliest cause of many failures
            policy=RetryPolicy.from_config(self.settings),
            sleep=self.sleep,
            deadline=self.deadline,
        )
        usage = Usage(latency_s=time.monotonic() - started, retries=retries, calls=1)
        try:
            parsed = self.parse(raw)
        except ModelCallError as exc:
            exc.usage = usage  # the call happened and cost time; keep it on record
            raise
        except Exception as exc:  # any surprise in the payload is a malformed reply
            problem = f"{type(exc).__name__}: {exc}"
            raise ModelCallError(
                f"{self.name}: malformed response ({excerpt(problem)})",
                failure=Failure("invalid_response", body=problem),
                usage=usage,
            ) from exc
        usage.input_tokens = parsed.input_tokens
        usage.output_tokens = parsed.output_tokens
        return ModelReply(text=parsed.text, usage=usage)

    def _send_within(self, client: Any, request: dict[str, Any], timeout: float) -> Any:
        """One attempt, abandoned at ``timeout`` whatever the server does.

        The SDKs' timeouts bound each read, not the call: a server sending a byte every
        few seconds would hold a call, and the task, for ever. The attempt runs in a
        thread; past the deadline its client is closed (which cuts the connection the
        thread reads from) and a fresh client serves the next call.
        """
        outcome: list[tuple[bool, Any]] = []
        done = threading.Event()

        def attempt() -> None:
            try:
                outcome.append((True, self.send(client, request, timeout)))
            except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
                outcome.append((False, exc))
            finally:
                done.set()

        threading.Thread(target=attempt, name=f"{self.name} call", daemon=True).start()
        if not done.wait(timeout):
            self._abandon(client)
            raise CallDeadlinePassed(f"no complete answer within {timeout:g} s")
        ok, value = outcome[0]
        if ok:
            return value
        raise value

    def _abandon(self, client: Any) -> None:
        if self._client is client:
            self._client = None
        try:
            client.close()
        except Exception:  # noqa: BLE001 - a client half torn down by its own thread is gone either way
            pass

    def _attempt_timeout(self) -> float:
        """The configured timeout, shortened so one request cannot outlive the deadline."""
        timeout = self.settings.timeout
        if self.deadline is not None:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise ModelCallError(
                    f"{self.name}: the episode's time limit passed before the call"
                )
            timeout = min(timeout, left)
        self._last_timeout = timeout
        return timeout

    def _classify_with_timeout(self, exc: BaseException) -> Failure | None:
        failure = Failure("timeout", body=str(exc)) if isinstance(exc, CallDeadlinePassed) else self.classify(exc)
        if failure is not None and failure.kind == "timeout":
            # The SDKs' own wording is long and generic; the limit that applied is what helps.
            limit = getattr(self, "_last_timeout", self.settings.timeout)
            setting = f"providers.{self.provider}.timeout"
            why = (
                setting
                if limit >= self.settings.timeout
                else f"{setting}, shortened by the episode's time limit"
            )
            return Failure("timeout", body=f"no answer within {limit:g} s ({why})")
        return failure

    def malformed(self, what: str, raw: Any) -> ModelCallError:
        """Error for a response that parsed as JSON but lacks what a reply needs."""
        if hasattr(raw, "model_dump_json"):
            # The SDKs fill every missing field with null; show what the server did send.
            body = raw.model_dump_json(exclude_none=True, exclude={"sdk_http_response"})
        else:
            body = repr(raw)
        return ModelCallError(
            f"{self.name}: malformed response: {what} (body: {excerpt(body)})",
            failure=Failure("invalid_response", body=body),
        )

    @abstractmethod
    def make_client(self, sdk: ModuleType, api_key: str | None) -> Any:
        """The SDK client with its own retries off and our timeout and base URL."""

    @abstractmethod
    def build_request(self, system: str, messages: list[Message]) -> dict[str, Any]:
        """Keyword arguments for the SDK call, in the provider's native format."""

    @abstractmethod
    def send(self, client: Any, request: dict[str, Any], timeout: float) -> Any:
        """One HTTP attempt that gives up after ``timeout`` seconds."""

    @abstractmethod
    def classify(self, exc: BaseException) -> Failure | None:
        """Translate an SDK exception (None = not an API failure)."""

    @abstractmethod
    def parse(self, raw: Any) -> ParsedReply:
        """Read text and tokens; raise (self.malformed) when the reply is unusable."""


def stainless_classify(sdk: ModuleType, exc: BaseException) -> Failure | None:
    """Classifier for the anthropic and openai SDKs (same generated exception tree)."""
    if isinstance(exc, json.JSONDecodeError):
        return invalid_json(exc)
    if isinstance(exc, sdk.APITimeoutError):
        return Failure("timeout", body=str(exc))
    if isinstance(exc, sdk.APIConnectionError):
        cause = exc.__cause__ or exc.__context__
        return Failure("connection", body=f"{exc} {cause or ''}".strip())
    if isinstance(exc, sdk.APIResponseValidationError):
        return Failure("invalid_response", body=_response_text(exc.response) or str(exc))
    if isinstance(exc, sdk.APIStatusError):
        return Failure(
            "status",
            status=exc.status_code,
            body=_response_text(exc.response) or str(exc),
            retry_after=parse_retry_after(exc.response.headers),
        )
    return None


def invalid_json(exc: json.JSONDecodeError) -> Failure:
    """A 200 whose body is not JSON (a proxy's HTML page, a truncated body): not retried."""
    return Failure("invalid_response", body=f"body is not JSON ({exc.msg}): {exc.doc}")


def _response_text(response: Any) -> str:
    try:
        return str(response.text)
    except Exception:  # noqa: BLE001 - a streamed or closed body has no text; the message will do
        return ""


def image_note(count: int) -> str:
    """Assistant turns cannot carry images in any of the three APIs; say they were there."""
    return f"[{count} image(s) omitted: assistant turns cannot carry images]"
