"""The viewer's HTTP server: a JSON API over run folders plus the static single-page app.

Standard library only (``ThreadingHTTPServer``), bound to loopback: run folders
hold the agent's screenshots and outputs, which are nobody else's business.
Routes:

- ``/`` the app (``static/index.html``; its JS and CSS under ``/static/``)
- ``/api/runs`` every run folder under the roots, found again on each call
- ``/api/runs/RUN`` one run's summary and task rows; ``/api/runs/RUN/signature``
  the fingerprint the page polls to follow a live run
- ``/api/runs/RUN/tasks/KEY`` one task with every step and its click points
- ``/api/compare?a=RUN&b=RUN`` tasks that changed outcome (``report.compare_runs``)
- ``/files/RUN/PATH`` a file inside a run folder (screenshots), never outside it
- ``/api/evals/RUN`` and ``/api/evals/RUN/samples/DATASET/ID``: a ``deskact eval`` folder's samples and
  one sample with its gold; ``/evalfiles/RUN/DATASET/ID/PATH`` a file that sample names (evals.py)
- ``/annotate`` and ``/create``: the annotation and task creator pages, their routes in ``tools.py``
"""

from __future__ import annotations

import json
import mimetypes
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Self
from urllib.parse import parse_qs, unquote, urlsplit

from pydantic import BaseModel

from ...errors import DeskactError
from ..report.compare import compare_runs
from .evals import eval_detail, eval_file, eval_sample, is_eval_run
from .runs import RunRef, find_runs, run_detail, run_summary, signature, task_page

STATIC = Path(__file__).resolve().parent / "static"
STATIC_FILES = frozenset(("common.js", "viewer.js", "viewer.css", "tools.css", "forms.js", "annotate.js", "creator.js", "eval.js",
                          "eval.css"))
PAGES = {"annotate": "annotate.html", "create": "creator.html"}
MAX_POST = 4 * 1024 * 1024


class NotFound(Exception):
    pass


class Viewer:
    """The state behind the handler: which roots to look in for runs."""

    def __init__(self, roots: list[Path], tools: dict[str, Any] | None = None) -> None:
        self.roots = [Path(r) for r in roots]
        find_runs(self.roots)  # a missing folder is an error now, not on the first page load
        from .tools import Tools

        self.tools = Tools(self, **(tools or {}))

    def run(self, run_id: str) -> RunRef:
        for ref in find_runs(self.roots):
            if ref.id == run_id:
                return ref
        raise NotFound(f"no run {run_id!r}")

    def api(self, parts: list[str], query: dict[str, list[str]]) -> Any:
        if parts[:1] == ["evals"]:
            return self.evals(parts[1:])
        if parts == ["runs"]:
            return sorted((run_summary(ref) for ref in find_runs(self.roots)), key=lambda r: -r.updated)
        if len(parts) == 2 and parts[0] == "runs":
            return run_detail(self.run(parts[1]))
        if len(parts) == 3 and parts[0] == "runs" and parts[2] == "signature":
            return {"signature": signature(self.run(parts[1]).path)}
        if len(parts) == 4 and parts[0] == "runs" and parts[2] == "tasks":
            return task_page(self.run(parts[1]), parts[3])
        if parts and parts[0] in ("annotate", "creator"):
            found = self.tools.get(parts)
            if found is not None:
                return found
        if parts == ["compare"]:
            a, b = (self.run((query.get(k) or [""])[0]) for k in ("a", "b"))
            return compare_runs(a.path, b.path)
        raise NotFound("/api/" + "/".join(parts))

    def evals(self, parts: list[str]) -> Any:
        """``deskact eval`` folders (evals.py): ``RUN`` the samples and metrics, ``RUN/samples/DATASET/ID`` one sample."""
        ref = self.run(parts[0]) if parts else None
        if ref is None or not is_eval_run(ref.path):
            raise NotFound("/api/evals/" + "/".join(parts))
        if len(parts) == 1:
            return eval_detail(ref.id, ref.path, signature(ref.path))
        if len(parts) == 4 and parts[1] == "samples":
            return eval_sample(ref.id, ref.path, parts[2], parts[3])
        raise NotFound("/api/evals/" + "/".join(parts))

    def eval_file(self, run_id: str, dataset: str, sample_id: str, rel: str) -> Path:
        found = eval_file(self.run(run_id).path, dataset, sample_id, rel)
        if found is None:
            raise NotFound(rel)
        return found

    def file(self, run_id: str, rel: str) -> Path:
        root = self.run(run_id).path.resolve()
        path = (root / rel).resolve()
        # resolve() follows symlinks, so a kept world linked from a trajectory is not served either.
        if not path.is_relative_to(root) or not path.is_file():
            raise NotFound(rel)
        return path


