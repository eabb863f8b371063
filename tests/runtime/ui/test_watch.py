"""``deskact run --watch``: the printed address shows the worker's display in a browser while the task runs."""

from __future__ import annotations

import os
import queue
import re
import shutil
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from deskact.runtime.ui.viewer import ViewerServer
from deskact.runtime.ui.watch import describe

DESKACT = Path(sys.executable).parent / "deskact"
WAIT_S = 120.0

# The reference waits until a window titled go-on appears: the test opens it once it has seen the
# display in the browser, so the task runs exactly as long as the test needs (no sleeps to tune).
SUITE = """
tasks:
  - id: watch-me
    instruction: Wait for the go-on window.
    visual: true
    toolkits: [gui]
    max_steps: 2
    reset:
      - apps.launch: {cmd: "xterm -T Terminal -bg red -e bash --norc", window: Terminal}
    judge:
      - answer.regex: {pattern: 'went on'}
    cleanup:
      - apps.kill: {name: xterm}
    reference: |
      windows.wait_for("go-on", timeout=300)
      print("went on")
      exit()
"""


def _until_css(driver: Any, css: str) -> None:
    from selenium.webdriver.common.by import By

    deadline = time.monotonic() + WAIT_S
    while not driver.find_elements(By.CSS_SELECTOR, css):
        assert time.monotonic() < deadline, f"the page never showed {css}"
        time.sleep(0.3)


def _lines(stream: Any, out: queue.Queue[str]) -> None:
    for line in stream:
        out.put(line)
    out.put("")


@pytest.mark.display  # run --watch starts each worker's X server and its VNC
def test_watch_prints_an_address_per_worker_that_shows_the_display(tmp_path: Path, chromium: Any, novnc: Any) -> None:
    for tool in ("Xvfb", "xterm", "x11vnc", "websockify"):
        if shutil.which(tool) is None:
            pytest.skip(f"needs {tool} (scripts/setup.sh installs it)")
    (tmp_path / "suite").mkdir()
    (tmp_path / "suite" / "tasks.yaml").write_text(textwrap.dedent(SUITE))
    proc = subprocess.Popen([str(DESKACT), "run", str(tmp_path / "suite"), "-m", "reference", "--watch",
                             "-o", str(tmp_path / "out")], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_lines, args=(proc.stdout, lines), daemon=True).start()
    seen: list[str] = []
    try:
        deadline = time.monotonic() + WAIT_S
        match = None
        while match is None and time.monotonic() < deadline:
            try:
                line = lines.get(timeout=1)
            except queue.Empty:
                continue
            seen.append(line)
            match = re.search(r"watch worker 0 \(display (:\d+)\): (http://127\.0\.0\.1:\d+/vnc\.html\S*) "
                              r"\(VNC 127\.0\.0\.1:\d+, password [^)]+\)", line)
            assert line or proc.poll() is None, "".join(seen)
        assert match, "".join(seen)
        display, url = match.groups()

        chromium.get(url)
        deadline = time.monotonic() + WAIT_S
        while not novnc.connected() or not any(r > 200 and g < 60 and b < 60 for r, g, b in novnc.colours()):
            assert time.monotonic() < deadline, "noVNC never showed the red terminal: " + "".join(seen)
            time.sleep(0.3)

        # The same run in deskact view: running now, passed once the task goes on.
        with ViewerServer([tmp_path / "out"]) as viewer:
            chromium.get(viewer.url + "#/run/out")
            row = 'tr[data-key="~watch-me"][data-status="running"]'
            _until_css(chromium, row)
            # ... with a link to the worker's screen, the address the run printed.
            _until_css(chromium, f'#watch-links a[href="{url}"]')
            go = subprocess.Popen(["xterm", "-T", "go-on"], env={**os.environ, "DISPLAY": display})
            try:
                assert proc.wait(timeout=300) == 0, "".join(seen)
                _until_css(chromium, 'tr[data-key="watch-me"][data-status="passed"]')
                _until_css(chromium, '#run-summary:not(:has(#watch-links))')  # its displays stopped with it
            finally:
                go.kill()
                go.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    while not lines.empty():
        seen.append(lines.get())
    output = "".join(seen)
    assert "Run this code?" not in output  # watching does not turn on the per-block confirmation
    assert '"status":"passed"' in (tmp_path / "out" / "results.jsonl").read_text().replace(" ", "")


def test_watch_refuses_display_modes_without_virtual_displays(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("display:\n  mode: attach\n")
    proc = subprocess.run([str(DESKACT), "run", "os", "-m", "noop", "--watch", "-c", str(tmp_path / "config.yaml"),
                           "-o", str(tmp_path / "out")], capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "error: --watch: display.mode is 'attach'; it shows virtual displays only"]


class _Shown:
    name, vnc_port, web_port = ":7", 5907, 6080
    vnc_url = "vnc://127.0.0.1:5907"
    web_url: str | None = "http://127.0.0.1:6080/vnc.html?autoconnect=1"


def test_lines_printed_per_worker() -> None:
    shown = _Shown()
    assert describe(3, shown) == ("watch worker 3 (display :7): http://127.0.0.1:6080/vnc.html?autoconnect=1 "
                                  "(VNC 127.0.0.1:5907)")
    shown.web_url = None  # display.vnc alone: the VNC port, for a VNC client
    assert describe(3, shown) == "worker 3 (display :7): VNC 127.0.0.1:5907 (e.g. vncviewer 127.0.0.1::5907)"
    shown.vnc_url = None  # neither: nothing to say
    assert describe(3, shown) is None
