"""``deskact view`` in headless Chromium over real run folders: runs, filters, steps, compare, live updates."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from deskact.runtime.errors import DeskactError
from deskact.runtime.ui.viewer import ViewerServer

sys.path.insert(0, str(Path(__file__).parent))
from page_wait import until

DESKACT = Path(sys.executable).parent / "deskact"
WAIT_S = 60.0  # the machine is shared: generous waits, never timing assertions

SUITE_GUI = """
tasks:
  - id: view-click
    instruction: Click into the terminal, then write hello into ${WORKSPACE}/note.txt
    visual: true
    toolkits: [gui]
    tags: [visual]
    max_steps: 3
    reset:
      - apps.launch: {cmd: "xterm -T Terminal -fa 'DejaVu Sans Mono' -fs 16 -bg white -fg black -e bash --norc", window: Terminal}
    judge:
      - files.content: {path: "${WORKSPACE}/note.txt", equals: "hello\\n"}
    cleanup:
      - apps.kill: {name: xterm}
    reference: |
      import os, time
      mouse.click(200, 150)
      windows.activate("Terminal")
      keyboard.type("cd $WORKSPACE && echo hello > note.txt\\n")
      deadline = time.monotonic() + 15
      while not os.path.exists("note.txt") and time.monotonic() < deadline:
          time.sleep(0.05)
      print("written:", open("note.txt").read().strip())
      exit()
"""

SUITE_API = """
tasks:
  - id: view-answer
    instruction: Print the number 42.
    tags: [api, numbers]
    judge:
      - answer.regex: {pattern: '\\b42\\b'}
    reference: |
      print(42)
      exit()
  - id: view-wrong
    instruction: Print the word yes.
    tags: [api]
    judge:
      - answer.regex: {pattern: 'yes'}
    reference: |
      print("no")
      exit()
"""


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding two real runs of the same suites: reference and noop."""
    if shutil.which("Xvfb") is None or shutil.which("xterm") is None:
        pytest.skip("needs Xvfb and xterm (scripts/setup.sh installs them)")
    base = tmp_path_factory.mktemp("view")
    for name, text in (("gui_suite", SUITE_GUI), ("api_suite", SUITE_API)):
        (base / name).mkdir()
        (base / name / "tasks.yaml").write_text(textwrap.dedent(text))
    root = base / "runs"
    for model in ("reference", "noop"):
        proc = subprocess.run([str(DESKACT), "run", str(base / "gui_suite"), str(base / "api_suite"), "-m", model,
                               "-o", str(root / model)], capture_output=True, text=True, timeout=600, check=False)
        assert (root / model / "results.jsonl").is_file(), proc.stdout + proc.stderr
    return root


@pytest.fixture(scope="module")
def server(runs: Path) -> Iterator[ViewerServer]:
    with ViewerServer([runs]) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    return chromium


def _until(what: str, check: Callable[[], Any], timeout: float = WAIT_S) -> Any:
    return until(what, check, timeout)


def _rows(d: Any) -> list[str]:
    from selenium.webdriver.common.by import By

    return sorted(tr.get_attribute("data-key") for tr in d.find_elements(By.CSS_SELECTOR, "#tasks tbody tr.task"))


def _src(d: Any, css: str) -> str:
    from selenium.webdriver.common.by import By

    return d.find_element(By.CSS_SELECTOR, css).get_attribute("src") or ""


def _get(server: ViewerServer, path: str) -> Any:
    return json.loads(urllib.request.urlopen(server.url + path, timeout=30).read())


# --- the API -------------------------------------------------------------------------