class _Handler(BaseHTTPRequestHandler):
    viewer: Viewer  # set on the subclass made per server
    server: ThreadingHTTPServer  # the ViewerServer's (socketserver types it as any server)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # a page polls every second: access logs would bury the terminal

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        parts = [unquote(p) for p in url.path.split("/") if p]
        port = self.server.server_port
        if self.headers.get("Host") not in (f"127.0.0.1:{port}", f"localhost:{port}"):
            # A page elsewhere that rebinds its own name to 127.0.0.1 must not read the runs.
            self._send_json({"error": "unexpected Host header"}, 403)
            return
        try:
            if not parts or parts == ["index.html"]:
                self._send_file(STATIC / "index.html")
            elif len(parts) == 1 and parts[0] in PAGES:
                self._send_file(STATIC / PAGES[parts[0]])
            elif parts[0] == "static" and len(parts) == 2 and parts[1] in STATIC_FILES:
                self._send_file(STATIC / parts[1])
            elif parts[0] == "api":
                self._send_json(self.viewer.api(parts[1:], parse_qs(url.query)))
            elif parts[0] == "files" and len(parts) > 2:
                self._send_file(self.viewer.file(parts[1], "/".join(parts[2:])))
            elif parts[0] == "evalfiles" and len(parts) > 4:  # evalfiles/RUN/DATASET/SAMPLE/PATH
                self._send_file(self.viewer.eval_file(parts[1], parts[2], parts[3], "/".join(parts[4:])))
            else:
                raise NotFound(url.path)
        except NotFound as exc:
            self._send_json({"error": f"not found: {exc}"}, 404)
        except DeskactError as exc:
            self._send_json({"error": str(exc)}, 400)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the page moved on before the answer was sent

    def do_POST(self) -> None:
        """Annotation and task creator actions: JSON from the viewer's own page only."""
        url = urlsplit(self.path)
        parts = [unquote(p) for p in url.path.split("/") if p]
        port = self.server.server_port
        own = (f"127.0.0.1:{port}", f"localhost:{port}")
        # A foreign page can POST to loopback (a form, or fetch without reading the answer): it sends
        # its own Origin, and it cannot send application/json without a preflight this server refuses.
        if (self.headers.get("Host") not in own or self.headers.get("Origin") not in [f"http://{h}" for h in own]
                or self.headers.get("Content-Type", "").split(";")[0].strip() != "application/json"):
            self._send_json({"error": "only the viewer's own page may post here (Origin, JSON)"}, 403)
            return
        try:
            size = int(self.headers.get("Content-Length") or 0)
            if not 0 < size <= MAX_POST:
                raise DeskactError(f"a request body of {size} bytes (at most {MAX_POST})")
            body = json.loads(self.rfile.read(size))
            if parts[:1] != ["api"] or (answer := self.viewer.tools.post(parts[1:], body)) is None:
                raise NotFound(url.path)
            self._send_json(answer)
        except NotFound as exc:
            self._send_json({"error": f"not found: {exc}"}, 404)
        except (DeskactError, ValueError) as exc:
            self._send_json({"error": str(exc)}, 400)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _send_json(self, data: Any, code: int = 200) -> None:
        if isinstance(data, BaseModel):
            body = data.model_dump_json().encode()
        elif isinstance(data, list) and all(isinstance(d, BaseModel) for d in data):
            body = ("[" + ",".join(d.model_dump_json() for d in data) + "]").encode()
        else:
            body = json.dumps(data).encode()
        self._send(body, "application/json", code)

    def _send_file(self, path: Path) -> None:
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        data = path.read_bytes()
        # A byte range (bytes=A-B, what a <video> asks for): browsers seek in a video only when ranges are served.
        m = re.fullmatch(r"bytes=(\d*)-(\d*)", self.headers.get("Range", "").strip())
        if m and (m.group(1) or m.group(2)) and data:
            first = int(m.group(1)) if m.group(1) else max(0, len(data) - int(m.group(2)))
            last = min(int(m.group(2)), len(data) - 1) if m.group(1) and m.group(2) else len(data) - 1
            if first <= last:
                self._send(data[first:last + 1], kind, 206, {"Content-Range": f"bytes {first}-{last}/{len(data)}"})
                return
        self._send(data, kind)

    def _send(self, body: bytes, kind: str, code: int = 200, extra: dict[str, str] | None = None) -> None:
        self.send_response(code)
        self.send_header("Content-Type", kind + ("; charset=utf-8" if kind.startswith(("text/", "application/j")) else ""))
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Accept-Ranges", "bytes")
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        self.send_header("Cache-Control", "no-store")  # live runs: always the file as it is now
        self.end_headers()
        self.wfile.write(body)


class ViewerServer:
    """``deskact view``'s server on 127.0.0.1; ``start()`` serves from a thread, ``url`` says where."""

    def __init__(self, roots: list[Path], port: int = 0, host: str = "127.0.0.1",
                 tools: dict[str, Any] | None = None) -> None:
        """``tools``: the writing pages' folders and config (``Tools``: datasets, suites, config)."""
        handler = type("Handler", (_Handler,), {"viewer": Viewer(roots, tools)})
        self.host = host
        self.httpd = ThreadingHTTPServer((host, port), handler)
        self.httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.httpd.server_port}/"

    def start(self) -> Self:
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="deskact-view", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def serve_until_interrupted(roots: list[Path], port: int, open_browser: bool, out: Any = print,
                            tools: dict[str, Any] | None = None) -> None:
    """``deskact view``: serve, print the address, open a browser if asked, stop on Ctrl-C."""
    try:
        server = ViewerServer(roots, port, tools=tools)
    except OSError as exc:  # the port is taken (another viewer?)
        raise DeskactError(f"--port {port}: cannot listen on 127.0.0.1:{port} ({exc.strerror})") from exc
    server.start()
    out(f"deskact view: {server.url} (runs under {', '.join(str(r) for r in roots)}; Ctrl-C stops)")
    if open_browser:
        import webbrowser

        webbrowser.open(server.url)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
