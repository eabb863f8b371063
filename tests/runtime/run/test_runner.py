"""The headless runner on small suites: results, errors, invalid tasks, workers, resume after a kill."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from textwrap import dedent

import pytest
from deskact.runtime.config import Config
from deskact.runtime.run.results import read_results
from deskact.runtime.run.runner import Run, RunOptions
from deskact.runtime.tasks.steps import REGISTRY, StepContext, Verdict, judge


@pytest.fixture(autouse=True)
def crashing_judge():
    """A judge with a bug, registered only while these tests run (the shipped docs and schema
    list the built-in steps): its exception must become an error verdict, never a dropped task."""

    @judge("testing.crash")
    def crash(ctx: StepContext) -> Verdict:
        return Verdict.ok(str(1 / 0))

    yield
    REGISTRY["judge"].pop("testing.crash", None)


SUITE = """
tasks:
  - id: r-write
    instruction: Write hello to ${WORKSPACE}/out.txt
    judge:
      - files.content: {path: "${WORKSPACE}/out.txt", equals: "hello"}
    cleanup:
      - shell.run: {cmd: "echo cleaned >> ${CLEANUP_LOG}", in: host}  # a host file: the test reads it
    reference: |
      open("out.txt", "w").write("hello")
      exit()
  - id: r-answer
    instruction: Print 6 times 7.
    judge:
      - answer.regex: {pattern: "\\\\b42\\\\b"}
    reference: |
      print(6 * 7)
      exit()
  - id: r-reset-fails
    instruction: never runs
    reset:
      - shell.run: {cmd: "exit 3"}
    judge:
      - files.absent: {path: x}
    reference: exit()
  - id: r-judge-crashes
    instruction: the judge itself has a bug
    judge:
      - files.absent: {path: "${WORKSPACE}/nothing"}
      - testing.crash: {}
    reference: exit()
  - id: r-broken
    instruction: no judge at all
"""


def suite(tmp_path: Path, text: str = SUITE) -> Path:
    folder = tmp_path / "suite_r"
    folder.mkdir()
    log = tmp_path / "cleanup.log"
    (folder / "tasks.yaml").write_text(dedent(text).replace("${CLEANUP_LOG}", str(log)))
    return folder


def run(tmp_path: Path, folder: Path, model: str = "reference", workers: int = 1, **kw) -> list:
    opts = RunOptions(paths=[str(folder)], model=model, out=tmp_path / "out", workers=workers, **kw)
    return Run(Config(), opts).execute()


def test_every_task_gets_a_result_and_nothing_is_dropped(tmp_path: Path):
    results = {r.task_id: r for r in run(tmp_path, suite(tmp_path))}
    assert set(results) == {"r-write", "r-answer", "r-reset-fails", "r-judge-crashes", "r-broken"}
    assert results["r-write"].status == "passed" and results["r-write"].reward == 1
    assert results["r-answer"].status == "passed"
    reset = results["r-reset-fails"]
    assert reset.status == "error" and reset.reward == 0 and "reset step `shell.run` failed" in reset.error
    crash = results["r-judge-crashes"]
    assert crash.status == "error" and crash.reward == 0
    assert crash.verdicts[0].passed and crash.verdicts[1].error
    assert "judge `testing.crash` failed: ZeroDivisionError" in crash.error
    broken = results["r-broken"]
    assert broken.status == "invalid" and "judge" in broken.error
    # results.jsonl holds the same, one line per task
    on_disk = read_results(tmp_path / "out" / "results.jsonl")
    assert sorted(r.task_id for r in on_disk) == sorted(results)
    # cleanup ran, and the trajectory was written
    assert "cleaned" in (tmp_path / "cleanup.log").read_text()
    steps = json.loads((tmp_path / "out" / "trajectories" / "r-write" / "step_000.json").read_text())
    assert "open(" in steps["code"] and steps["result"]["status"] == "ok"


def test_noop_fails_the_tasks_with_feedback(tmp_path: Path):
    results = {r.task_id: r for r in run(tmp_path, suite(tmp_path), model="noop")}
    write = results["r-write"]
    assert write.status == "failed" and write.reward == 0 and "out.txt" in write.feedback


def test_two_workers_finish_everything(tmp_path: Path):
    many = "tasks:\n" + "".join(
        f"""
  - id: w-{i}
    instruction: write {i}
    judge: [{{files.content: {{path: "${{WORKSPACE}}/f.txt", equals: "{i}"}}}}]
    reference: |
      open("f.txt", "w").write("{i}")
      exit()
