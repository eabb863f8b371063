"""A local HTTP server standing in for the file hosts OSWorld tasks download from."""

from __future__ import annotations

import hashlib
import http.server
import io
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
SERVED: dict[str, bytes] = {}
"""Query id (Drive's ``id=``) -> body; anything else gets a small text body."""
REQUESTS: list[str] = []
"""Every path the server was asked for, in order."""


def workbook(rows: dict[str, list[list[object]]]) -> bytes:
    import openpyxl

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name, data in rows.items():
        ws = wb.create_sheet(name)
        for row in data:
            ws.append(row)
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        from urllib.parse import parse_qs, urlsplit

        REQUESTS.append(self.path)
        key = (parse_qs(urlsplit(self.path).query).get("id") or [""])[0]
        body = SERVED.get(key, f"file for {self.path}\n".encode())
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def _urls(value: object) -> Iterator[str]:
    if isinstance(value, str) and value.startswith(("http://", "https://")):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _urls(v)
    elif isinstance(value, list):
        for v in value:
            yield from _urls(v)


class FileHost:
    """What a test needs of the server: a mirror file for task files, the bodies to serve, a workbook maker."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.served = SERVED
        self.workbook = workbook

    def hits(self) -> int:
        """How many requests the server has answered so far."""
        return len(REQUESTS)

    def url_for(self, source: str) -> str:
        """This server's URL for a source URL (its query kept: Drive's ``id=`` picks the body)."""
        return f"{self.base}/m/{hashlib.sha256(source.encode()).hexdigest()[:12]}?{urlsplit(source).query}"

    def mirror(self, tasks: Path, out: Path) -> Path:
        """A mirror file mapping every URL the task files under ``tasks`` name to this server."""
        found = {u for f in tasks.rglob("*.json") for u in _urls(json.loads(f.read_text()))}
        out.write_text(json.dumps({u: self.url_for(u) for u in sorted(found)}))
        return out


@pytest.fixture(scope="module")
def file_host() -> Iterator[FileHost]:
    """A local server for the hosts the fixture tasks name (given to importers through a --mirror file)."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield FileHost(f"http://127.0.0.1:{httpd.server_address[1]}")
    httpd.shutdown()
    httpd.server_close()
