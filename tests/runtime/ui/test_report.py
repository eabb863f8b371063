"""The HTML run report and `deskact compare`, on real runs, checked in a real headless Chromium."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from deskact.runtime.agent.models.base import Usage
from deskact.runtime.errors import DeskactError
from deskact.runtime.run.results import TaskResult
from deskact.runtime.ui.report import compare_runs, cost_of, load_run, write_report

DESKACT = Path(sys.executable).parent / "deskact"

# Two suites: a visual task on an xterm (screenshots), a task the reference gets wrong
# (failed), one whose reset step breaks (error) and one that does not load (invalid).
SUITE_GUI = """
defaults:
  tags: [demo]
tasks:
  - id: rep-xterm-note
    instruction: In the terminal window, write hello into ${WORKSPACE}/note.txt
    visual: true
    toolkits: [gui]
    tags: [demo, visual]
    max_steps: 4
    reset:
      - apps.launch: {cmd: "xterm -T Terminal -fa 'DejaVu Sans Mono' -fs 16 -bg white -fg black -e bash --norc", window: Terminal}
    judge:
      - files.content: {path: "${WORKSPACE}/note.txt", equals: "hello\\n"}
    cleanup:
      - apps.kill: {name: xterm}
    reference: |
      import os, time
      windows.activate("Terminal")
      keyboard.type("cd $WORKSPACE && echo hello > note.txt && ls -la && echo REPORT-TEST-MARKER\\n")
      deadline = time.monotonic() + 15
      while not os.path.exists("note.txt") and time.monotonic() < deadline:
          time.sleep(0.05)
      time.sleep(0.3)  # let xterm paint the output for the screenshot
      print("written:", open("note.txt").read().strip())
      exit()
"""

SUITE_API = """
defaults:
  tags: [api]
tasks:
  - id: rep-wrong-answer
    instruction: Print the number 42.
    judge:
      - answer.regex: {pattern: '\\b42\\b'}
    reference: |
      print(41)
      exit()
  - id: rep-broken-reset
    instruction: Nothing to do.
    reset:
      - files.copy: {src: does-not-exist.txt, dst: "${WORKSPACE}/x.txt"}
    judge:
      - files.exists: {path: "${WORKSPACE}/x.txt"}
    reference: exit()
  - id: rep-invalid
    instruction: A task with a typo in a field name.
    judgee:
      - files.exists: {path: x}
"""


def _deskact(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(DESKACT), *args], check=False, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Two real `deskact run`s of the same suites: reference, then noop."""
    if shutil.which("Xvfb") is None or shutil.which("xterm") is None:
        pytest.skip("needs Xvfb and xterm (scripts/setup.sh installs them)")
    base = tmp_path_factory.mktemp("report")
    for name, text in (("gui_suite", SUITE_GUI), ("api_suite", SUITE_API)):
        (base / name).mkdir()
        (base / name / "tasks.yaml").write_text(textwrap.dedent(text))
    out = {}
    for model in ("reference", "noop"):
        proc = _deskact("run", str(base / "gui_suite"), str(base / "api_suite"), "-m", model,
                        "-o", str(base / f"run-{model}"))
        assert proc.returncode == 1, proc.stdout + proc.stderr  # api_suite holds an invalid task on purpose
        # `deskact run` writes the report itself at the end.
        assert "report/index.html" in proc.stderr.replace("\n", ""), proc.stderr
        out[model] = base / f"run-{model}"
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not Path("/usr/bin/chromium").exists() or not Path("/usr/bin/chromedriver").exists():
        pytest.skip("needs /usr/bin/chromium and /usr/bin/chromedriver (apt: chromium chromium-driver)")
    import tempfile

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="deskact-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--no-first-run", "--window-size=1400,1000", f"--user-data-dir={profile}"):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=opts)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _visible_rows(driver: object) -> list[str]:
    from selenium.webdriver.common.by import By

    rows = driver.find_elements(By.CSS_SELECTOR, "#tasks tbody tr")  # type: ignore[attr-defined]
    return sorted(r.find_element(By.CSS_SELECTOR, "td a").text for r in rows if r.is_displayed())


def _variance(png: bytes) -> float:
    import numpy as np
    from PIL import Image

    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("L"), dtype=float)
    return float(pixels.var())


# --- the runs and the report files ----------------------------------------------