def test_api_lists_runs_and_serves_only_run_files(server: ViewerServer, runs: Path) -> None:
    listed = {r["id"]: r for r in _get(server, "api/runs")}
    assert set(listed) == {"reference", "noop"}
    assert (listed["reference"]["tasks"], listed["reference"]["passed"], listed["reference"]["failed"]) == (3, 2, 1)
    page = _get(server, "api/runs/reference/tasks/view-click")
    assert page["steps"][0]["points"] == [
        {"action": "click", "x": 200.0, "y": 150.0, "space": "image", "start": None, "line": 2}]
    after = page["steps"][0]["after"]
    shot = urllib.request.urlopen(server.url + "files/reference/" + page["trajectory"] + "/" + after, timeout=30)
    assert shot.headers["Content-Type"] in ("image/png", "image/jpeg")
    (runs.parent / "secret.txt").write_text("not yours")
    for bad in ("files/reference/../../secret.txt", "files/reference/%2e%2e/%2e%2e/secret.txt",
                "api/runs/nope", "api/runs/reference/tasks/nope"):
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(server.url + bad, timeout=30)
        assert err.value.code in (400, 404), bad


def test_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DeskactError, match="no-such-dir: no such folder"):
        ViewerServer([tmp_path / "no-such-dir"])


# --- in the browser ------------------------------------------------------------------


