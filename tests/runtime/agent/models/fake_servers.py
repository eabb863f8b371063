"""Local HTTP servers that speak the Anthropic, OpenAI and Gemini wire formats.

The real SDKs talk to them. Each server records every request it receives and
answers from a script: a plain string becomes a normal reply in the
provider's format; a ``Canned`` gives full control (status, body, headers, a
delay to provoke client timeouts). When the script runs out the server answers
400 "script exhausted" (not retryable, so a test fails fast and clearly).

    with FakeOpenAIServer(replies=["```python\\nexit()\\n```"]) as server:
        ...  # base_url = server.url (already ends in /v1 for OpenAI)
        server.requests[0].json["messages"]

Usable from any test: put this folder on sys.path and import the module.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar, Self


@dataclass
class Canned:
    """One scripted HTTP response."""

    status: int = 200
    body: Any = None
    """dict/list -> JSON; str -> sent as-is (to fake broken bodies)."""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    """Seconds to wait before answering (longer than the client timeout = a timeout)."""
    text: str | None = None
    """Instead of a body: a normal reply holding this text (with ``delay``: a slow reply)."""


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    received_at: float = field(default_factory=time.monotonic)
    """time.monotonic() when the request arrived (to check waits between attempts)."""

    @property
    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


class _Handler(BaseHTTPRequestHandler):
    """Hands every request to its FakeServer; a subclass per server sets ``fake``."""

    fake: ClassVar[FakeServer]

    def do_POST(self) -> None:
        self.fake._handle(self)

    def do_GET(self) -> None:
        self.fake._handle(self)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep pytest output clean


def _read_request(handler: BaseHTTPRequestHandler) -> Recorded:
    length = int(handler.headers.get("content-length") or 0)
    return Recorded(
        method=handler.command,
        path=handler.path,
        headers={k.lower(): v for k, v in handler.headers.items()},
        body=handler.rfile.read(length) if length else b"",
    )


def _send(handler: BaseHTTPRequestHandler, canned: Canned) -> None:
    payload = canned.body if isinstance(canned.body, (str, bytes)) else json.dumps(canned.body)
    data = payload.encode() if isinstance(payload, str) else payload
    try:
        handler.send_response(canned.status)
        for key, value in {"content-type": "application/json", **canned.headers}.items():
            handler.send_header(key, value)
        handler.send_header("content-length", str(len(data)))
        handler.end_headers()
        handler.wfile.write(data)
    except (BrokenPipeError, ConnectionResetError):
        pass  # the client gave up (timeout test): nothing to answer


class FakeServer:
    """A threaded http.server on 127.0.0.1 with a free port, replaying a script.

    Subclasses hold only their wire format: the path they serve, the body of a
    normal reply and the body of an error.
    """

    path_pattern: ClassVar[re.Pattern[str]]
    url_suffix: ClassVar[str] = ""

    def __init__(
        self,
        replies: list[str | Canned] | None = None,
        *,
        input_tokens: int = 11,
        output_tokens: int = 7,
    ):
        self.script: list[str | Canned] = list(replies or [])
        self.requests: list[Recorded] = []
        self.input_tokens = input_tokens
        self.output_tokens = output_tokens
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- what each wire format fills in --------------------------------------------

    def reply_body(self, text: str, request: Recorded) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def error_body(cls, status: int, message: str) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def error(
        cls,
        status: int,
        message: str = "",
        headers: dict[str, str] | None = None,
        delay: float = 0.0,
    ) -> Canned:
        """A scripted error response in this provider's format."""
        body = cls.error_body(status, message or f"fake {status}")
        return Canned(status=status, body=body, headers=dict(headers or {}), delay=delay)

    # -- lifecycle ------------------------------------------------------------------

    @property
    def url(self) -> str:
        assert self._httpd is not None, "server not started (use it as a context manager)"
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}{self.url_suffix}"

    def push(self, *replies: str | Canned) -> None:
        with self._lock:
            self.script.extend(replies)

    def __enter__(self) -> Self:
        handler = type("FakeServerHandler", (_Handler,), {"fake": self})
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopping.set()  # wakes handlers sleeping on a delay
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    # -- one request -------------------------------------------------------------------

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        request = _read_request(handler)
        with self._lock:
            self.requests.append(request)
            canned = self._answer(request)
        if canned.delay and self._stopping.wait(canned.delay):
            return  # stopping: the test is over, nobody waits for this answer
        _send(handler, canned)

    def _answer(self, request: Recorded) -> Canned:
        """The next scripted answer (or why there is none); called under the lock."""
        if not self.path_pattern.fullmatch(request.path):
            return self.error(404, f"fake server: unexpected path {request.path}")
        if not self.script:
            return self.error(400, "fake server: script exhausted")
        item = self.script.pop(0)
        canned = item if isinstance(item, Canned) else Canned(text=item)
        if canned.body is None and canned.text is not None:
            return replace(canned, body=self.reply_body(canned.text, request), text=None)
        return canned


