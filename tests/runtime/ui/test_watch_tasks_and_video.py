"""The watch links name each worker's task, and the viewer plays a task's episode video beside its
steps (issue 26)."""

from __future__ import annotations

import io
from pathlib import Path
from types import SimpleNamespace

from deskact.runtime.run.events import RunEvent
from deskact.runtime.run.results import ResultsWriter, TaskResult
from deskact.runtime.ui.consoles import OutputConsole
from deskact.runtime.ui.viewer.runs import RunRef, task_page
from deskact.runtime.ui.watch import announcer, read_watch, task_tracker


def test_watch_json_names_the_task_each_worker_runs(tmp_path: Path) -> None:
    console = OutputConsole(file=io.StringIO())
    announce = announcer(console, tmp_path)
    for worker in (0, 1):
        announce(worker, SimpleNamespace(name=f":{worker + 5}", vnc_port=5900 + worker, vnc_url="vnc://x",
                                         web_url=f"http://127.0.0.1:{6080 + worker}/vnc.html", web_port=6080 + worker))
    track = task_tracker(tmp_path)
    track(RunEvent("task", worker="w0", task_id="os-make-dir"))
    track(RunEvent("task", worker="w1", task_id="os-count", epoch=2))
    assert [(e.worker, e.task) for e in read_watch(tmp_path)] == [(0, "os-make-dir"), (1, "os-count@2")]
    track(RunEvent("result", worker="w0", task_id="os-make-dir", result=TaskResult(task_id="os-make-dir", suite="s",
                                                                                    status="passed")))
    track(RunEvent("step", worker="w1", task_id="os-count", step=3))  # steps do not rewrite the file
    assert [(e.worker, e.task) for e in read_watch(tmp_path)] == [(0, None), (1, "os-count@2")]


def test_a_run_without_watch_writes_no_watch_file(tmp_path: Path) -> None:
    task_tracker(tmp_path)(RunEvent("task", worker="w0", task_id="t"))
    assert not (tmp_path / "watch.json").exists()


def test_the_task_page_names_its_episode_video(tmp_path: Path) -> None:
    folder = tmp_path / "trajectories" / "vid-task"
    folder.mkdir(parents=True)
    writer = ResultsWriter(tmp_path / "results.jsonl")
    writer.write(TaskResult(task_id="vid-task", suite="s", status="passed", reward=1, trajectory="trajectories/vid-task"))
    writer.close()
    ref = RunRef(id="run", path=tmp_path)
    assert task_page(ref, "vid-task").video is None
    (folder / "episode.mp4").write_bytes(b"\x00\x00\x00\x18ftypmp42")
    page = task_page(ref, "vid-task")
    assert page.video == "episode.mp4" and page.trajectory == "trajectories/vid-task"
