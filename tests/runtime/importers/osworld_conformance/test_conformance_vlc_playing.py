"""OSWorld's is_vlc_playing and is_vlc_fullscreen (desktop-env's metrics/vlc.py) against the judges
the importer translates them to, on right and near-miss states.

is_vlc_playing reads the status.xml its ``vlc_playing_info`` getter fetched from VLC's web
interface; deskact's vlc.playing fetches it itself, here from a server on 127.0.0.1:8080 of a
network namespace of its own (as VLC's is in a world) serving the very file desktop-env reads.
is_vlc_fullscreen compares two getters' answers: OSWorld's server gives the screen's size and the
client size (``get_geometry``) of the first window of its client list whose WM_CLASS has the class;
here real windows on Xvfb + openbox, with that answer read by xwininfo, an X client of its own.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import types
from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.conformance

NAME = "Rick Astley - Never Gonna Give You Up (Official Music Video).mp4"
RULE = {"type": "file_name", "file_name": NAME}


def status(state: str, meta: dict[str, str] | None = None, where: str = "information") -> str:
    """A status.xml as VLC 3's web interface writes it (its lua template: meta fields in a ``meta``
    category under ``<information>``)."""
    infos = "".join(f"\n    <info name='{k}'>{v}</info>" for k, v in (meta or {}).items())
    category = f"<category name='meta'>{infos}\n  </category>" if meta is not None else ""
    return (f"<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\" ?>\n<root>\n"
            f"<fullscreen>false</fullscreen>\n<volume>256</volume>\n<state>{state}</state>\n<length>212</length>\n"
            f"<{where}>\n  {category}\n  <category name='Stream 0'><info name='Codec'>H264</info></category>\n"
            f"</{where}>\n</root>\n")


SERVER = r"""
import base64, http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        ok = self.headers.get("Authorization") == "Basic " + base64.b64encode(b":deskact").decode()
        body = open(sys.argv[1], "rb").read() if ok else b"no"
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


