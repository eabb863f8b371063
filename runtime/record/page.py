"""The recording page: the task's display through noVNC with input, and a Done button.

A ``ThreadingHTTPServer`` on 127.0.0.1 with a random port serves one page at
``/<token>/`` (the token: 32 random bytes, in the printed address only). The
page frames noVNC's own page (served by the display's websockify, world/vnc_web.py)
with input enabled, so the person's mouse and keyboard reach the X display through
x11vnc; above it, the task's instruction, a live count of what was recorded and
the Done button. Routes, all under the token:

- ``GET /<token>/`` the page; ``GET /<token>/state`` what the recorder has so far (JSON);
  ``GET /<token>/final`` the last screen, once the recording is saved (the display has stopped)
- ``POST /<token>/done`` end the recording (the Done button; scripts may call it too)

Loopback is shared by every local user and every page a browser opens: a request
without the token gets 404, a Host other than 127.0.0.1/localhost:port gets 421
(a DNS-rebound name), and a POST whose Origin is another page's gets 403.
"""

from __future__ import annotations

import html
import json
import secrets
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

PAGE_TITLE = "deskact record"


class RecordPage:
    """Serves the recording page until ``close()``; ``done`` is set by the Done button or ``/done``."""

    def __init__(self, vnc_url: str, task_id: str, instruction: str,
                 state: Callable[[], dict[str, Any]] | None = None) -> None:
        self.vnc_url = vnc_url
        self.task_id = task_id
        self.instruction = instruction
        self.state = state or (dict)
        self.token = secrets.token_urlsafe(32)
        self.done = threading.Event()
        self.finished: dict[str, Any] | None = None
        """What the recording became (set by the recorder once saved), shown on the page."""
        self.final_image: tuple[bytes, str] | None = None
        """The last screen (data, media type), shown in place of the display once it has stopped."""
        handler = type("Handler", (_Handler,), {"page": self})
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, name="record-page", daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/{self.token}/"

    def start(self) -> Self:
        self._thread.start()
        return self

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def snapshot(self) -> dict[str, Any]:
        out: dict[str, Any] = {"state": "saved" if self.finished else ("finishing" if self.done.is_set() else "recording")}
        out.update(self.state())
        if self.finished:
            out["result"] = self.finished
        return out

    def html(self) -> str:
        return PAGE_HTML.replace("{{TITLE}}", html.escape(f"{PAGE_TITLE}: {self.task_id}")) \
            .replace("{{TASK}}", html.escape(self.task_id)) \
            .replace("{{INSTRUCTION}}", html.escape(self.instruction)) \
            .replace("{{VNC}}", html.escape(self.vnc_url, quote=True))


class _Handler(BaseHTTPRequestHandler):
    page: RecordPage

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the terminal shows the recorder's own lines, not every poll

    def _allowed(self) -> str | None:
        """The route under the token, or None after answering an error."""
        port = self.page.port
        if self.headers.get("Host") not in (f"127.0.0.1:{port}", f"localhost:{port}"):
            self._send(421, b"wrong host\n", "text/plain")
            return None
        head, _, rest = self.path.lstrip("/").partition("/")
        if not secrets.compare_digest(head.encode(), self.page.token.encode()):
            self._send(404, b"not found\n", "text/plain")
            return None
        return rest.split("?", 1)[0]

    def do_GET(self) -> None:
        route = self._allowed()
        if route is None:
            return
        if route == "":
            self._send(200, self.page.html().encode(), "text/html; charset=utf-8")
        elif route == "state":
            self._send(200, json.dumps(self.page.snapshot()).encode(), "application/json")
        elif route == "final" and self.page.final_image is not None:
            self._send(200, *self.page.final_image)
        else:
            self._send(404, b"not found\n", "text/plain")

    def do_POST(self) -> None:
        route = self._allowed()
        if route is None:
            return
        origin = self.headers.get("Origin")
        if origin is not None and origin not in (f"http://127.0.0.1:{self.page.port}",
                                                 f"http://localhost:{self.page.port}"):
            self._send(403, b"another page's request\n", "text/plain")
            return
        if route == "done":
            self.page.done.set()
            self._send(200, json.dumps(self.page.snapshot()).encode(), "application/json")
        else:
            self._send(404, b"not found\n", "text/plain")

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("Referrer-Policy", "no-referrer")  # the token stays out of other servers' logs
        self.end_headers()
        self.wfile.write(body)


