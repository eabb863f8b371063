"""``deskact view`` over ``deskact eval`` folders: the API, the files it serves, and each kind's page in Chromium.

The eval folders are real: the fixtures of every published format (tests/fixtures/evaluation) are
imported by the loaders and scored by the eval runner with the oracle and the centre-click baseline.
"""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from deskact.runtime.config import load_config
from deskact.runtime.evaluation.eval_run import EvalOptions, run_eval
from deskact.runtime.evaluation.loaders import import_dataset
from deskact.runtime.ui.viewer import ViewerServer

sys.path.insert(0, str(Path(__file__).parent))
from page_wait import until

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "evaluation"
SOURCES = {
    "groundui": "groundui/metadata_1k.jsonl",
    "idm": "agentstudio/metadata_idm.jsonl",
    "clips": "agentstudio/metadata_idmn2n.jsonl",
    "critic": "agentstudio/metadata_success_detection.jsonl",
    "aitw": "aitw/episodes.jsonl",
    "screenagent": "screenagent/test",
}
WAIT_S = 60.0
GROUND = "desktop_calc_screen1-1"  # "Click on Underline": gold box [96, 24, 150, 42] of a 320x200 image


@pytest.fixture(scope="module")
def evals(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("evalview")
    for name, rel in SOURCES.items():
        import_dataset(None, FIXTURES / rel, base / "datasets" / name, name=name)
    config = load_config()
    for model in ("reference", "centre"):
        run_eval(EvalOptions(datasets=[str(base / "datasets" / n) for n in SOURCES], model=model,
                             out=base / "runs" / model), config, write=lambda _: None)
    return base / "runs"


@pytest.fixture(scope="module")
def server(evals: Path) -> Iterator[ViewerServer]:
    with ViewerServer([evals]) as srv:
        yield srv


def _get(server: ViewerServer, path: str) -> Any:
    return json.loads(urllib.request.urlopen(server.url + path, timeout=30).read())


def _until(what: str, check: Callable[[], Any], timeout: float = WAIT_S) -> Any:
    return until(what, check, timeout)


# --- the API ---------------------------------------------------------------------------


def test_eval_folders_are_listed_with_their_counts(server: ViewerServer) -> None:
    runs = {r["id"]: r for r in _get(server, "api/runs")}
    assert set(runs) == {"reference", "centre"}
    ref = runs["reference"]
    assert (ref["kind"], ref["tasks"], ref["passed"], ref["failed"], ref["errors"], ref["attempts"]) == (
        "eval", 33, 33, 0, 0, 33)
    assert runs["centre"]["models"] == ["centre"]
    assert runs["centre"]["passed"] + runs["centre"]["failed"] == 33


def test_eval_detail_and_one_sample(server: ViewerServer) -> None:
    ref = _get(server, "api/evals/reference")
    assert sorted(ref["datasets"]) == sorted(SOURCES)
    assert all(d["metrics"]["accuracy"] == 1.0 for d in ref["datasets"].values())  # the oracle
    assert {r["status"] for r in ref["rows"]} == {"right"} and len(ref["rows"]) == 33
    centre = _get(server, "api/evals/centre")
    row = next(r for r in centre["rows"] if r["id"] == GROUND)
    assert (row["status"], row["gold"], row["predicted"]) == ("wrong", "box [96, 24, 150, 42]", "(160, 100)")
    page = _get(server, f"api/evals/centre/samples/groundui/{GROUND}")
    assert page["sample"]["box"] == [96, 24, 150, 42] and page["row"]["prediction"] == [160, 100]
    assert page["status"] == "wrong" and page["kind"] == "ground"


def test_only_files_a_sample_names_are_served(server: ViewerServer, evals: Path) -> None:
    page = _get(server, f"api/evals/centre/samples/groundui/{GROUND}")
    image = page["sample"]["image"]
    body = urllib.request.urlopen(f"{server.url}evalfiles/centre/groundui/{GROUND}/{image}", timeout=30).read()
    assert body == (evals.parent / "datasets" / "groundui" / image).read_bytes()
    for bad in (f"evalfiles/centre/groundui/{GROUND}/samples.jsonl",
                f"evalfiles/centre/groundui/{GROUND}/dataset.yaml",
                f"evalfiles/centre/groundui/{GROUND}/images/web_shop_screen1.png",  # another sample's image
                f"evalfiles/centre/groundui/{GROUND}/%2e%2e/aitw/images/e1_0.png",
                f"evalfiles/centre/nope/{GROUND}/{image}", "api/evals/nope", "api/runs/reference/tasks/x"):
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(server.url + bad, timeout=30)
        assert err.value.code in (400, 404), bad


# --- in the browser --------------------------------------------------------------------


@pytest.mark.slow
def test_eval_page_lists_datasets_and_filters(server: ViewerServer, chromium: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    d = chromium
    d.get(server.url)
    _until("the eval link", lambda: d.find_element(By.CSS_SELECTOR, '#runs a[href="#/eval/centre"]')).click()
    _until("six datasets", lambda: len(d.find_elements(By.CSS_SELECTOR, ".eval-dataset")) == 6)
    _until("33 rows", lambda: d.find_element(By.ID, "e-count").text == "33 of 33 samples")
    Select(d.find_element(By.ID, "e-dataset")).select_by_value("groundui")
    _until("the grounding rows", lambda: d.find_element(By.ID, "e-count").text == "6 of 33 samples")
    assert "dataset=groundui" in d.current_url
    Select(d.find_element(By.ID, "e-status")).select_by_value("right")
    # The centre of a 320x200 calc screen, web page and phone screen is inside none of the six boxes.
    _until("no right grounding", lambda: d.find_element(By.ID, "e-count").text == "0 of 33 samples")
    Select(d.find_element(By.ID, "e-status")).select_by_value("wrong")
    _until("six wrong", lambda: d.find_element(By.ID, "e-count").text == "6 of 33 samples")
    ids = [tr.get_attribute("data-id") for tr in d.find_elements(By.CSS_SELECTOR, "#eval-rows tbody tr")]
    d.find_element(By.CSS_SELECTOR, f'#eval-rows tr[data-id="{ids[0]}"] a').click()
    nav = lambda: " ".join(d.find_element(By.ID, "eval-nav").text.split())  # noqa: E731 - read again each time
    _until("the sample page", lambda: nav() == "← previous 1 of 6 next →")
    # The arrow keys step through the rows the filters showed.
    d.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    _until("the second sample", lambda: d.current_url.endswith("/groundui/" + ids[1]))
    _until("its place", lambda: nav() == "← previous 2 of 6 next →")
    d.find_element(By.ID, "eval-prev").click()
    _until("back to the first", lambda: d.current_url.endswith("/groundui/" + ids[0]))


def _open(d: Any, url: str) -> None:
    """Go to a sample's page and wait for it (the page before may have the same element ids)."""
    d.get(url)
    dataset, sample = (urllib.parse.unquote(p) for p in url.rsplit("/", 2)[1:])
    title = lambda: d.find_element("id", "eval-sample-title").text  # noqa: E731 - read again each time
    _until(f"the page of {dataset}/{sample}", lambda: sample in title() and f"{dataset} · " in title())


def _marks(d: Any, figure: str) -> tuple[Any, list[Any]]:
    from selenium.webdriver.common.by import By

    svg = _until(f"marks on {figure}", lambda: d.find_element(By.CSS_SELECTOR, f"#{figure} svg[viewBox]"))
    return svg, svg.find_elements(By.CSS_SELECTOR, "*")


@pytest.mark.slow
def test_grounding_sample_draws_the_box_and_the_point_over_the_image(server: ViewerServer, chromium: Any) -> None:
    d = chromium
    _open(d, f"{server.url}#/eval/centre/groundui/{GROUND}")
    svg, _ = _marks(d, "eval-image")
    assert d.execute_script("return arguments[0].getAttribute('viewBox')", svg) == "0 0 320 200"
    box = svg.find_element("css selector", "rect.em-box.em-gold")
    assert [box.get_attribute(a) for a in ("x", "y", "width", "height")] == ["96", "24", "54", "18"]
    point = svg.find_element("css selector", "circle.em-point.em-wrong")
    assert (point.get_attribute("cx"), point.get_attribute("cy")) == ("160", "100")
    # The drawing covers the image exactly (not the caption under it), so marks land on their pixels.
    img = d.find_element("css selector", "#eval-image img")
    rect = "var r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.width, r.height];"
    assert [round(v) for v in d.execute_script(rect, svg)] == [round(v) for v in d.execute_script(rect, img)]
    assert d.find_element("id", "eval-gold").text == "box [96, 24, 150, 42]"
    assert d.find_element("id", "eval-predicted").text == "(160, 100)"


@pytest.mark.slow
def test_each_kind_shows_its_gold_and_prediction(server: ViewerServer, chromium: Any) -> None:
    from selenium.webdriver.common.by import By

    d = chromium
    _open(d, f"{server.url}#/eval/reference/idm/a1001-0")
    _marks(d, "eval-before")
    assert d.find_element(By.ID, "eval-after").is_displayed()
    assert d.find_element(By.ID, "eval-gold").text == d.find_element(By.ID, "eval-predicted").text == "click(50.04, 85.12)"
    assert len(d.find_elements(By.CSS_SELECTOR, "#eval-before circle.em-ring, #eval-before circle.em-right")) == 2

    _open(d, f"{server.url}#/eval/centre/clips/1001:4")
    rows = _until("the clip's actions", lambda: d.find_elements(By.CSS_SELECTOR, "#eval-actions tbody tr"))
    assert [r.find_elements(By.TAG_NAME, "td")[2].text for r in rows][:3] == [
        "click(50.04, 85.12)", 'type("milk, eggs")', "scroll(down)"]
    assert len(d.find_elements(By.CSS_SELECTOR, ".strip figure.eval-shot")) == 4  # 3 actions, 4 frames

    _open(d, f"{server.url}#/eval/centre/critic/1001:2")
    _until("the trajectory", lambda: d.find_element(By.ID, "eval-step-1"))
    assert d.find_element(By.ID, "eval-gold").text == "failure"
    assert d.find_element(By.ID, "eval-predicted").text == "success"  # centre says success to every critic question
    assert d.find_element(By.ID, "eval-final").is_displayed()

    _open(d, f"{server.url}#/eval/reference/aitw/8104393217738405451-4")
    svg, _ = _marks(d, "eval-image")
    assert len(svg.find_elements(By.CSS_SELECTOR, "rect.em-element")) == 1  # the search bar's box
    line = svg.find_element(By.CSS_SELECTOR, "line.em-gold")
    assert [line.get_attribute(a) for a in ("x1", "y1", "x2", "y2")] == ["90", "256", "93.6", "96"]
    assert len(d.find_elements(By.CSS_SELECTOR, "#eval-history li")) == 4

    _open(d, f"{server.url}#/eval/reference/screenagent/5f0c2a9e1b7d4c3a9e8f6d5c4b3a2910-2024-01-13_21-40-18-219712-1")
    _until("the sub-task", lambda: "Add the missing parenthesis." in d.find_element(By.ID, "eval-subtask").text)
    assert d.find_element(By.ID, "eval-gold").text == "type(\")\")"
    assert [li.text for li in d.find_elements(By.CSS_SELECTOR, "#eval-history li")] == ["key(end)"]


@pytest.mark.slow
def test_two_eval_folders_compared_sample_by_sample(server: ViewerServer, chromium: Any) -> None:
    from selenium.webdriver.common.by import By

    centre = _get(server, "api/evals/centre")
    wrong = sorted(r["id"] for r in centre["rows"] if r["status"] != "right")
    d = chromium
    d.get(server.url)
    _until("two eval folders", lambda: len(d.find_elements(By.CSS_SELECTOR, '#runs .pick[data-kind="eval"]')) == 2)
    for box in d.find_elements(By.CSS_SELECTOR, "#runs .pick"):
        box.click()
    d.find_element(By.ID, "compare-btn").click()
    summary = _until("the comparison", lambda: d.find_element(By.ID, "evalcompare-summary").text)
    assert "/#/evalcompare/" in d.current_url
    # The oracle is right everywhere: what changed is exactly where the centre click is wrong.
    assert summary.startswith(f"{len(wrong)} of 33 samples changed result")
    d.find_element(By.ID, "evalcompare-only").click()
    _until("only the changed", lambda: sorted(tr.get_attribute("data-id") for tr in d.find_elements(
        By.CSS_SELECTOR, "#evalcompare tbody tr")) == wrong)
    assert "changed=1" in d.current_url
    heads = [th.text for th in d.find_elements(By.CSS_SELECTOR, "#evalcompare-datasets th")]
    oracle = next(i for i, h in enumerate(heads) if "reference" in h)  # the run list puts the newest first
    accuracy = {tr.get_attribute("data-dataset"): tr.find_elements(By.TAG_NAME, "td")[oracle].text
                for tr in d.find_elements(By.CSS_SELECTOR, "#evalcompare-datasets tbody tr")}
    assert set(accuracy) == set(SOURCES) and set(accuracy.values()) == {"100.0%"}


@pytest.mark.slow
def test_a_running_eval_updates_the_page(evals: Path, tmp_path: Path, chromium: Any) -> None:
    from selenium.webdriver.common.by import By

    done = evals / "reference"
    live = tmp_path / "live-eval"
    live.mkdir()
    (live / "eval.json").write_text((done / "eval.json").read_text())
    rows = (done / "results.jsonl").read_text().splitlines()
    (live / "results.jsonl").write_text(rows[0] + "\n")
    with ViewerServer([tmp_path]) as server:
        d = chromium
        d.get(server.url + "#/eval/live-eval")
        _until("one row", lambda: d.find_element(By.ID, "e-count").text == "1 of 1 samples")
        assert "running or stopped" in d.find_element(By.ID, "eval-facts").text  # no summary.json yet
        with (live / "results.jsonl").open("a") as fh:
            fh.write("\n".join(rows[1:5]) + "\n")
        _until("five rows", lambda: d.find_element(By.ID, "e-count").text == "5 of 5 samples")


@pytest.mark.slow
def test_a_clips_actions_are_drawn_on_the_frame_before_them(tmp_path: Path, chromium: Any) -> None:
    """deskact's own clips have real frame times: an action at 1.0 s goes on the frame taken at 0.4 s."""
    import shutil

    from deskact.runtime.evaluation.samples import Action, IdmClip, TimedAction, write_dataset
    from selenium.webdriver.common.by import By

    data = tmp_path / "clips"
    (data / "f").mkdir(parents=True)
    for i in range(3):
        shutil.copy(FIXTURES / "agentstudio" / "images" / "aitw_images" / "general" / f"1001_{i}.png", data / "f" / f"{i}.png")
    clip = IdmClip(id="c1", frames=[f"f/{i}.png" for i in range(3)], frame_times=[0.0, 0.4, 1.3], width=180, height=320,
                   actions=[TimedAction(t=0.2, action=Action(kind="click", x=50, y=85)),
                            TimedAction(t=1.0, action=Action(kind="click", x=90, y=55))])
    write_dataset(data, [clip], kind="idm_clip", name="clips")
    run_eval(EvalOptions(datasets=[str(data)], model="reference", out=tmp_path / "runs" / "clip-eval"), load_config(),
             write=lambda _: None)
    with ViewerServer([tmp_path / "runs"]) as server:
        d = chromium
        _open(d, f"{server.url}#/eval/clip-eval/clips/c1")
        _marks(d, "eval-frame-0")
        count = "return document.querySelectorAll(arguments[0]).length"
        _until("the marks of frame 2", lambda: d.execute_script(count, "#eval-frame-1 svg circle.em-ring") == 1)
        assert d.execute_script(count, "#eval-frame-0 svg circle.em-ring") == 1
        assert d.execute_script(count, "#eval-frame-2 svg circle") == 0
        ring = d.find_element(By.CSS_SELECTOR, "#eval-frame-1 svg circle.em-ring")
        assert (ring.get_attribute("cx"), ring.get_attribute("cy")) == ("90", "55")
        assert d.execute_script(count, "#eval-frame-1 svg circle.em-right") == 1  # the oracle's own answer


def test_an_eval_of_published_files_read_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """deskact eval reads published files in place (eval.json names their folder): the viewer finds them again."""
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the shard's screenshots go here, not in /tmp
    sources = [FIXTURES / "groundui" / "metadata_1k.jsonl", FIXTURES / "screenagent" / "test",
               FIXTURES / "aitw" / "episodes.tfrecord.gz"]
    run_eval(EvalOptions(datasets=[str(p) for p in sources], model="reference", out=tmp_path / "runs" / "in-place"),
             load_config(), write=lambda _: None)
    with ViewerServer([tmp_path / "runs"]) as server:
        detail = _get(server, "api/evals/in-place")
        assert sorted(detail["datasets"]) == ["episodes", "metadata_1k", "test"]
        assert len(detail["rows"]) == 6 + 7 + 9 and {r["status"] for r in detail["rows"]} == {"right"}
        assert all(r["gold"] for r in detail["rows"])  # every row found its sample
        page = _get(server, f"api/evals/in-place/samples/metadata_1k/{GROUND}")
        assert page["sample"]["box"] == [96, 24, 150, 42]
        url = f"{server.url}evalfiles/in-place/metadata_1k/{GROUND}/{page['sample']['image']}"
        assert urllib.request.urlopen(url, timeout=30).read() == (FIXTURES / "groundui" / page["sample"]["image"]).read_bytes()
        step = _get(server, "api/evals/in-place/samples/episodes/8104393217738405451-0")
        assert step["sample"]["action"] == {"kind": "click", "x": 50.0, "y": 85.0}
        png = urllib.request.urlopen(f"{server.url}evalfiles/in-place/episodes/8104393217738405451-0/"
                                     f"{step['sample']['image']}", timeout=30).read()
        assert png.startswith(b"\x89PNG")  # decoded from the shard's raw pixels
        sa = next(r for r in detail["rows"] if r["dataset"] == "test")
        assert _get(server, f"api/evals/in-place/samples/test/{sa['id']}")["sample"]["source"] == "screenagent"
