"""vlc.playing against a web server in a network namespace of its own, as VLC's is in a world:
the judge reaches 127.0.0.1:8080 there (not the host's), sends VLC's basic auth and reads
status.xml as VLC writes it. VLC itself answers in the vlc suite's playing tasks (validate)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import types
from collections.abc import Iterator
from contextlib import nullcontext

import pytest
from deskact.judges.vlc_playing import PlayingInfo, fetch_status, vlc_playing
from deskact.runtime.tasks.steps import StepContext, run_judge

STATUS = """<?xml version="1.0" encoding="utf-8" standalone="yes" ?>
<root>
<fullscreen>false</fullscreen>
<length>60</length>
<volume>256</volume>
<state>{state}</state>
<position>0.25</position>
<information>
  <category name="meta">
    <info name='filename'>clip.mp4</info>
  </category>
  <category name="Stream 0"><info name='Codec'>H264</info></category>
</information>
</root>
"""

SERVER = r"""
import base64, http.server, sys
def state():
    with open(sys.argv[1]) as f:
        return f.read()
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        ok = self.headers.get("Authorization") == "Basic " + base64.b64encode(b":deskact").decode()
        body = (sys.argv[2].replace("{state}", state().strip()) if ok else "no").encode()
        self.send_response(200 if ok and self.path == "/requests/status.xml" else 401)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a):
        pass
s = http.server.HTTPServer(("127.0.0.1", 8080), H)
print("ready", flush=True)
s.serve_forever()
"""

needs_netns = pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None or shutil.which("ip") is None,
                                 reason="needs root, unshare and ip for a network namespace")


@pytest.fixture
def vlc_like(tmp_path: os.PathLike[str]) -> Iterator[tuple[int, str]]:
    """A status.xml server on 127.0.0.1:8080 of a new network namespace: (its pid, its state file)."""
    state = os.path.join(str(tmp_path), "state")
    with open(state, "w") as f:
        f.write("playing")
    proc = subprocess.Popen(["unshare", "--net", "sh", "-c", 'ip link set lo up && exec "$0" -c "$1" "$2" "$3"',
                             sys.executable, SERVER, state, STATUS], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        yield proc.pid, state
    finally:
        proc.kill()
        proc.wait()


def test_status_xml_is_read_as_vlc_writes_it() -> None:
    info = PlayingInfo(STATUS.replace("{state}", "paused").encode())
    assert (info.state, info.file, info.fullscreen) == ("paused", "clip.mp4", False)
    assert PlayingInfo(b"<root><fullscreen>true</fullscreen></root>").fullscreen


@needs_netns
def test_judge_reaches_the_namespace_not_the_host(ctx: StepContext, vlc_like: tuple[int, str]) -> None:
    pid, state = vlc_like
    assert b"<state>playing</state>" in fetch_status(pid)
    with pytest.raises(OSError, match="401"):
        fetch_status(pid, password="wrong")
    # The judge uses only the world's pid (its network namespace); called directly, as run_judge
    # would need a whole world to freeze.
    ctx.world = types.SimpleNamespace(pid=pid, thawed=nullcontext)
    v = vlc_playing(ctx, state="playing", file="clip.mp4", fullscreen=False)
    assert v.passed, v.feedback
    with open(state, "w") as f:
        f.write("stopped")
    time.sleep(0.1)
    v = vlc_playing(ctx, state="playing", file="other.mp4")
    assert not v.passed and "should be playing but is stopped" in v.feedback and "'other.mp4'" in v.feedback
    v = vlc_playing(ctx, fullscreen=True)
    assert not v.passed and "should be fullscreen" in v.feedback


@needs_netns
def test_nothing_listening_fails(ctx: StepContext) -> None:
    proc = subprocess.Popen(["unshare", "--net", "sleep", "30"])
    try:
        time.sleep(0.3)
        ctx.world = types.SimpleNamespace(pid=proc.pid, thawed=nullcontext)
        v = vlc_playing(ctx, state="playing")
        assert not v.passed and "cannot be read" in v.feedback
    finally:
        proc.kill()
        proc.wait()


def test_needs_something_to_check(ctx: StepContext) -> None:
    v = run_judge("vlc.playing", {}, ctx)
    assert not v.passed and v.error