PAGE_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{TITLE}}</title>
<style>
  html, body { margin: 0; height: 100%; font: 14px system-ui, sans-serif; background: #1e1f22; color: #eee; }
  body { display: flex; flex-direction: column; }
  header { display: flex; gap: 16px; align-items: center; padding: 8px 12px; background: #2b2d31; }
  header .task { font-weight: 600; white-space: nowrap; }
  header .instruction { flex: 1; color: #cfd3da; overflow: hidden; text-overflow: ellipsis; }
  header .counts { white-space: nowrap; color: #9aa0a6; font-variant-numeric: tabular-nums; }
  #done { font: inherit; font-weight: 600; padding: 6px 18px; border: 0; border-radius: 4px;
          background: #2f9e44; color: white; cursor: pointer; }
  #done:disabled { background: #555; cursor: default; }
  #screen { flex: 1; border: 0; width: 100%; background: #000; }
  #status { padding: 6px 12px; background: #222; color: #b5e3b0; display: none; }
  #status.shown { display: block; }
  #status.refused { color: #ffc078; }
  #final { display: none; flex: 1; gap: 12px; padding: 12px; overflow: auto; }
  #final.shown { display: flex; }
  #final img { max-width: 60%; align-self: flex-start; border: 1px solid #444; }
  #final pre { flex: 1; margin: 0; padding: 10px; background: #111; color: #d8dee9; overflow: auto;
               font: 13px ui-monospace, monospace; white-space: pre-wrap; }
</style></head>
<body>
<header>
  <span class="task" id="task">{{TASK}}</span>
  <span class="instruction" id="instruction" title="{{INSTRUCTION}}">{{INSTRUCTION}}</span>
  <span class="counts" id="counts">recording</span>
  <button id="done" type="button">Done</button>
</header>
<div id="status"></div>
<iframe id="screen" src="{{VNC}}" allow="clipboard-read; clipboard-write"></iframe>
<div id="final"><img id="last" alt="the last screen"><pre id="code"></pre></div>
<script>
"use strict";
const base = location.pathname.replace(/\\/?$/, "/");
const counts = document.getElementById("counts");
const status = document.getElementById("status");
const done = document.getElementById("done");
function show(s) {
  document.body.dataset.state = s.state;
  counts.textContent = s.state + (s.events !== undefined ? ` \\u00b7 ${s.events} input events, ${s.presses} presses` : "");
  if (s.state !== "recording") done.disabled = true;
  if (s.result && !document.body.dataset.shown) {
    document.body.dataset.shown = "1";
    status.textContent = s.result.message || "saved";
    status.className = s.result.written ? "shown" : "shown refused";
    // The display has stopped: its last screen and the code made from the recording instead.
    document.getElementById("screen").remove();
    document.getElementById("last").src = base + "final";
    document.getElementById("code").textContent = s.result.code || "";
    document.getElementById("final").className = "shown";
  }
}
async function poll() {
  try {
    const r = await fetch(base + "state", {cache: "no-store"});
    if (r.ok) show(await r.json());
  } catch (e) { /* the recorder has stopped serving: keep the last state */ }
}
done.addEventListener("click", async () => {
  done.disabled = true;
  const r = await fetch(base + "done", {method: "POST"});
  if (r.ok) show(await r.json());
});
// Focus goes to the display as soon as the pointer is over it, so typed keys reach the task.
document.getElementById("screen").addEventListener("mouseenter", e => e.target.focus());
poll();
setInterval(poll, 1000);
</script>
</body></html>
"""
