"""run.json: written as a run begins, completed as it ends; ``--resume`` refuses another model or
config unless ``--force``; totals after a resume count every result (issue 26)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from deskact import __version__
from deskact.runtime.config import Config
from deskact.runtime.errors import DeskactError
from deskact.runtime.run.events import RunEvent
from deskact.runtime.run.manifest import RunManifest, read_manifest, resume_differences
from deskact.runtime.run.runner import Run, RunOptions
from deskact.runtime.ui.progress import ProgressState

SUITE = """
tasks:
  - id: man-one
    instruction: Print one.
    judge: [{answer.contains: {text: one}}]
    reference: |
      print("one")
      exit()
  - id: man-two
    instruction: Print two.
    judge: [{answer.contains: {text: two}}]
    reference: |
      print("two")
      exit()
"""


def config() -> Config:
    cfg = Config()
    cfg.display.mode = "none"
    cfg.toolkits.enabled = []
    return cfg


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    suite = tmp_path / "manifest_suite"
    suite.mkdir()
    (suite / "tasks.yaml").write_text(SUITE)
    return suite


def make_run(folder: Path, out: Path, cfg: Config | None = None, **options: object) -> Run:
    opts = {"model": "reference", **options}
    return Run(cfg or config(), RunOptions(paths=[str(folder)], out=out, command=["deskact", "run", "x"], **opts))


def test_a_run_writes_its_manifest_and_completes_it(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = make_run(folder, out)
    seen: list[RunManifest | None] = []
    run.on_start = lambda n: seen.append(read_manifest(out))  # before the first task: written, running
    run.execute()
    (during,) = seen
    assert during is not None and during.status == "running" and during.ended_at is None
    done = read_manifest(out)
    assert done is not None and done.status == "finished"
    assert done.model == "reference" and done.command == ["deskact", "run", "x"] and done.paths == [str(folder)]
    assert done.deskact_version == __version__ and done.host.cpus > 0 and done.host.python
    assert done.ended_at is not None and done.started_at <= done.ended_at
    assert done.totals == {"passed": 2}
    assert done.config["display"]["mode"] == "none" and done.model_settings == {}
    assert json.loads((out / "run.json").read_text())["schema_version"] == 1


def test_model_settings_are_the_providers() -> None:
    from deskact.runtime.run.manifest import model_settings

    cfg = Config()
    cfg.providers["openai"].temperature = 0.7
    assert model_settings(cfg, "openai/gpt-x")["temperature"] == 0.7
    assert model_settings(cfg, "reference") == {}


def test_resume_with_another_model_is_refused_unless_forced(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    make_run(folder, out, tasks_glob="man-one").execute()
    with pytest.raises(DeskactError, match=r"run differently \(model: reference -> noop\).*--force"):
        make_run(folder, out, model="noop", resume=True).prepare()
    results = make_run(folder, out, model="noop", resume=True, force=True).execute()
    assert sorted((r.task_id, r.model) for r in results) == [("man-one", "reference"), ("man-two", "noop")]
    manifest = read_manifest(out)
    assert manifest is not None and manifest.model == "reference"
    assert [(r.model, r.forced) for r in manifest.resumed] == [("noop", True)]
    assert manifest.totals == {"failed": 1, "passed": 1} and manifest.status == "finished"


def test_resume_with_another_config_is_refused_but_workers_may_differ(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    make_run(folder, out, tasks_glob="man-one").execute()
    changed = config()
    changed.agent.max_steps = 3
    with pytest.raises(DeskactError, match=r"agent\.max_steps: 15 -> 3"):
        make_run(folder, out, changed, resume=True).prepare()
    more_workers = config()
    more_workers.runner.workers = 2
    make_run(folder, out, more_workers, resume=True, workers=2).prepare()  # how a run is carried out: allowed


def test_totals_after_a_resume_count_every_result(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    make_run(folder, out, tasks_glob="man-one").execute()
    state = ProgressState()
    run = make_run(folder, out, resume=True)
    run.on_event = state.apply
    run.execute()
    assert state.totals().startswith("2/2 done (2 passed, 0 failed, 0 errors)")


def test_differences_ignore_how_a_run_is_watched() -> None:
    cfg = Config()
    manifest = RunManifest(model="reference", config=cfg.model_dump(mode="json"), started_at="2026-01-01T00:00:00Z")
    watched = Config()
    watched.display.vnc_web = True
    watched.runner.progress = "lines"
    watched.observation.record = True
    assert resume_differences(manifest, "reference", watched) == []
    state = ProgressState()
    state.apply(RunEvent("start", total=3, done=0))
    assert state.counts() == (0, 0, 0)


def test_the_report_and_the_viewer_show_the_manifest(folder: Path, tmp_path: Path) -> None:
    from deskact.runtime.ui.report import write_report
    from deskact.runtime.ui.viewer.runs import RunRef, run_detail, run_summary

    out = tmp_path / "out"
    make_run(folder, out, tasks_glob="man-one").execute()
    make_run(folder, out, resume=True).execute()
    page = write_report(out).read_text()
    assert "Run: finished · model <b>reference</b> · resumed 1×" in page and "deskact run x" in page
    ref = RunRef(id="out", path=out)
    detail = run_detail(ref)
    assert detail.manifest is not None and detail.manifest.command == ["deskact", "run", "x"]
    assert run_summary(ref).attempts == 2