""" for i in range(6))
    results = run(tmp_path, suite(tmp_path, many), workers=2)
    assert sorted(r.task_id for r in results) == [f"w-{i}" for i in range(6)]
    assert all(r.reward == 1 for r in results)


def test_existing_results_need_resume(tmp_path: Path):
    folder = suite(tmp_path)
    run(tmp_path, folder, tasks_glob="r-answer")
    import pytest
    from deskact.runtime.errors import DeskactError

    with pytest.raises(DeskactError, match="--resume"):
        run(tmp_path, folder, tasks_glob="r-answer")


SLOW = "tasks:\n" + "".join(
    f"""
  - id: s-{i}
    instruction: slow {i}
    judge: [{{files.exists: {{path: "${{WORKSPACE}}/done"}}}}]
    cleanup: [{{shell.run: {{cmd: "echo {i} >> ${{CLEANUP_LOG}}", in: host}}}}]
    reference: |
      import time; time.sleep(0.8)
      open("done", "w").close()
      exit()
""" for i in range(5))


@pytest.mark.slow  # a suite interrupted and resumed through the CLI: about 10 s
def test_resume_after_sigint_in_the_middle_completes_the_suite(tmp_path: Path):
    folder = suite(tmp_path, SLOW)
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "deskact.runtime.ui.cli", "run", str(folder), "--model", "reference", "--out", str(out)]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    results = out / "results.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not results.exists() or len(results.read_text().splitlines()) < 2):
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    output = proc.communicate(timeout=60)[0].decode()
    assert proc.returncode == 130, output
    first = read_results(results)
    assert 2 <= len(first) < 5
    # every started task was cleaned up, including the interrupted one
    cleaned = (tmp_path / "cleanup.log").read_text().split()
    assert len(cleaned) >= len(first)
    subprocess.run(cmd + ["--resume"], env=env, check=True, capture_output=True, timeout=120)
    final = read_results(results)
    assert sorted(r.task_id for r in final) == [f"s-{i}" for i in range(5)]
    assert all(r.reward == 1 for r in final)


def test_keep_worlds_leaves_each_tasks_world_linked_from_its_trajectory(tmp_path: Path):
    from deskact.runtime.world import mounts
    from deskact.runtime.world.world import world_status

    if not world_status()[0]:
        pytest.skip(f"no worlds here: {world_status()[1]}")
    folder = tmp_path / "suite_k"
    folder.mkdir()
    (folder / "tasks.yaml").write_text(dedent(SUITE).split("  - id: r-answer")[0].replace("${CLEANUP_LOG}", "/dev/null"))
    config = Config()
    config.world.keep = True  # --keep-worlds
    opts = RunOptions(paths=[str(folder)], model="reference", out=tmp_path / "out", workers=1)
    (result,) = Run(config, opts).execute()
    link = tmp_path / "out" / "trajectories" / "r-write" / "world"
    kept = link.resolve()
    try:
        assert result.status == "passed" and link.is_symlink()
        assert (kept / "task").read_text() == "r-write\n"
        assert (kept / "disk" / "upper" / "root").is_dir()
        assert (kept / "disk" / "workspace" / "out.txt").read_text() == "hello"
    finally:
        mounts.unmount(str(kept / "disk"))
        shutil.rmtree(kept, ignore_errors=True)
