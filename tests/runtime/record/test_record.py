"""``deskact record`` end to end: a headless Chromium (selenium over DevTools) plays the person.

Its mouse and keyboard go through the recording page's noVNC into the task's X display, as
a person's would; the recording must become a judged trajectory with a video and a reference
that ``deskact validate`` accepts (the reference passes, noop and explore fail).
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.display, pytest.mark.bwrap, pytest.mark.slow]

DESKACT = Path(sys.executable).parent / "deskact"
WAIT_S = 120.0  # the machine is shared: generous waits, never timing assertions

XTERM_SUITE = """
tasks:
  - id: rec-xterm-note
    instruction: In the terminal, write hello into note.txt in the workspace.
    visual: true
    toolkits: [gui]
    max_steps: 5
    reset:
      - apps.launch: {cmd: "xterm -T Terminal -geometry 80x24+100+100 -fa 'DejaVu Sans Mono' -fs 14 -e bash --norc", window: Terminal}
    judge:
      - files.content: {path: "${WORKSPACE}/note.txt", equals: "hello\\n"}
    cleanup:
      - apps.kill: {name: xterm}
"""


def _until(what: str, check: Callable[[], Any], timeout: float = WAIT_S) -> Any:
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        try:
            last = check()
        except Exception as exc:  # noqa: BLE001 - a page mid-reload: try again
            last = exc
        if last and not isinstance(last, Exception):
            return last
        time.sleep(0.3)
    raise AssertionError(f"timed out waiting for {what} (last: {last!r})")


def _lines(stream: Any, out: queue.Queue[str]) -> None:
    for line in stream:
        out.put(line)
    out.put("")


class Recorder:
    """A ``deskact record`` process and its page in the browser, driven like a person would."""

    def __init__(self, driver: Any, suite: Path, task: str, out: Path, *extra: str) -> None:
        self.driver = driver
        self.out = out
        self.proc = subprocess.Popen([str(DESKACT), "record", str(suite), "--task", task, "-o", str(out), *extra],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True)
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=_lines, args=(self.proc.stdout, self.lines), daemon=True).start()
        self.url = self._address()

    def _address(self) -> str:
        deadline = time.monotonic() + WAIT_S * 2  # the world's reset, LibreOffice's start on a loaded box
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=1)
            except queue.Empty:
                continue
            self.seen.append(line)
            match = re.match(r"(http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]{20,}/)$", line.strip())
            if match:
                return match.group(1)
            assert line or self.proc.poll() is None, self.output()
        raise AssertionError("no page address: " + self.output())

    def output(self) -> str:
        while not self.lines.empty():
            self.seen.append(self.lines.get())
        return "".join(self.seen)

    def open(self) -> None:
        from selenium.webdriver.common.by import By

        d = self.driver
        d.get(self.url)
        frame = _until("the noVNC frame", lambda: d.find_element(By.ID, "screen"))
        d.switch_to.frame(frame)
        _until("noVNC connected", lambda: d.execute_script(
            "return document.documentElement.classList.contains('noVNC_connected')"))
        d.switch_to.default_content()

    def _in_frame(self) -> Any:
        from selenium.webdriver.common.by import By

        self.driver.switch_to.default_content()
        self.driver.switch_to.frame(self.driver.find_element(By.ID, "screen"))
        return _until("the canvas", lambda: self.driver.find_element(By.CSS_SELECTOR, "#noVNC_container canvas"))

    def click(self, x: int, y: int, double: bool = False) -> None:
        """Click the display at screen pixel (x, y): the page's canvas scaled by noVNC."""
        from selenium.webdriver.common.action_chains import ActionChains

        canvas = self._in_frame()
        rect = self.driver.execute_script(
            "const c = arguments[0], r = c.getBoundingClientRect();"
            "return [r.width, r.height, c.width, c.height];", canvas)
        width, height, fb_w, fb_h = rect
        ox, oy = x * width / fb_w - width / 2, y * height / fb_h - height / 2
        chain = ActionChains(self.driver).move_to_element_with_offset(canvas, round(ox), round(oy)).pause(0.2)
        chain = chain.double_click() if double else chain.click()
        chain.perform()
        time.sleep(0.8)  # a person looks before going on; the screen settles
        self.driver.switch_to.default_content()

    def type(self, text: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains

        self._in_frame()
        ActionChains(self.driver).send_keys(text).perform()
        time.sleep(0.8)
        self.driver.switch_to.default_content()

    def hotkey(self, *keys: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains

        self._in_frame()
        chain = ActionChains(self.driver)
        for key in keys[:-1]:
            chain = chain.key_down(key)
        chain = chain.send_keys(keys[-1])
        for key in reversed(keys[:-1]):
            chain = chain.key_up(key)
        chain.perform()
        time.sleep(1.0)
        self.driver.switch_to.default_content()

    def counts(self) -> str:
        from selenium.webdriver.common.by import By

        self.driver.switch_to.default_content()
        return str(self.driver.find_element(By.ID, "counts").text)

    def done(self) -> dict[str, Any]:
        from selenium.webdriver.common.by import By

        self.driver.switch_to.default_content()
        self.driver.find_element(By.ID, "done").click()
        status = _until("the page saying what became of the recording",
                        lambda: self.driver.find_element(By.ID, "status").text)
        assert self.proc.wait(timeout=WAIT_S * 2) in (0, 1), self.output()
        return {"status": status, "code": self.proc.returncode, "output": self.output()}

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def _need(*tools: str) -> None:
    for tool in tools:
        if shutil.which(tool) is None:
            pytest.skip(f"needs {tool} (scripts/setup.sh installs it)")


def _suite(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "suite"
    folder.mkdir()
    (folder / "tasks.yaml").write_text(textwrap.dedent(text))
    return folder


def _validate(suite: Path, task: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(DESKACT), "validate", str(suite), "--tasks", task, "--workers", "1", *extra],
                          capture_output=True, text=True, timeout=900, check=False)


def _check_run(out: Path, task: str, status: str = "passed") -> dict[str, Any]:
    """The recording's run folder: a result, a trajectory of steps with screens, a video, the input log."""
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [(r["task_id"], r["model"], r["status"]) for r in results] == [(task, "human", status)], results
    folder = out / results[0]["trajectory"]
    steps = sorted(folder.glob("step_[0-9][0-9][0-9].json"))
    assert steps and results[0]["steps"] == len(steps)
    for step in steps:
        data = json.loads(step.read_text())
        assert data["code"] and (folder / data["screenshot_file"]).is_file()
        assert (folder / data["demonstration"]["before"]).is_file()
        assert (folder / data["demonstration"]["a11y"]).is_file()
    assert (folder / "first_observation.png").is_file() or (folder / "first_observation.jpg").is_file()
    assert (folder / "episode.mp4").stat().st_size > 1000
    assert json.loads((folder / "episode.json").read_text())["model"] == "human"
    assert (folder / "input.jsonl").stat().st_size > 0
    assert json.loads((out / "run.json").read_text())["model"] == "human"
    return {"folder": folder, "steps": [json.loads(s.read_text()) for s in steps],
            "code": (folder / "reference.py").read_text()}


def test_xterm_demonstration_becomes_a_reference_that_validates(tmp_path: Path, chromium: Any) -> None:
    _need("Xvfb", "xterm", "x11vnc", "websockify")
    suite = _suite(tmp_path, XTERM_SUITE)
    rec = Recorder(chromium, suite, "rec-xterm-note", tmp_path / "out")
    try:
        rec.open()
        rec.click(500, 300)  # into the terminal (placed at +100+100)
        rec.type("cd $WORKSPACE && echo hello > note.txt\n")
        _until("the page counting the keys", lambda: re.search(r"[1-9]\d* presses", rec.counts()))
        finished = rec.done()
    finally:
        rec.kill()
    assert "Written to" in finished["status"], finished
    run = _check_run(tmp_path / "out", "rec-xterm-note")
    assert 'keyboard.type("cd $WORKSPACE && echo hello > note.txt\\n")' in run["code"], run["code"]
    assert re.search(r"mouse\.click\(\d+, \d+\)", run["code"]), run["code"]
    written = (suite / "tasks.yaml").read_text()
    assert "reference: |" in written and "echo hello > note.txt" in written

    # A wrong attempt, saved as a counterexample: refused as a reference, kept as a counterexample.
    wrong = Recorder(chromium, suite, "rec-xterm-note", tmp_path / "wrong", "--as", "counterexample",
                     "--note", "writes hullo")
    try:
        wrong.open()
        wrong.click(500, 300)
        wrong.type("cd $WORKSPACE && echo hullo > note.txt\n")
        finished = wrong.done()
    finally:
        wrong.kill()
    assert "Written to" in finished["status"] and "counterexamples" in finished["status"], finished
    _check_run(tmp_path / "wrong", "rec-xterm-note", status="failed")
    written = (suite / "tasks.yaml").read_text()
    assert 'counterexamples:\n      - note: "writes hullo"' in written and "echo hullo > note.txt" in written, written

    proc = _validate(suite, "rec-xterm-note")  # reference passes; noop, explore and the counterexample fail
    assert proc.returncode == 0 and "1/1 tasks valid" in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    assert os.path.exists(tmp_path / "out" / "trajectories" / "rec-xterm-note" / "reference.py")


MOUSEPAD_SUITE = """
tasks:
  - id: rec-mousepad-save
    instruction: The file note.txt is open in Mousepad. Write hello world in it and save it with the File menu.
    visual: true
    toolkits: [gui]
    max_steps: 10
    reset:
      - files.write: {path: "${WORKSPACE}/note.txt", content: ""}
      - apps.launch: {cmd: "env GSETTINGS_BACKEND=memory mousepad --disable-server ${WORKSPACE}/note.txt", window: note.txt}
    judge:
      - files.content: {path: "${WORKSPACE}/note.txt", contains: hello world}
    cleanup:
      - apps.kill: {name: mousepad}
"""


def test_mousepad_menu_clicks_are_written_by_name_and_validate_with_the_tree(tmp_path: Path, chromium: Any) -> None:
    _need("Xvfb", "mousepad", "x11vnc", "websockify")
    suite = _suite(tmp_path, MOUSEPAD_SUITE)
    config = tmp_path / "config.yaml"
    config.write_text("observation:\n  a11y: tree\n")  # the tree on, for the recording and for validate
    rec = Recorder(chromium, suite, "rec-mousepad-save", tmp_path / "out", "-c", str(config))
    try:
        rec.open()
        # Mousepad's window as it opens on a 1920x1080 screen: its text, its File menu, the menu's Save.
        rec.click(960, 555)
        rec.type("hello world")
        rec.click(660, 320)
        rec.click(790, 471)
        finished = rec.done()
    finally:
        rec.kill()
    assert "Written to" in finished["status"], finished
    run = _check_run(tmp_path / "out", "rec-mousepad-save")
    code = run["code"]
    assert re.search(r"click\('File', 'menu', at=\(\d+, \d+\)\)", code), code
    assert re.search(r"click\('Save', 'menu item', at=\(\d+, \d+\)\)", code), code
    assert "def click(name, role, at" in code and 'keyboard.type("hello world")' in code
    assert run["steps"][2]["demonstration"]["target"] == {"role": "menu", "name": "File", "by_name": True}
    proc = _validate(suite, "rec-mousepad-save", "-c", str(config))
    assert proc.returncode == 0 and "1/1 tasks valid" in proc.stdout + proc.stderr, proc.stdout + proc.stderr


CALC_SUITE = """
tasks:
  - id: rec-calc-tea-price
    instruction: >-
      The workbook ${WORKSPACE}/prices.xlsx is open in LibreOffice Calc. Change the price of Tea
      (column B) to 3.9. You need not save: the open document is saved before it is checked.
    visual: true
    toolkits: [gui]
    max_steps: 10
    max_time: 300
    reset:
      - office.xlsx:
          path: "${WORKSPACE}/prices.xlsx"
          sheets:
            Prices: [[Item, Price], [Tea, 3.5], [Coffee, 4.2], [Cake, 2]]
      - apps.open: {path: "${WORKSPACE}/prices.xlsx"}
    before_judge:
      - apps.save: {paths: ["${WORKSPACE}/prices.xlsx"], timeout: 60}
    judge:
      - xlsx.cells: {path: "${WORKSPACE}/prices.xlsx", sheet: Prices, cells: {A2: Tea, B2: 3.9, B3: 4.2, B4: 2}}
    cleanup:
      - apps.kill: {name: soffice}
"""


def test_calc_cell_edit_becomes_a_reference_that_validates(tmp_path: Path, chromium: Any) -> None:
    _need("Xvfb", "soffice", "x11vnc", "websockify")
    suite = _suite(tmp_path, CALC_SUITE)
    rec = Recorder(chromium, suite, "rec-calc-tea-price", tmp_path / "out")
    try:
        rec.open()
        rec.click(162, 172)  # cell B2, the price of Tea (the sheet as Calc opens it on a 1920x1080 screen)
        rec.type("3.9\n")
        finished = rec.done()
    finally:
        rec.kill()
    assert "Written to" in finished["status"], finished
    run = _check_run(tmp_path / "out", "rec-calc-tea-price")
    assert re.search(r"mouse\.click\(10\d, 11\d\)", run["code"]) and 'keyboard.type("3.9\\n")' in run["code"], run["code"]
    proc = _validate(suite, "rec-calc-tea-price")
    assert proc.returncode == 0 and "1/1 tasks valid" in proc.stdout + proc.stderr, proc.stdout + proc.stderr


WEB_SUITE = """
tasks:
  - id: rec-web-crm-customer
    instruction: >-
      In the admin app at http://crm.test/customers/new, add a customer: Quinn Harper,
      quinn@harper.example, company Harper Farms, city Cork, subscribed to the newsletter.
    visual: true
    toolkits: [gui, browser, web]
    max_steps: 10
    reset:
      - site.serve: {app: crm}
      - browser.open: {urls: ["http://crm.test/customers/new"], timeout: 90}
    judge:
      - site.state:
          app: crm
          table: customers
          where: {name: Quinn Harper, email: quinn@harper.example, company: Harper Farms, city: Cork, newsletter: 1}
          count: 1
"""


def test_web_form_in_chromium_becomes_a_reference_that_validates(tmp_path: Path, chromium: Any) -> None:
    _need("Xvfb", "x11vnc", "websockify")
    suite = _suite(tmp_path, WEB_SUITE)
    rec = Recorder(chromium, suite, "rec-web-crm-customer", tmp_path / "out")
    try:
        rec.open()
        # The form as the world's Chromium shows it on a 1920x1080 screen (task_suites/web's crm app).
        for (x, y), text in (((258, 228), "Quinn Harper"), ((258, 255), "quinn@harper.example"),
                             ((258, 282), "Harper Farms"), ((258, 309), "Cork")):
            rec.click(x, y)
            rec.type(text)
        rec.click(30, 424)  # the newsletter box
        rec.click(82, 545)  # Create customer
        finished = rec.done()
    finally:
        rec.kill()
    assert "Written to" in finished["status"], finished
    run = _check_run(tmp_path / "out", "rec-web-crm-customer")
    assert 'keyboard.type("quinn@harper.example")' in run["code"], run["code"]
    assert len(re.findall(r"mouse\.click\(", run["code"])) == 6, run["code"]
    proc = _validate(suite, "rec-web-crm-customer")
    assert proc.returncode == 0 and "1/1 tasks valid" in proc.stdout + proc.stderr, proc.stdout + proc.stderr


def test_ctrl_c_ends_the_recording_like_done(tmp_path: Path, chromium: Any) -> None:
    _need("Xvfb", "xterm", "x11vnc", "websockify")
    import signal

    suite = _suite(tmp_path, XTERM_SUITE)
    rec = Recorder(chromium, suite, "rec-xterm-note", tmp_path / "out", "--no-write")
    try:
        rec.open()
        rec.click(500, 300)
        rec.type("cd $WORKSPACE && echo hello > note.txt\n")
        rec.proc.send_signal(signal.SIGINT)  # Ctrl-C in the terminal
        assert rec.proc.wait(timeout=WAIT_S * 2) == 0, rec.output()
    finally:
        rec.kill()
    output = rec.output()
    assert "the judges: passed" in output and "Not written into the task: --no-write" in output, output
    run = _check_run(tmp_path / "out", "rec-xterm-note")
    assert 'keyboard.type("cd $WORKSPACE && echo hello > note.txt\\n")' in run["code"]
    assert "reference:" not in (suite / "tasks.yaml").read_text()  # --no-write: the YAML as it was
