"""Annotation in ``deskact view``, driven in headless Chromium over a real recorded run: a box drawn on a
screenshot becomes a grounding sample, actions marked on the episode video IDM samples and a clip, and
both load as step-level datasets."""

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
from deskact.runtime.evaluation.samples import GroundSample, IdmClip, IdmSample, load_dataset
from deskact.runtime.ui.viewer import ViewerServer

sys.path.insert(0, str(Path(__file__).parent))
from page_wait import until

pytestmark = [pytest.mark.display, pytest.mark.bwrap, pytest.mark.slow]

DESKACT = Path(sys.executable).parent / "deskact"
WAIT_S = 90.0  # the machine is shared: generous waits, never timing assertions

SUITE = """
tasks:
  - id: ann-type
    instruction: Write hello into ${WORKSPACE}/note.txt from the terminal
    visual: true
    toolkits: [gui]
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
      time.sleep(1)
      keyboard.type("cd $WORKSPACE && echo hello > note.txt\\n")
      deadline = time.monotonic() + 15
      while not os.path.exists("note.txt") and time.monotonic() < deadline:
          time.sleep(0.05)
      time.sleep(1)
      exit()
"""


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real run of a visual task with its episode video (``run --record``)."""
    if shutil.which("Xvfb") is None or shutil.which("xterm") is None:
        pytest.skip("needs Xvfb and xterm (scripts/setup.sh installs them)")
    base = tmp_path_factory.mktemp("annotate")
    (base / "suite").mkdir()
    (base / "suite" / "tasks.yaml").write_text(textwrap.dedent(SUITE))
    out = base / "runs" / "rec"
    proc = subprocess.run([str(DESKACT), "run", str(base / "suite"), "-m", "reference", "--record", "-o", str(out)],
                          capture_output=True, text=True, timeout=600, check=False)
    assert (out / "results.jsonl").is_file(), proc.stdout + proc.stderr
    assert list(out.glob("trajectories/*/episode.mp4")), proc.stdout + proc.stderr
    return base


@pytest.fixture(scope="module")
def server(recorded: Path) -> Iterator[ViewerServer]:
    with ViewerServer([recorded / "runs"], tools={"datasets": recorded / "datasets"}) as srv:
        yield srv


def _until(what: str, check: Callable[[], Any], timeout: float = WAIT_S) -> Any:
    return until(what, check, timeout)


def test_a_box_on_a_screenshot_becomes_a_grounding_sample(server: ViewerServer, recorded: Path, chromium: Any) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    d = chromium
    d.get(server.url + "#/run/rec/task/ann-type")
    link = _until("the annotate link", lambda: d.find_element(By.CSS_SELECTOR, "#step-0 figure.shot a.annotate"))
    link.click()
    img = _until("the screenshot", lambda: d.find_element(By.ID, "shot"))
    _until("its pixels", lambda: d.execute_script("return arguments[0].naturalWidth", img))
    nw, nh = d.execute_script("return [arguments[0].naturalWidth, arguments[0].naturalHeight]", img)
    rect = d.execute_script("var r = arguments[0].getBoundingClientRect(); return [r.width, r.height]", img)
    # Drag from a quarter into the image to its middle (offsets are from the element's centre).
    ActionChains(d).move_to_element_with_offset(img, -rect[0] / 4, -rect[1] / 4).click_and_hold() \
        .move_to_element_with_offset(img, 0, 0).release().perform()
    box_text = _until("the box", lambda: d.find_element(By.ID, "box").get_attribute("value"))
    d.find_element(By.ID, "instruction").send_keys("click the terminal's text area")
    d.find_element(By.ID, "app-name").send_keys("xterm")
    d.find_element(By.ID, "save").click()
    saved = _until("saved", lambda: d.find_element(By.CSS_SELECTOR, "#saved.ok").text)
    assert "viewer-ground (1 samples)" in saved

    ds = load_dataset(recorded / "datasets" / "viewer-ground")
    assert ds.info.kind == "ground" and len(ds) == 1
    sample = ds.samples[0]
    assert isinstance(sample, GroundSample)
    assert (sample.width, sample.height, sample.app) == (nw, nh, "xterm")
    assert sample.instruction == "click the terminal's text area"
    # The box is in the image's own pixels, whatever size the page showed it at: a quarter in to the middle.
    want = [nw / 4, nh / 4, nw / 2, nh / 2]
    assert all(abs(got - w) <= max(3, nw / 100) for got, w in zip(sample.box, want, strict=True)), (sample.box, want)
    assert [round(v) for v in sample.box] == [round(float(v)) for v in box_text.split(",")]
    assert sample.screen is not None and sample.screen.scale == pytest.approx(nw / sample.screen.screen_width)
    assert (ds.root / sample.image).read_bytes()[:4] in (b"\x89PNG", b"\xff\xd8\xff\xe0", b"\xff\xd8\xff\xdb")

    # The same box again is refused (one sample per annotation), with the reason on the page.
    d.find_element(By.ID, "save").click()
    assert "already has sample" in _until("refused", lambda: d.find_element(By.CSS_SELECTOR, "#saved.bad").text)


def test_actions_marked_on_the_video_become_idm_samples(server: ViewerServer, recorded: Path, chromium: Any) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    d = chromium
    d.get(server.url + "#/run/rec/task/ann-type")
    _until("the label link", lambda: d.find_element(By.CSS_SELECTOR, "#episode-video a.annotate")).click()
    video = _until("the video", lambda: d.find_element(By.ID, "video"))
    duration = _until("its duration", lambda: d.execute_script("return arguments[0].duration", video))
    vw, vh = d.execute_script("return [arguments[0].videoWidth, arguments[0].videoHeight]", video)
    timeline = d.find_element(By.ID, "timeline")
    tw = timeline.size["width"]
    rect = d.execute_script("var r = arguments[0].getBoundingClientRect(); return [r.width, r.height]", video)

    def mark_at(fraction: float) -> float:
        ActionChains(d).move_to_element_with_offset(timeline, tw * (fraction - 0.5), 0).click().perform()
        return _until("the seek", lambda: d.execute_script(
            "var v = arguments[0]; return !v.seeking && Math.abs(v.currentTime - arguments[1]) < 0.05 && v.currentTime + 1",
            video, duration * fraction)) - 1

    t1 = mark_at(0.3)
    # A click at the point a fifth in from the top left of the frame.
    ActionChains(d).move_to_element_with_offset(video, -rect[0] * 0.3, -rect[1] * 0.3).click().perform()
    _until("the position", lambda: d.find_element(By.ID, "pos").get_attribute("value"))
    Select(d.find_element(By.ID, "kind")).select_by_visible_text("click")
    d.find_element(By.ID, "add").click()
    t2 = mark_at(0.6)
    Select(d.find_element(By.ID, "kind")).select_by_visible_text("type")
    d.find_element(By.ID, "text").send_keys("echo hello")
    d.find_element(By.ID, "add").click()
    assert len(d.find_elements(By.CSS_SELECTOR, "#marks tr.mark-row")) == 2
    assert len(d.find_elements(By.CSS_SELECTOR, "#timeline .tick")) == 2
    d.find_element(By.ID, "app-name").send_keys("xterm")
    d.find_element(By.ID, "save").click()
    saved = _until("saved", lambda: d.find_element(By.CSS_SELECTOR, "#saved.ok").text, timeout=180)
    assert "saved 2 to viewer-idm" in saved and "saved 1 to viewer-idm-clip" in saved

    idm = load_dataset(recorded / "datasets" / "viewer-idm")
    assert idm.info.kind == "idm" and len(idm) == 2
    first, second = idm.samples
    assert isinstance(first, IdmSample) and isinstance(second, IdmSample)
    assert (first.width, first.height) == (vw, vh)
    assert first.action.kind == "click" and second.action.kind == "type" and second.action.text == "echo hello"
    assert first.action.x is not None and abs(first.action.x - vw * 0.2) <= max(3, vw / 100)
    assert first.action.y is not None and abs(first.action.y - vh * 0.2) <= max(3, vh / 100)
    from PIL import Image

    with Image.open(idm.root / first.before) as before:
        assert before.size == (vw, vh)
    clips = load_dataset(recorded / "datasets" / "viewer-idm-clip")
    clip = clips.samples[0]
    assert isinstance(clip, IdmClip) and clip.video and [a.action.kind for a in clip.actions] == ["click", "type"]
    # Action times are from the clip's start; the clip starts at most a second before the first action.
    assert clip.actions[0].t + clip.start == pytest.approx(t1, abs=0.01)
    assert clip.actions[1].t + clip.start == pytest.approx(t2, abs=0.01)


def test_posts_only_from_the_viewers_own_page(server: ViewerServer, recorded: Path) -> None:
    body = json.dumps({"run": "rec", "file": "results.jsonl", "box": [0, 0, 9, 9], "instruction": "x"}).encode()
    own = server.url.rstrip("/")
    for headers in ({"Content-Type": "application/json", "Origin": "http://evil.example"},
                    {"Content-Type": "text/plain", "Origin": own},
                    {"Content-Type": "application/json"}):
        req = urllib.request.Request(server.url + "api/annotate/ground", data=body, headers=headers)
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(req, timeout=30)
        assert err.value.code == 403, headers
    # From the page, a file outside the run folder is not found, and a non-image is refused.
    for rel, code in (("../../etc/passwd", 404), ("results.jsonl", 400)):
        req = urllib.request.Request(
            server.url + "api/annotate/ground", headers={"Content-Type": "application/json", "Origin": own},
            data=json.dumps({"run": "rec", "file": rel, "box": [0, 0, 9, 9], "instruction": "x"}).encode())
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(req, timeout=30)
        assert err.value.code == code, rel


def test_the_annotations_score_in_deskact_eval(server: ViewerServer, recorded: Path) -> None:
    """The datasets the two tests above saved are read by ``deskact eval``; the oracle scores every sample."""
    sets = [recorded / "datasets" / name for name in ("viewer-ground", "viewer-idm", "viewer-idm-clip")]
    if not all((s / "dataset.yaml").is_file() for s in sets):
        pytest.skip("needs the datasets the annotation tests above save (run the whole module)")
    out = recorded / "eval-reference"
    proc = subprocess.run([str(DESKACT), "eval", *map(str, sets), "--model", "reference", "-o", str(out)],
                          capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines() if line.strip()]
    assert sorted(r["dataset"] for r in rows) == ["viewer-ground", "viewer-idm", "viewer-idm", "viewer-idm-clip"]
    assert [r["reward"] for r in rows] == [1, 1, 1, 1], rows