class FakeAnthropicServer(FakeServer):
    path_pattern = re.compile(r"/v1/messages(\?.*)?")

    def reply_body(self, text: str, request: Recorded) -> dict[str, Any]:
        model = (request.json or {}).get("model", "claude-fake")
        return {
            "id": f"msg_{len(self.requests):04d}",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": self.input_tokens, "output_tokens": self.output_tokens},
        }

    @classmethod
    def error_body(cls, status: int, message: str) -> dict[str, Any]:
        kind = {429: "rate_limit_error", 529: "overloaded_error"}.get(
            status, "api_error" if status >= 500 else "invalid_request_error"
        )
        return {"type": "error", "error": {"type": kind, "message": message}}


class FakeOpenAIServer(FakeServer):
    path_pattern = re.compile(r"/v1/chat/completions(\?.*)?")
    url_suffix = "/v1"

    def reply_body(self, text: str, request: Recorded) -> dict[str, Any]:
        model = (request.json or {}).get("model", "gpt-fake")
        return {
            "id": f"chatcmpl-{len(self.requests):04d}",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": "stop",
                }
            ],
            "usage": {
                "prompt_tokens": self.input_tokens,
                "completion_tokens": self.output_tokens,
                "total_tokens": self.input_tokens + self.output_tokens,
            },
        }

    @classmethod
    def error_body(cls, status: int, message: str) -> dict[str, Any]:
        kind = (
            "rate_limit_exceeded"
            if status == 429
            else ("server_error" if status >= 500 else "invalid_request_error")
        )
        return {"error": {"message": message, "type": kind, "param": None, "code": None}}


class FakeGeminiServer(FakeServer):
    # google-genai 3.x posts to /v1/ by default; older SDKs (and GOOGLE_GENAI_API_VERSION=beta) to /v1beta/.
    path_pattern = re.compile(r"/v1(beta)?/models/[^/:]+:generateContent(\?.*)?")

    def reply_body(self, text: str, request: Recorded) -> dict[str, Any]:
        return {
            "candidates": [
                {
                    "content": {"role": "model", "parts": [{"text": text}]},
                    "finishReason": "STOP",
                    "index": 0,
                }
            ],
            "usageMetadata": {
                "promptTokenCount": self.input_tokens,
                "candidatesTokenCount": self.output_tokens,
                "totalTokenCount": self.input_tokens + self.output_tokens,
            },
            "modelVersion": "gemini-fake",
        }

    @classmethod
    def error_body(cls, status: int, message: str) -> dict[str, Any]:
        names = {
            400: "INVALID_ARGUMENT",
            404: "NOT_FOUND",
            429: "RESOURCE_EXHAUSTED",
            500: "INTERNAL",
            503: "UNAVAILABLE",
        }
        return {
            "error": {"code": status, "message": message, "status": names.get(status, "UNKNOWN")}
        }