def test_run_statuses_cover_every_kind(runs: dict[str, Path]) -> None:
    data = load_run(runs["reference"])
    status = {t.result.task_id: t.result.status for t in data.tasks}
    assert status["rep-xterm-note"] == "passed"
    assert status["rep-wrong-answer"] == "failed"
    assert status["rep-broken-reset"] == "error"
    assert [s for tid, s in status.items() if tid not in {"rep-xterm-note", "rep-wrong-answer",
                                                          "rep-broken-reset"}] == ["invalid"]
    visual = next(t for t in data.tasks if t.result.task_id == "rep-xterm-note")
    assert visual.steps and visual.steps[0].record.screenshot_file == "step_000.jpg"  # observation.format: jpeg
    assert "hello" in visual.instruction
    assert {g.row.group for g in data.by_suite} == {"gui_suite", "api_suite", "all"}
    assert {g.row.group for g in data.by_tag} == {"demo", "visual", "api", "(untagged)"}  # the invalid task
    assert all(g.cost_usd == 0.0 for g in data.by_suite)  # offline models cost nothing


def test_report_is_self_contained(runs: dict[str, Path]) -> None:
    index = runs["reference"] / "report" / "index.html"
    pages = [index, *index.parent.glob("task-*.html")]
    assert len(pages) == 5
    for page in pages:
        text = page.read_text()
        assert "http://" not in text and "https://" not in text, page
        assert "<script src" not in text and "<link" not in text, page
    task = (index.parent / "task-rep-xterm-note.html").read_text()
    assert 'src="../trajectories/rep-xterm-note/step_000.jpg"' in task
    assert "REPORT-TEST-MARKER" in task and "written: hello" in task  # code and output
    assert "files.content" in task  # the judge's verdict


def test_report_escapes_html(tmp_path: Path) -> None:
    res = TaskResult(task_id="t<script>alert(1)</script>", suite="s", status="failed",
                     feedback="<b>bold</b> & more", model="openai/gpt-4o-mini",
                     tokens=Usage(input_tokens=1_000_000, output_tokens=1_000_000))
    (tmp_path / "results.jsonl").write_text(res.model_dump_json() + "\n")
    index = write_report(tmp_path)
    text = index.read_text()
    assert "<script>alert(1)</script>" not in text
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; more" in text
    assert "$0.75" in text  # 1M in at $0.15 + 1M out at $0.60
    page = next(index.parent.glob("task-*.html")).read_text()
    assert "No steps recorded" in page and "did not reach its judges" in page


def test_missing_run_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DeskactError, match="results.jsonl: no such file"):
        write_report(tmp_path / "nope")
    proc = _deskact("compare", str(tmp_path), str(tmp_path))
    assert proc.returncode == 2 and "results.jsonl" in proc.stderr


def test_torn_step_file_keeps_the_other_steps(runs: dict[str, Path], tmp_path: Path) -> None:
    copy = tmp_path / "run"
    shutil.copytree(runs["reference"], copy)
    traj = copy / "trajectories" / "rep-xterm-note"
    (traj / "step_001.json").write_text('{"index": 1, "reply": "trunc')
    view = next(t for t in load_run(copy).tasks if t.result.task_id == "rep-xterm-note")
    assert [s.record.index for s in view.steps] == [0]


def test_prices() -> None:
    usage = Usage(input_tokens=2_000_000, output_tokens=1_000_000)
    assert cost_of("anthropic/claude-3-5-sonnet-20241022", usage) == pytest.approx(21.0)
    assert cost_of("openai/gpt-4o-mini", usage) == pytest.approx(0.9)  # not gpt-4o's price
    assert cost_of("openai/some-future-model", usage) is None
    assert cost_of("openai/some-future-model", Usage()) == 0.0
    assert cost_of("scripted/x.yaml", usage) == 0.0


# --- in a real browser -------------------------------------------------------------


