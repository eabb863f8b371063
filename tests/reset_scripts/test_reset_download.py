"""files.download against a local HTTP server (tests need no network)."""

from __future__ import annotations

import hashlib
import http.server
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from deskact.runtime.tasks.steps import StepContext, StepFailed, lookup, run_reset

BODY = b"col1,col2\n1,2\n" * 100


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        if self.path == "/data.csv":
            self.send_response(200)
            self.send_header("Content-Length", str(len(BODY)))
            self.end_headers()
            self.wfile.write(BODY)
        else:
            self.send_error(404, "Not Found")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_download_to_workspace_with_sha_and_mode(ctx: StepContext, server: str) -> None:
    sha = hashlib.sha256(BODY).hexdigest()
    run_reset("files.download", {"url": f"{server}/data.csv", "path": "${WORKSPACE}/in/data.csv",
                                 "sha256": sha, "mode": "0600"}, ctx)
    target = ctx.workspace / "in/data.csv"
    assert target.read_bytes() == BODY
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    run_reset("files.download", {"url": f"{server}/data.csv", "path": "in/data.csv"}, ctx)  # replaces
    assert target.read_bytes() == BODY


def test_download_http_error_names_url_and_leaves_nothing(ctx: StepContext, server: str) -> None:
    with pytest.raises(StepFailed, match=r"/missing.csv answered HTTP 404"):
        run_reset("files.download", {"url": f"{server}/missing.csv", "path": "x.csv"}, ctx)
    assert list(ctx.workspace.iterdir()) == []


def test_download_wrong_sha_and_size_cap(ctx: StepContext, server: str) -> None:
    with pytest.raises(StepFailed, match="has sha256 .*, expected 00ff"):
        run_reset("files.download", {"url": f"{server}/data.csv", "path": "x.csv", "sha256": "00ff"}, ctx)
    with pytest.raises(StepFailed, match="larger than max_bytes=10"):
        run_reset("files.download", {"url": f"{server}/data.csv", "path": "x.csv", "max_bytes": 10}, ctx)
    assert list(ctx.workspace.iterdir()) == []


def test_download_unreachable_and_bad_scheme(ctx: StepContext, tmp_path: Path) -> None:
    with pytest.raises(StepFailed, match=r"cannot fetch http://127.0.0.1:9/x: .*network"):
        run_reset("files.download", {"url": "http://127.0.0.1:9/x", "path": "x", "timeout": 5}, ctx)
    with pytest.raises(StepFailed, match="must start with http://"):
        run_reset("files.download", {"url": "ftp://example.org/x", "path": "x"}, ctx)
    src = tmp_path / "local.bin"
    src.write_bytes(b"abc")
    run_reset("files.download", {"url": src.as_uri(), "path": "local.bin"}, ctx)
    assert (ctx.workspace / "local.bin").read_bytes() == b"abc"


def test_download_params_checked_at_load() -> None:
    spec = lookup("reset", "files.download")
    with pytest.raises(ValueError, match="url"):
        spec.validate({"path": "x"})
    with pytest.raises(ValueError, match="folder"):
        spec.validate({"url": "http://x/y", "path": "x", "bogus": 1, "folder": 1})
