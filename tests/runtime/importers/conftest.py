"""A local HTTP server standing in for the file hosts OSWorld tasks download from."""

from __future__ import annotations

import http.server
import io
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
SERVED: dict[str, bytes] = {}
"""Query id (Drive's ``id=``) -> body; anything else gets a small text body."""


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

        key = (parse_qs(urlsplit(self.path).query).get("id") or [""])[0]
        body = SERVED.get(key, f"file for {self.path}\n".encode())
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


class FileHost:
    """What a test needs of the server: the mirrors to pass, the bodies to serve, a workbook maker."""

    def __init__(self, base: str) -> None:
        self.mirrors = {"https://drive.usercontent.google.com/": base + "/duc/", "https://drive.google.com/": base + "/dg/"}
        self.served = SERVED
        self.workbook = workbook


@pytest.fixture(scope="module")
def file_host() -> Iterator[FileHost]:
    """A local server for the hosts the fixture tasks name (passed to importers as --mirror)."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield FileHost(f"http://127.0.0.1:{httpd.server_address[1]}")
    httpd.shutdown()
    httpd.server_close()