def test_index_loads_and_filters_work(runs: dict[str, Path], browser: object) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    d = browser
    d.get((runs["reference"] / "report" / "index.html").as_uri())  # type: ignore[attr-defined]
    assert "deskact run" in d.title  # type: ignore[attr-defined]
    everything = _visible_rows(d)
    assert len(everything) == 4
    count = d.find_element(By.ID, "shown-count")  # type: ignore[attr-defined]
    assert count.text == "4 of 4 tasks"
    suite_rows = d.find_elements(By.CSS_SELECTOR, "#by-suite tbody tr")  # type: ignore[attr-defined]
    assert [r.find_element(By.TAG_NAME, "td").text for r in suite_rows] == ["api_suite", "gui_suite", "all"]

    status = Select(d.find_element(By.ID, "filter-status"))  # type: ignore[attr-defined]
    status.select_by_value("passed")
    assert _visible_rows(d) == ["rep-xterm-note"]
    assert count.text == "1 of 4 tasks"
    status.select_by_value("failed")
    assert _visible_rows(d) == ["rep-wrong-answer"]
    status.select_by_value("error")
    assert _visible_rows(d) == ["rep-broken-reset"]
    status.select_by_value("invalid")
    invalid = _visible_rows(d)
    assert len(invalid) == 1 and invalid[0] not in {"rep-xterm-note", "rep-wrong-answer", "rep-broken-reset"}
    status.select_by_value("")
    assert _visible_rows(d) == everything

    Select(d.find_element(By.ID, "filter-suite")).select_by_value("api_suite")  # type: ignore[attr-defined]
    assert len(_visible_rows(d)) == 3 and "rep-xterm-note" not in _visible_rows(d)
    Select(d.find_element(By.ID, "filter-finish")).select_by_value("done")  # type: ignore[attr-defined]
    assert _visible_rows(d) == ["rep-wrong-answer"]
    Select(d.find_element(By.ID, "filter-suite")).select_by_value("")  # type: ignore[attr-defined]
    assert _visible_rows(d) == ["rep-wrong-answer", "rep-xterm-note"]
    Select(d.find_element(By.ID, "filter-finish")).select_by_value("")  # type: ignore[attr-defined]

    # The status chips are links that set the status filter; the search box matches ids and feedback.
    d.find_element(By.CSS_SELECTOR, 'a[data-set-status="error"]').click()  # type: ignore[attr-defined]
    assert _visible_rows(d) == ["rep-broken-reset"]
    d.find_element(By.CSS_SELECTOR, 'a[data-set-status=""]').click()  # type: ignore[attr-defined]
    d.find_element(By.ID, "filter-text").send_keys("xterm")  # type: ignore[attr-defined]
    assert _visible_rows(d) == ["rep-xterm-note"]

    # Nothing was fetched from anywhere but the file system.
    urls = d.execute_script(  # type: ignore[attr-defined]
        "return performance.getEntriesByType('resource').map(e => e.name)")
    assert all(u.startswith("file://") for u in urls), urls


def test_task_page_shows_its_screenshots(runs: dict[str, Path], browser: object) -> None:
    from selenium.webdriver.common.by import By

    d = browser
    d.get((runs["reference"] / "report" / "index.html").as_uri())  # type: ignore[attr-defined]
    d.find_element(By.LINK_TEXT, "rep-xterm-note").click()  # type: ignore[attr-defined]
    assert d.current_url.endswith("task-rep-xterm-note.html")  # type: ignore[attr-defined]
    img = d.find_element(By.CSS_SELECTOR, "#step-0 figure.shot img")  # type: ignore[attr-defined]
    d.execute_script("arguments[0].scrollIntoView()", img)  # type: ignore[attr-defined]
    from PIL import Image

    file = runs["reference"] / "trajectories" / "rep-xterm-note" / "step_000.jpg"
    assert d.execute_script(  # type: ignore[attr-defined]
        "return arguments[0].complete && arguments[0].naturalWidth", img) == Image.open(file).width > 0
    # The screenshot shows the xterm with its text: far from a flat image.
    assert _variance(img.screenshot_as_png) > 100
    assert _variance(d.get_screenshot_as_png()) > 100  # type: ignore[attr-defined]
    verdicts = d.find_elements(By.CSS_SELECTOR, "#verdicts tr.verdict.passed")  # type: ignore[attr-defined]
    assert len(verdicts) == 1 and "files.content" in verdicts[0].text
    code = d.find_element(By.CSS_SELECTOR, "#step-0 pre.code").text  # type: ignore[attr-defined]
    assert 'keyboard.type("cd $WORKSPACE' in code
    assert "written: hello" in d.find_element(By.CSS_SELECTOR, "#step-0 pre.stdout").text  # type: ignore[attr-defined]


# --- compare -------------------------------------------------------------------------


def test_compare_runs(runs: dict[str, Path]) -> None:
    result = compare_runs(runs["reference"], runs["noop"])
    assert [(c.task_id, c.status_a, c.status_b) for c in result.changed] == [
        ("rep-xterm-note", "passed", "failed")]
    assert [c.task_id for c in result.broken] == ["rep-xterm-note"] and not result.fixed
    assert "note.txt" in result.changed[0].detail_b
    suites = {p.group: p for p in result.by_suite}
    assert suites["gui_suite"].a.passed == 1 and suites["gui_suite"].b.passed == 0  # type: ignore[union-attr]

    proc = _deskact("compare", str(runs["reference"]), str(runs["noop"]), "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert [c["task_id"] for c in data["changed"]] == ["rep-xterm-note"]
    proc = _deskact("compare", str(runs["reference"]), str(runs["noop"]))
    assert proc.returncode == 0 and "rep-xterm-note" in proc.stdout and "By suite" in proc.stdout


def test_report_command(runs: dict[str, Path], tmp_path: Path) -> None:
    copy = tmp_path / "run"
    shutil.copytree(runs["noop"], copy)
    shutil.rmtree(copy / "report")
    proc = _deskact("report", str(copy))
    assert proc.returncode == 0, proc.stderr
    assert Path(proc.stdout.strip()) == copy / "report" / "index.html"
    assert (copy / "report" / "task-rep-xterm-note.html").is_file()
