"""Window listing (reset_scripts/_x11.py) on a real Xvfb + openbox display."""

import os
import signal
import time

import pytest
from deskact.reset_scripts._x11 import list_windows, wait_for_window
from Xlib import X
from Xlib import display as xlib_display

pytestmark = pytest.mark.display


def _titled_window(name: str, title: str) -> tuple[xlib_display.Display, object]:
    """A mapped top-level window titled ``title`` and its connection (python-xlib unmaps a
    window whose object is garbage-collected: the caller keeps both)."""
    conn = xlib_display.Display(name)
    screen = conn.screen()
    window = screen.root.create_window(10, 10, 200, 100, 0, screen.root_depth, X.InputOutput, X.CopyFromParent)
    window.set_wm_name(title)
    window.map()
    conn.sync()
    window.get_attributes()
    return conn, window


def test_windows_are_listed_after_the_window_manager_died(xdisplay) -> None:  # type: ignore[no-untyped-def]
    before, _keep_before = _titled_window(xdisplay.name, "before the crash")
    try:
        wait_for_window(xdisplay.name, "before the crash", timeout=10)
        os.kill(xdisplay.pids["wm"], signal.SIGKILL)  # its _NET_CLIENT_LIST stays on the root window
        deadline = time.monotonic() + 10
        while "wm" in xdisplay.pids and time.monotonic() < deadline:
            if xdisplay._procs["wm"].poll() is not None:
                break
            time.sleep(0.05)
        after, _keep_after = _titled_window(xdisplay.name, "after the crash")
        try:
            wait_for_window(xdisplay.name, "after the crash", timeout=10)
            assert {"before the crash", "after the crash"} <= {w.title for w in list_windows(xdisplay.name)}
        finally:
            after.close()
    finally:
        before.close()