def test_run_list_and_filters(server: ViewerServer, browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    d = browser
    d.get(server.url)
    _until("both runs listed", lambda: len(d.find_elements(By.CSS_SELECTOR, "#runs tr.run")) == 2)
    d.find_element(By.LINK_TEXT, "reference").click()
    _until("the task list", lambda: _rows(d) == ["view-answer", "view-click", "view-wrong"])
    assert d.find_element(By.ID, "shown-count").text == "3 of 3 tasks"

    Select(d.find_element(By.ID, "f-status")).select_by_value("failed")
    _until("only the failed task", lambda: _rows(d) == ["view-wrong"])
    assert "status=failed" in d.current_url  # the filter is in the address: a view can be shared
    Select(d.find_element(By.ID, "f-status")).select_by_value("")
    Select(d.find_element(By.ID, "f-suite")).select_by_value("gui_suite")
    _until("the gui suite", lambda: _rows(d) == ["view-click"])
    Select(d.find_element(By.ID, "f-suite")).select_by_value("")
    Select(d.find_element(By.ID, "f-tag")).select_by_value("api")
    _until("the api tag", lambda: _rows(d) == ["view-answer", "view-wrong"])
    d.find_element(By.ID, "f-text").send_keys("wrong")
    _until("text and tag together", lambda: _rows(d) == ["view-wrong"])
    # A reload keeps the filters (they live in the URL).
    d.refresh()
    _until("filters after reload", lambda: _rows(d) == ["view-wrong"])
    assert d.find_element(By.ID, "f-text").get_attribute("value") == "wrong"


def test_task_page_draws_the_click_on_the_screenshot(server: ViewerServer, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    d = browser
    d.get(server.url + "#/run/reference/task/view-click")
    circle = _until("the click mark", lambda: d.find_element(By.CSS_SELECTOR, "#step-0 svg circle.mark.click"))
    assert (circle.get_attribute("cx"), circle.get_attribute("cy")) == ("200", "150")
    img = d.find_element(By.CSS_SELECTOR, "#step-0 figure.shot img")
    width = d.execute_script("return arguments[0].naturalWidth", img)
    # The mark sits over the image in the image's own pixels (viewBox = natural size), wherever it is scaled to.
    svg = d.find_element(By.CSS_SELECTOR, "#step-0 svg")
    assert d.execute_script("return arguments[0].getAttribute('viewBox')", svg).startswith(f"0 0 {width} ")
    assert "mouse.click(200, 150)" in d.find_element(By.CSS_SELECTOR, "#step-0 pre.code").text
    assert "written: hello" in d.find_element(By.CSS_SELECTOR, "#step-0 pre.stdout").text
    assert "files.content" in d.find_element(By.ID, "verdicts").text


def test_first_observation_is_shown_before_step_one(server: ViewerServer, runs: Path, browser: Any) -> None:

    folder = runs / "noop" / "trajectories" / "view-click"
    # The screenshot taken before step 1: any image no step file claims, whatever the runner calls it.
    steps = {p.name for p in folder.glob("step_*")}
    first = sorted(p.name for p in folder.iterdir() if p.suffix in (".png", ".jpg") and p.name not in steps)
    if not first:  # a runner that does not save it: the viewer still shows one found under another name
        shot = next(p for p in folder.glob("step_000.*") if p.suffix != ".json")
        shutil.copy(shot, folder / f"observation_start{shot.suffix}")
        first = [f"observation_start{shot.suffix}"]
    d = browser
    d.get(server.url + "#/run/noop/task/view-click")
    first_name = first[0]
    _until("the first observation", lambda: _src(d, "#first-observation img").endswith("/" + first_name))
    # Step 1's pointer actions are drawn on what the model saw then: the first observation.
    _until("step 1 on it", lambda: _src(d, "#step-0 figure.shot img").endswith("/" + first_name))


def test_compare_side_by_side(server: ViewerServer, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    d = browser
    d.get(server.url)
    _until("runs", lambda: len(d.find_elements(By.CSS_SELECTOR, "#runs .pick")) == 2)
    for box in d.find_elements(By.CSS_SELECTOR, "#runs .pick"):
        box.click()
    d.find_element(By.ID, "compare-btn").click()
    summary = _until("the comparison", lambda: d.find_element(By.ID, "compare-summary").text)
    changed = [tr.get_attribute("data-key") for tr in d.find_elements(By.CSS_SELECTOR, "#compare tr.changed")]
    # noop fails the two tasks the reference passes; the wrong answer fails in both.
    assert sorted(changed) == ["view-answer", "view-click"], summary
    d.find_element(By.LINK_TEXT, "view-click").click()
    columns = _until("two columns", lambda: d.find_elements(By.CSS_SELECTOR, "#side-by-side > .column"))
    assert len(columns) == 2
    assert {c.get_attribute("data-run") for c in columns} == {"reference", "noop"}
    assert all(c.find_elements(By.CSS_SELECTOR, ".step figure.shot img") for c in columns)


def test_live_run_updates_while_results_are_written(runs: Path, tmp_path: Path, browser: Any) -> None:
    """A run that is still writing: a task appears as running with its steps, then gets its result."""
    from selenium.webdriver.common.by import By

    done = runs / "reference"
    live = tmp_path / "live-run"
    (live / "trajectories").mkdir(parents=True)
    (live / "results.jsonl").write_text("")
    lines = (done / "results.jsonl").read_text().splitlines()
    first = next(json.loads(x) for x in lines if '"view-answer"' in x)
    click = next(json.loads(x) for x in lines if '"view-click"' in x)
    with ViewerServer([tmp_path]) as server:
        d = browser
        d.get(server.url + "#/run/live-run")
        _until("the empty run", lambda: d.find_element(By.ID, "shown-count").text == "0 of 0 tasks")

        (live / "results.jsonl").write_text(json.dumps(first) + "\n")
        _until("the first result", lambda: _rows(d) == [first["task_id"]])

        # view-click starts: its trajectory folder and first step appear before its result line.
        src, dst = done / "trajectories" / "view-click", live / "trajectories" / "view-click"
        dst.mkdir()
        for file in src.glob("step_000.*"):
            shutil.copy(file, dst / file.name)
        running = _until("the running task", lambda: d.find_element(By.CSS_SELECTOR, 'tr[data-key="~view-click"]'))
        assert running.get_attribute("data-status") == "running"
        assert d.find_element(By.ID, "live").is_displayed()

        # Its page follows the steps as they are written.
        running.click()
        _until("step 1", lambda: d.find_element(By.ID, "step-count").text == "1")
        step = json.loads((src / "step_000.json").read_text())
        step.update(index=1, code="mouse.double_click(30, 40)")
        (dst / "step_001.json").write_text(json.dumps(step))
        _until("step 2", lambda: d.find_element(By.ID, "step-count").text == "2")
        mark = d.find_element(By.CSS_SELECTOR, "#step-1 svg circle.mark")
        assert (mark.get_attribute("cx"), mark.get_attribute("cy")) == ("30", "40")

        with (live / "results.jsonl").open("a") as f:
            f.write(json.dumps(click) + "\n")
        d.get(server.url + "#/run/live-run")
        _until("the finished task", lambda: _rows(d) == sorted([first["task_id"], "view-click"]))
        status = d.find_element(By.CSS_SELECTOR, 'tr[data-key="view-click"]').get_attribute("data-status")
        assert status == "passed"
        assert d.find_element(By.ID, "shown-count").text == "2 of 2 tasks"


def test_repeated_tasks_are_one_row_per_epoch(tmp_path: Path, browser: Any) -> None:
    from deskact.runtime.run.results import TaskResult
    from deskact.runtime.ui.viewer.runs import RunRef, run_detail
    from selenium.webdriver.common.by import By

    run = tmp_path / "epochs"
    run.mkdir()
    lines = [TaskResult(task_id=t, suite="s", status=s, reward=int(s == "passed"), epoch=e)
             for t, e, s in (("a", 1, "passed"), ("a", 2, "error"), ("a", 3, "failed"), ("b", 1, "passed"),
                             ("a", 2, "failed"))]
    (run / "results.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in lines))
    detail = run_detail(RunRef(id="epochs", path=run))
    # a ran three times: a row per epoch, the retried epoch 2 as last written; b ran once: its plain id.
    assert {t.key: (t.epoch, t.status) for t in detail.tasks} == {
        "a@1": (1, "passed"), "a@2": (2, "failed"), "a@3": (3, "failed"), "b": (None, "passed")}
    # pass@k of a (n=3, c=1): 1/3, 1 - C(2,2)/C(3,2) = 2/3, and 1.
    a = next(t for t in detail.task_epochs if t.task_id == "a")
    assert (a.n, a.passed) == (3, 1)
    assert [round(a.pass_at[k], 4) for k in (1, 2, 3)] == [0.3333, 0.6667, 1.0]

    with ViewerServer([tmp_path]) as server:
        d = browser
        d.get(server.url + "#/run/epochs")
        row = _until("the per-task pass@k", lambda: d.find_element(By.CSS_SELECTOR, '#epochs-task tr[data-task="a"]'))
        d.execute_script("arguments[0].closest('details').open = true", row)
        cells = [td.text for td in row.find_elements(By.TAG_NAME, "td")]
        assert cells[:5] == ["a", "1/3", "33%", "67%", "100%"], cells
        assert d.find_element(By.CSS_SELECTOR, "#tasks th.c-epoch").is_displayed()


def test_view_command_serves_and_refuses_a_missing_folder(runs: Path, tmp_path: Path) -> None:
    proc = subprocess.run([str(DESKACT), "view", str(tmp_path / "nope")], capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 2
    # One message (rich wraps it at the terminal's width: compare it unwrapped).
    assert " ".join(proc.stderr.split()) == (
        f"error: {tmp_path / 'nope'}: no such folder (give run folders or folders that hold them)")

    view = subprocess.Popen([str(DESKACT), "view", str(runs), "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        assert view.stdout is not None
        line = view.stdout.readline()
        url = line.split()[2]
        assert line.startswith("deskact view: http://127.0.0.1:") and url.endswith("/"), line
        assert {r["id"] for r in json.loads(urllib.request.urlopen(url + "api/runs", timeout=30).read())} == {
            "reference", "noop"}
    finally:
        view.terminate()
        view.wait(timeout=60)


def test_only_its_own_page_files_and_loopback_names(server: ViewerServer) -> None:
    port = server.httpd.server_address[1]
    for path in ("static/..%2fserver.py", "static/%2e%2e%2fserver.py", "static/index.html"):
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(server.url + path, timeout=30)
        assert err.value.code == 404, path
    assert b"deskact view" in urllib.request.urlopen(server.url + "static/viewer.js", timeout=30).read()
    # A page on another name that resolves to 127.0.0.1 (DNS rebinding) is refused.
    rebound = urllib.request.Request(server.url + "api/runs", headers={"Host": f"evil.example:{port}"})
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(rebound, timeout=30)
    assert err.value.code == 403
    local = urllib.request.Request(server.url + "api/runs", headers={"Host": f"localhost:{port}"})
    assert urllib.request.urlopen(local, timeout=30).status == 200