@pytest.fixture
def vlc_like(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """A web server on 127.0.0.1:8080 of a new network namespace serving one file as VLC's
    status.xml: (its pid, the file)."""
    if os.geteuid() != 0 or shutil.which("unshare") is None or shutil.which("ip") is None:
        pytest.skip("needs root, unshare and ip for a network namespace")
    served = tmp_path / "status.xml"
    served.write_text(status("stopped"))
    proc = subprocess.Popen(["unshare", "--net", "sh", "-c", 'ip link set lo up && exec "$0" -c "$1" "$2"',
                             sys.executable, SERVER, str(served)], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        yield proc.pid, served
    finally:
        proc.kill()
        proc.wait()


def deskact_passes(evaluator: dict[str, Any], ctx: Any) -> tuple[bool, str]:
    """The importer's translation, each judge called directly (run_judge would freeze a whole
    world; these judges need only its network namespace or the display)."""
    from deskact.runtime.importers.osworld_metrics import translate_evaluator
    from deskact.runtime.tasks.steps import lookup

    translation = translate_evaluator(evaluator, lambda url, name: name, lambda p: p, lambda c: str(c))
    assert not translation.reasons, translation.reasons
    verdicts = [lookup("judge", name).call(ctx, params) for s in translation.judge for name, params in s.items()]
    return all(v.passed for v in verdicts), "; ".join(v.feedback for v in verdicts)


@pytest.mark.parametrize(("xml", "verdict"), [
    (status("playing", {"filename": NAME}), True),
    (status("paused", {"filename": NAME}), False),
    (status("stopped"), False),
    (status("playing", {"filename": NAME.replace(".mp4", ".mkv")}), False),
    (status("playing", {"filename": "Copy of " + NAME}), True),  # the metric's endswith
    (status("playing", {"filename": NAME + " "}), False),  # its text unstripped
    (status("playing", {"filename": NAME[:-5]}), False),
    (status("playing", {"filename": "", "title": NAME}), True),  # 1.0.2: the next meta field
    (status("playing", {"title": "Never Gonna Give You Up", "filename": NAME}), True),
    (status("playing", {"filename": "other.mp4", "title": NAME}), False),  # filename comes first
    (status("playing", {"filename": NAME}, where="extra"), False),  # meta not under <information>
])
def test_is_vlc_playing(desktop_env: Any, ctx: Any, vlc_like: tuple[int, Path], xml: str, verdict: bool) -> None:
    pid, served = vlc_like
    served.write_text(xml)
    theirs = desktop_env.passes("vlc", "is_vlc_playing", str(served), RULE)
    ctx.world = types.SimpleNamespace(pid=pid, thawed=nullcontext)
    evaluator = {"func": "is_vlc_playing", "result": {"type": "vlc_playing_info", "dest": "status.xml"},
                 "expected": {"type": "rule", "rules": RULE}}
    ours, feedback = deskact_passes(evaluator, ctx)
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({feedback}); desktop-env does not"
    assert ours is verdict, feedback


def test_is_vlc_playing_without_vlc_fails_as_the_getters_error_does(ctx: Any, vlc_like: tuple[int, Path]) -> None:
    """Nothing answering on the port: OSWorld's getter raises, the task scores 0."""
    proc = subprocess.Popen(["unshare", "--net", "sleep", "30"])
    try:
        time.sleep(0.3)
        ctx.world = types.SimpleNamespace(pid=proc.pid, thawed=nullcontext)
        evaluator = {"func": "is_vlc_playing", "result": {"type": "vlc_playing_info", "dest": "status.xml"},
                     "expected": {"type": "rule", "rules": RULE}}
        ours, feedback = deskact_passes(evaluator, ctx)
        assert not ours and "cannot be read" in feedback
    finally:
        proc.kill()
        proc.wait()


# --- is_vlc_fullscreen ------------------------------------------------------------------------


class Windows:
    """Top-level windows made with python-xlib on one display, shown in the order made."""

    def __init__(self, display: str) -> None:
        from Xlib import display as xdisplay

        self.name = display
        self.d = xdisplay.Display(display)
        self.made: list[Any] = []

    def make(self, wm_class: tuple[str, str], width: int = 400, height: int = 300) -> int:
        root = self.d.screen().root
        w = root.create_window(10, 10, width, height, 0, self.d.screen().root_depth)
        w.set_wm_class(*wm_class)
        w.set_wm_name(f"win {len(self.made)}")
        w.map()
        self.d.sync()
        self.made.append(w)
        self.wait(lambda: str(w.id) in self.clients().split(), f"window {w.id} in the client list {self.clients()}")
        return int(w.id)

    def clients(self) -> str:
        out = subprocess.run(["xprop", "-root", "_NET_CLIENT_LIST"], env={**os.environ, "DISPLAY": self.name},
                             capture_output=True, text=True).stdout
        return " ".join(str(int(h, 16)) for h in re.findall(r"0x[0-9a-f]+", out))

    def wmctrl(self, wid: int, *args: str) -> None:
        subprocess.run(["wmctrl", "-i", "-r", str(wid), *args], env={**os.environ, "DISPLAY": self.name}, check=True)

    def size(self, wid: int) -> dict[str, int]:
        """The window's own size as xwininfo reads it (what OSWorld's get_geometry answer holds)."""
        out = subprocess.run(["xwininfo", "-id", str(wid)], env={**os.environ, "DISPLAY": self.name},
                             capture_output=True, text=True, check=True).stdout
        width = re.search(r"Width: (\d+)", out)
        height = re.search(r"Height: (\d+)", out)
        assert width and height, out
        return {"width": int(width.group(1)), "height": int(height.group(1))}

    @staticmethod
    def wait(condition: Any, what: str = "", seconds: float = 20) -> None:
        deadline = time.monotonic() + seconds
        while not condition():
            assert time.monotonic() < deadline, f"the window manager did not apply the request {what}"
            time.sleep(0.05)

    def close(self) -> None:
        for w in self.made:
            w.destroy()
        self.d.close()


@pytest.fixture
def windows(xdisplay: Any) -> Iterator[Windows]:
    if not all(shutil.which(p) for p in ("wmctrl", "xwininfo", "xprop")):
        pytest.skip("needs wmctrl, xwininfo and xprop")
    made = Windows(xdisplay.name)
    # Windows mapped while openbox is still starting may stay unmanaged: wait for its check window.
    made.wait(lambda: "window id" in subprocess.run(
        ["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], env={**os.environ, "DISPLAY": made.name},
        capture_output=True, text=True).stdout, "openbox up")
    try:
        yield made
    finally:
        made.close()


SCREEN = {"width": 1280, "height": 800}


def _fullscreen_agree(desktop_env: Any, ctx: Any, windows: Windows, first: int | None, verdict: bool) -> None:
    """``first``: the window OSWorld's /window_size answers for (None: no window of the class)."""
    theirs = desktop_env.passes("vlc", "is_vlc_fullscreen", SCREEN, windows.size(first) if first else None)
    ctx.display = windows.name
    evaluator = {"func": "is_vlc_fullscreen", "expected": {"type": "vm_window_size", "app_class_name": "vlc"},
                 "result": {"type": "vm_screen_size"}}
    ours, feedback = deskact_passes(evaluator, ctx)
    assert ours == theirs, f"deskact {'passes' if ours else 'fails'} ({feedback}); desktop-env does not"
    assert ours is verdict, feedback


def test_a_fullscreen_vlc_window_fills_the_screen(desktop_env: Any, ctx: Any, windows: Windows) -> None:
    wid = windows.make(("vlc", "vlc"))
    windows.wmctrl(wid, "-b", "add,fullscreen")
    windows.wait(lambda: windows.size(wid) == SCREEN)
    _fullscreen_agree(desktop_env, ctx, windows, wid, True)


def test_a_maximized_one_under_its_title_bar_does_not(desktop_env: Any, ctx: Any, windows: Windows) -> None:
    wid = windows.make(("vlc", "vlc"))
    windows.wmctrl(wid, "-b", "add,maximized_vert,maximized_horz")
    windows.wait(lambda: windows.size(wid)["width"] == SCREEN["width"])
    time.sleep(0.2)
    _fullscreen_agree(desktop_env, ctx, windows, wid, False)


def test_a_window_resized_to_the_screen_does_and_one_pixel_short_does_not(desktop_env: Any, ctx: Any,
                                                                          windows: Windows) -> None:
    wid = windows.make(("vlc", "vlc"))
    windows.wmctrl(wid, "-b", "add,fullscreen")
    windows.wait(lambda: windows.size(wid) == SCREEN)
    _fullscreen_agree(desktop_env, ctx, windows, wid, True)
    windows.wmctrl(wid, "-b", "remove,fullscreen")
    windows.wait(lambda: windows.size(wid) != SCREEN)
    windows.wmctrl(wid, "-e", f"0,0,0,{SCREEN['width']},{SCREEN['height'] - 1}")
    windows.wait(lambda: windows.size(wid)["width"] == SCREEN["width"])
    _fullscreen_agree(desktop_env, ctx, windows, wid, False)


def test_the_first_window_of_the_class_counts(desktop_env: Any, ctx: Any, windows: Windows) -> None:
    first = windows.make(("vlc", "vlc"))
    second = windows.make(("VLC", "Vlc"))  # the class compared case-insensitively
    windows.wmctrl(second, "-b", "add,fullscreen")
    windows.wait(lambda: windows.size(second) == SCREEN)
    _fullscreen_agree(desktop_env, ctx, windows, first, False)
    windows.wmctrl(first, "-b", "add,fullscreen")
    windows.wait(lambda: windows.size(first) == SCREEN)
    _fullscreen_agree(desktop_env, ctx, windows, first, True)


def test_other_classes_do_not_count(desktop_env: Any, ctx: Any, windows: Windows) -> None:
    for wm_class in (("vlc-helper", "Helper"), ("xterm", "XTerm")):
        wid = windows.make(wm_class)
        windows.wmctrl(wid, "-b", "add,fullscreen")
        windows.wait(lambda wid=wid: windows.size(wid) == SCREEN)
    _fullscreen_agree(desktop_env, ctx, windows, None, False)
