"""The recording page's server: only with its token, only under loopback names, Done only from its own page."""

from __future__ import annotations

import http.client
import json

from deskact.runtime.record.page import RecordPage


def _request(page: RecordPage, method: str, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", page.port, timeout=30)
    try:
        conn.request(method, path, headers={"Host": f"127.0.0.1:{page.port}", **(headers or {})})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def test_page_needs_its_token_and_frames_the_display_with_input() -> None:
    with RecordPage("http://127.0.0.1:1/vnc.html?autoconnect=1&password=x<y", "t-1", "Do <b>it</b>",
                    state=lambda: {"events": 3, "presses": 1}) as page:
        assert page.url == f"http://127.0.0.1:{page.port}/{page.token}/" and len(page.token) >= 40
        status, body = _request(page, "GET", f"/{page.token}/")
        text = body.decode()
        assert status == 200 and 'id="done"' in text
        assert 'src="http://127.0.0.1:1/vnc.html?autoconnect=1&amp;password=x&lt;y"' in text  # escaped
        assert "Do &lt;b&gt;it&lt;/b&gt;" in text and "<b>it</b>" not in text
        for path in ("/", "/state", f"/{page.token[:-1]}/", f"/{page.token}x/state", "/../"):
            assert _request(page, "GET", path)[0] == 404, path
        status, body = _request(page, "GET", f"/{page.token}/state")
        assert status == 200 and json.loads(body) == {"state": "recording", "events": 3, "presses": 1}


def test_foreign_hosts_and_origins_are_refused_and_done_ends_the_recording() -> None:
    with RecordPage("http://127.0.0.1:1/vnc.html", "t-1", "x") as page:
        done = f"/{page.token}/done"
        assert _request(page, "GET", f"/{page.token}/", {"Host": "evil.example"})[0] == 421
        assert _request(page, "POST", done, {"Host": f"rebound.example:{page.port}"})[0] == 421
        assert _request(page, "POST", done, {"Origin": "http://evil.example"})[0] == 403
        assert _request(page, "POST", done, {"Origin": f"http://127.0.0.1:{page.port + 1}"})[0] == 403
        assert not page.done.is_set()
        assert _request(page, "GET", done)[0] == 404  # a link or an image cannot end it
        status, body = _request(page, "POST", done, {"Origin": f"http://localhost:{page.port}"})
        assert status == 200 and json.loads(body)["state"] == "finishing" and page.done.is_set()
        assert _request(page, "GET", f"/{page.token}/final")[0] == 404  # no last screen yet
        page.final_image = (b"\x89PNG...", "image/png")
        page.finished = {"message": "saved"}
        assert json.loads(_request(page, "GET", f"/{page.token}/state")[1])["result"] == {"message": "saved"}
        assert _request(page, "GET", f"/{page.token}/final") == (200, b"\x89PNG...")
        assert _request(page, "GET", "/final")[0] == 404
