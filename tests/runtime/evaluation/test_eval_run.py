"""``deskact eval`` end to end on small datasets of every kind: the oracle scores 100 %, noop 0 %,
the baselines what they must, resume, the results format, and a real adapter on a fake server."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import av
import numpy as np
import pytest
from deskact.runtime.config import Config
from deskact.runtime.errors import DeskactError
from deskact.runtime.evaluation.eval_run import EvalOptions, run_eval
from deskact.runtime.evaluation.samples import (
    Action,
    ActionStep,
    CriticSample,
    GroundSample,
    IdmClip,
    IdmSample,
    TimedAction,
    TrajectoryStep,
    write_dataset,
)
from PIL import Image

sys.path.insert(0, str(Path(__file__).parents[1] / "agent" / "models"))
from fake_servers import FakeOpenAIServer  # the model tests' fake servers, on the path above
from provider_support import MODEL_IDS, SERVERS, TEST_KEYS


def _png(root: Path, name: str, size: tuple[int, int] = (200, 100), colour: str = "white") -> str:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, colour).save(path)
    return name


def _video(root: Path, name: str) -> str:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=4)
        stream.width, stream.height, stream.pix_fmt = 200, 100, "yuv420p"
        for i in range(8):  # 2 s at 4 fps, each frame a different grey
            frame = av.VideoFrame.from_ndarray(np.full((100, 200, 3), i * 30, np.uint8), format="rgb24")
            for packet in stream.encode(frame):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    return name


def make_sets(root: Path) -> list[Path]:
    """One small dataset of each kind; returns their folders."""
    g = root / "ground"
    centre_boxes = [[90, 40, 110, 60], [0, 0, 50, 50], [150, 80, 199, 99], [80, 30, 120, 70]]  # 1st, 4th hold (100, 50)
    ground = [GroundSample(id=f"g{i}", image=_png(g, f"img/g{i}.png"), width=200, height=100, instruction=f"click thing {i}",
                           box=box, app="calc" if i < 2 else "writer") for i, box in enumerate(centre_boxes)]
    # A 2560x1600 screen is sent at half size (1280x800): the oracle's point must map back exactly.
    ground.append(GroundSample(id="big", image=_png(g, "img/big.png", (2560, 1600)), width=2560, height=1600,
                               instruction="click the tiny dot", box=[2001, 1501, 2003, 1503], app="writer"))
    write_dataset(g, ground, kind="ground", name="ground-set")

    i = root / "idm"
    gold = [Action(kind="click", x=30, y=40), Action(kind="type", text="hello"), Action(kind="key", keys=["enter"]),
            Action(kind="scroll", direction="down"), Action(kind="click", x=150, y=20)]
    idm = [IdmSample(id=f"i{n}", before=_png(i, f"f/{n}a.png"), after=_png(i, f"f/{n}b.png", colour="grey"),
                     width=200, height=100, action=a) for n, a in enumerate(gold)]
    write_dataset(i, idm, kind="idm", name="idm-set")

    c = root / "clips"
    frames = [_png(c, f"f/{n}.png") for n in range(3)]
    clips = [IdmClip(id="k1", frames=frames, frame_times=[0, 0.5, 1], width=200, height=100,
                     actions=[TimedAction(t=0.2, action=gold[0]), TimedAction(t=0.7, action=gold[1])]),
             IdmClip(id="k2", video=_video(c, "v/clip.mp4"), start=0.5, end=1.75, width=200, height=100,
                     actions=[TimedAction(t=0.1, action=gold[2])])]
    write_dataset(c, clips, kind="idm_clip", name="clip-set")

    k = root / "critic"
    shot = _png(k, "s/1.png")
    critic = [CriticSample(id=f"c{n}", instruction="save the file", success=n % 2 == 0,
                           steps=[TrajectoryStep(screenshot=shot, code="gui.hotkey('ctrl', 's')", output="ok"),
                                  TrajectoryStep(screenshot=shot, action=Action(kind="click", x=5, y=5))],
                           final_screenshot=shot) for n in range(3)]
    write_dataset(k, critic, kind="critic", name="critic-set")

    a = root / "steps"
    steps = []
    for ep in ("e1", "e2"):
        history: list[Action] = []
        for n, act in enumerate([gold[0], gold[1], gold[3]]):
            steps.append(ActionStep(id=f"{ep}-{n}", image=_png(a, f"s/{ep}{n}.png"), width=200, height=100,
                                    instruction="search for cats", history=list(history), action=act,
                                    elements=[[20, 30, 40, 50]], episode=ep, step=n, platform="mobile"))
            history.append(act)
    write_dataset(a, steps, kind="action_step", name="step-set")
    return [g, i, c, k, a]


@pytest.fixture(scope="module")
def sets(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return make_sets(tmp_path_factory.mktemp("sets"))


def _run(sets: list[Path], model: str, out: Path, **kw: object) -> dict:
    kw.setdefault("report", False)  # the report's thumbnails only where it is tested
    opts = EvalOptions(datasets=[str(s) for s in sets], model=model, out=out, **kw)  # type: ignore[arg-type]
    return run_eval(opts, Config(), write=lambda line: None)


def test_oracle_scores_everything(sets: list[Path], tmp_path: Path) -> None:
    summary = _run(sets, "reference", tmp_path, workers=2)
    for name, s in summary["datasets"].items():
        assert s["accuracy"] == 1.0, (name, s)
        assert s["errors"] == 0 and s["unparsed"] == 0
    assert summary["datasets"]["critic-set"]["f1"] == 1.0
    steps = summary["datasets"]["step-set"]
    assert steps["complete_match"] == 1.0 and steps["cc_score"]["score"] == 1.0
    assert summary["datasets"]["idm-set"]["exact"] == 1.0
    rows = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 5 + 5 + 2 + 3 + 6
    big = next(r for r in rows if r["id"] == "big")
    assert big["scale"] == 0.5 and big["reply"] == "(1001, 751)" and big["prediction"] == [2002.0, 1502.0]
    info = json.loads((tmp_path / "eval.json").read_text())
    assert info["datasets"]["ground-set"]["path"] == str(sets[0].resolve())
    assert json.loads((tmp_path / "summary.json").read_text())["datasets"]["step-set"]["episodes"] == 2


def test_noop_centre_majority(sets: list[Path], tmp_path: Path) -> None:
    noop = _run(sets, "noop", tmp_path / "noop")
    for s in noop["datasets"].values():
        assert s["accuracy"] == 0.0 and s["unparsed"] == s["samples"]
    centre = _run(sets, "centre", tmp_path / "centre")["datasets"]
    # (100, 50) is in boxes g0 and g3 of 5; by app: calc g0 yes g1 no, writer g3 yes g2 and big no.
    assert centre["ground-set"]["accuracy"] == pytest.approx(2 / 5)
    assert centre["ground-set"]["by_app"] == {"calc": {"samples": 2, "accuracy": 0.5},
                                              "writer": {"samples": 3, "accuracy": pytest.approx(1 / 3)}}
    assert centre["idm-set"]["accuracy"] == pytest.approx(2 / 5)  # two of five gold actions are clicks
    assert centre["critic-set"]["accuracy"] == pytest.approx(2 / 3)  # "success": c0 and c2 succeeded
    majority = _run(sets, "majority", tmp_path / "majority")["datasets"]
    assert majority["critic-set"]["accuracy"] == pytest.approx(2 / 3)
    assert majority["idm-set"]["accuracy"] == pytest.approx(2 / 5)  # click is the most common kind
    assert majority["clip-set"]["accuracy"] == 0.0


def test_resume_and_refusals(sets: list[Path], tmp_path: Path) -> None:
    _run(sets[:1], "reference", tmp_path, limit=2)
    assert len((tmp_path / "results.jsonl").read_text().splitlines()) == 2
    with pytest.raises(DeskactError, match="already holds results"):
        _run(sets[:1], "reference", tmp_path)
    with pytest.raises(DeskactError, match="holds results of model 'reference'"):
        _run(sets[:1], "noop", tmp_path, resume=True)
    summary = _run(sets[:1], "reference", tmp_path, resume=True)
    assert summary["datasets"]["ground-set"]["samples"] == 5
    assert len((tmp_path / "results.jsonl").read_text().splitlines()) == 5  # 2 kept + 3 new


def test_a_real_adapter_gets_the_image_and_is_scored(sets: list[Path], tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "key-openai")
    replies = ["The button is here: (100, 50)", "I think (5, 5)", "no idea", "(100, 50)", "(1000, 750)"]
    with FakeOpenAIServer(replies=replies) as server:
        config = Config()
        config.providers.openai.base_url = server.url
        config.providers.openai.max_retries = 0
        summary = run_eval(EvalOptions(datasets=[str(sets[0])], model="openai/gpt-test", out=tmp_path, report=False),
                           config, write=lambda line: None)
    assert len(server.requests) == 5
    first = server.requests[0].json["messages"]
    assert first[0]["role"] == "system" and "pixels of the image" in first[0]["content"]
    content = first[1]["content"]
    assert any(p["type"] == "image_url" and p["image_url"]["url"].startswith("data:image/jpeg;base64,") for p in content)
    assert any(p["type"] == "text" and "click thing 0" in p["text"] for p in content)
    s = summary["datasets"]["ground-set"]
    # g0 (100, 50) in; g1 (5, 5) in [0,0,50,50]; g2 unread; g3 in; big: (1000, 750) at half size is (2000, 1500), out.
    assert s["accuracy"] == pytest.approx(3 / 5) and s["unparsed"] == 1
    rows = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert rows[0]["model"] == "openai/gpt-test" and rows[0]["usage"]["calls"] >= 1


@pytest.mark.slow
@pytest.mark.parametrize("provider", ["anthropic", "google"])
def test_other_adapters_send_the_screenshot(provider: str, sets: list[Path], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in TEST_KEYS.items():
        monkeypatch.setenv(key, value)
    with SERVERS[provider](replies=["(100, 50)"]) as server:
        config = Config()
        section = getattr(config.providers, provider)
        section.base_url, section.max_retries = server.url, 0
        summary = run_eval(EvalOptions(datasets=[str(sets[0])], model=f"{provider}/{MODEL_IDS[provider]}", out=tmp_path,
                                       limit=1, report=False), config, write=lambda line: None)
    body = server.requests[0].body.decode()
    assert "image/jpeg" in body and "click thing 0" in body
    assert summary["datasets"]["ground-set"]["accuracy"] == 1.0


def test_report_draws_every_kind(sets: list[Path], tmp_path: Path) -> None:
    _run(sets, "centre", tmp_path, report=True)
    page = (tmp_path / "report" / "index.html").read_text()
    for name in ("ground-set", "idm-set", "clip-set", "critic-set", "step-set"):
        assert name in page
    assert "click(100, 50)" in page and "gold <b>failure</b>" in page
    thumbs = list((tmp_path / "report" / "img").glob("*.jpg"))
    assert len(thumbs) == 5 + 2 * 5 + 2 + 3 + 6  # IDM samples show two frames, the video clip none
    assert all(Image.open(t).width <= 480 for t in thumbs)


def test_an_unreadable_image_is_that_samples_error(sets: list[Path], tmp_path: Path) -> None:
    import shutil

    broken = tmp_path / "critic"
    shutil.copytree(sets[3], broken)
    (broken / "s" / "1.png").write_bytes(b"not a png")
    summary = _run([broken], "reference", tmp_path / "out")["datasets"]["critic-set"]
    assert summary["errors"] == 3 and summary["accuracy"] == 0.0
    # Scored as no answer: the two successes are false negatives, the failure a true negative.
    assert (summary["tp"], summary["fn"], summary["tn"]) == (0, 2, 1)
    row = json.loads((tmp_path / "out" / "results.jsonl").read_text().splitlines()[0])
    assert row["error"].startswith("UnidentifiedImageError") and row["reward"] == 0
