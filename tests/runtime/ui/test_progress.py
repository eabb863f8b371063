"""Run progress: a live view on a terminal, one line per finished task plus totals in a log;
Ctrl-C writes the report and prints the command that resumes."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from deskact.runtime.run.events import RunEvent
from deskact.runtime.run.results import TaskResult, read_results
from deskact.runtime.ui.cli import app
from deskact.runtime.ui.progress import (
    ProgressState,
    _LiveRender,
    progress_view,
    result_line,
    resume_command,
)
from rich.console import Console
from typer.testing import CliRunner

ENV = {"DESKACT_TOOLKITS_ENABLED": "[]", "DESKACT_DISPLAY_MODE": "none", "DESKACT_CONFIG": "",
       "COLUMNS": "200", "NO_COLOR": "1"}

SUITE = """
tasks:
  - id: prog-quick
    instruction: Print hi.
    judge: [{answer.contains: {text: hi}}]
    reference: print("hi")
  - id: prog-wrong
    instruction: Print bye.
    judge: [{answer.contains: {text: bye}}]
    reference: print("nope")
"""


def result(task_id: str, status: str, reward: int = 0, steps: int = 2, epoch: int = 1) -> TaskResult:
    return TaskResult(task_id=task_id, suite="s", status=status, reward=reward, steps=steps, duration_s=1.25,
                      epoch=epoch, error="boom\nmore" if status == "error" else None)


def test_state_counts_against_the_whole_run_on_resume() -> None:
    state = ProgressState()
    state.apply(RunEvent("start", total=10, done=4))  # an earlier run finished 4 of 10
    assert (state.done, state.total, state.eta()) == (4, 10, None)
    state.apply(RunEvent("task", worker="w0", task_id="a"))
    state.apply(RunEvent("task", worker="w1", task_id="b"))
    state.apply(RunEvent("step", worker="w1", task_id="b", step=2))
    assert state.running["w1"].step == 2 and state.running["w0"].step is None
    state.apply(RunEvent("result", worker="w0", task_id="a", result=result("a", "passed", 1)))
    assert (state.done, state.passed, list(state.running)) == (5, 1, ["w1"])
    assert state.eta() is not None
    assert result_line(state, RunEvent("result", result=result("a", "passed", 1))) == \
        "[5/10] passed  a  reward 1  2 steps  1.2s"
    state.apply(RunEvent("result", worker="w1", task_id="b", result=result("b", "error", epoch=2)))
    assert result_line(state, RunEvent("result", result=result("b", "error", epoch=2))) == \
        "[6/10] error   b  epoch 2  reward 0  2 steps  1.2s  boom"
    assert state.totals().startswith("6/10 done (1 passed, 0 failed, 1 errors), 0 running, elapsed ")


def test_live_view_shows_the_bar_and_each_workers_task_and_step() -> None:
    state = ProgressState()
    for event in (RunEvent("start", total=3, done=1), RunEvent("task", worker="w0", task_id="os-make-dir"),
                  RunEvent("step", worker="w0", task_id="os-make-dir", step=0),
                  RunEvent("task", worker="w1", task_id="os-find-file")):
        state.apply(event)
    out = io.StringIO()
    Console(file=out, force_terminal=True, width=160, color_system=None).print(_LiveRender(state))
    text = out.getvalue()
    assert "1/3" in text and "eta ?" in text and "━" in text  # the earlier run's task counts on --resume
    assert re.search(r"w0\s+os-make-dir\s+1\s", text), text  # step 1 = the first step taken
    assert re.search(r"w1\s+os-find-file\s+starting", text), text


def test_log_view_prints_a_line_per_task_and_totals() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=200)
    with progress_view(console, totals_every=0.05) as sink:
        sink(RunEvent("start", total=2))
        sink(RunEvent("task", worker="w0", task_id="t1"))
        deadline = time.monotonic() + 30
        while "totals:" not in out.getvalue() and time.monotonic() < deadline:
            time.sleep(0.05)
        sink(RunEvent("result", worker="w0", task_id="t1", result=result("t1", "failed")))
    lines = out.getvalue().splitlines()
    assert any(ln.startswith("totals: 0/2 done (0 passed, 0 failed, 0 errors), 1 running") for ln in lines), lines
    assert "[1/2] failed  t1  reward 0  2 steps  1.2s" in lines
    assert lines[-1].startswith("totals: 1/2 done (0 passed, 1 failed, 0 errors), 0 running")


def test_totals_mode_prints_errors_and_totals_but_no_line_per_task() -> None:
    out = io.StringIO()
    with progress_view(Console(file=out, force_terminal=False, width=200), mode="totals") as sink:
        sink(RunEvent("start", total=3))
        sink(RunEvent("result", worker="w0", task_id="t1", result=result("t1", "passed", reward=1)))
        sink(RunEvent("result", worker="w0", task_id="t2", result=result("t2", "failed")))
        sink(RunEvent("result", worker="w0", task_id="t3", result=result("t3", "error")))
    lines = out.getvalue().splitlines()
    assert not any("t1" in ln or "t2" in ln for ln in lines), lines
    assert any(ln.startswith("[3/3] error   t3") and "boom" in ln for ln in lines), lines
    assert lines[-1].startswith("totals: 3/3 done (1 passed, 1 failed, 1 errors)"), lines


def test_a_bad_progress_mode_is_one_error_line(tmp_path: Path) -> None:
    done = CliRunner().invoke(app, ["run", "os", "-m", "reference", "--progress", "fancy",
                                    "-o", str(tmp_path / "out")], env=ENV)
    assert done.exit_code == 2
    assert "--progress 'fancy': expected one of auto, live, lines, totals" in done.output


def test_resume_command() -> None:
    assert resume_command(["run", "os", "--model", "reference"], "runs/20250101-1200") == \
        "deskact run os --model reference --out runs/20250101-1200 --resume"
    assert resume_command(["run", "my suite", "-o", "out", "--resume"], "out") == \
        "deskact run 'my suite' -o out --resume"


def test_a_run_into_a_log_prints_each_finished_task(tmp_path: Path) -> None:
    (tmp_path / "suite_prog").mkdir()
    (tmp_path / "suite_prog" / "tasks.yaml").write_text(SUITE)
    done = CliRunner().invoke(app, ["run", str(tmp_path / "suite_prog"), "-m", "reference",
                                    "-o", str(tmp_path / "out")], env=ENV)
    lines = done.output.splitlines()
    assert re.search(r"^\[\d/2\] passed  prog-quick  reward 1  \d steps  [\d.]+s$", done.output, re.MULTILINE), lines
    # A failed task's line ends with the judge's reason (issue 26).
    assert re.search(r"^\[\d/2\] failed  prog-wrong  reward 0  \d steps  [\d.]+s  the answer should contain 'bye'",
                     done.output, re.MULTILINE), lines
    assert any(ln.startswith("totals: 2/2 done (1 passed, 1 failed, 0 errors)") for ln in lines), lines


SLOW = """
tasks:
  - id: prog-a-quick
    instruction: Print hi.
    judge: [{answer.contains: {text: hi}}]
    reference: print("hi")
  - id: prog-b-slow
    instruction: Wait.
    judge: [{answer.contains: {text: never}}]
    reference: |
      import time
      time.sleep(600)
"""


def test_ctrl_c_writes_the_report_and_prints_the_resume_command(tmp_path: Path) -> None:
    (tmp_path / "suite_slow").mkdir()
    (tmp_path / "suite_slow" / "tasks.yaml").write_text(SLOW)
    out = tmp_path / "out"
    env = {**os.environ, **ENV, "DESKACT_AGENT_STEP_TIMEOUT": "900"}  # only Ctrl-C ends the slow step
    proc = subprocess.Popen([str(Path(sys.executable).parent / "deskact"), "run", "suite_slow", "-m", "reference",
                             "-o", "out"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and not read_results(out / "results.jsonl"):
            time.sleep(0.2)
        time.sleep(3)  # the slow task has started (an interrupt during its reset works as well)
        proc.send_signal(signal.SIGINT)
        output, _ = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, output
    # The resume command closes the interruption's message (a worker still starting a kernel as the
    # run ends may print a line of its own after it).
    said = output.split("interrupted:", 1)[-1].splitlines()
    assert "deskact run suite_slow -m reference -o out --resume" in said[1], output
    assert (out / "report" / "index.html").is_file()
    assert [r.task_id for r in read_results(out / "results.jsonl")] == ["prog-a-quick"]
