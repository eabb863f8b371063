"""results.jsonl that a kill cannot tear, readers that survive one that was torn anyway, and --out
mistakes as one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from textwrap import dedent

import pytest
from deskact.runtime.config import Config
from deskact.runtime.errors import DeskactError
from deskact.runtime.run.results import ResultsWriter, TaskResult, check_out_dir, read_results
from deskact.runtime.run.runner import Run, RunOptions


def result(task_id: str, feedback: str = "") -> TaskResult:
    return TaskResult(task_id=task_id, suite="s", status="passed", reward=1, feedback=feedback)


def test_torn_non_utf8_and_garbage_lines_are_skipped_and_said(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    whole = result("a").model_dump_json().encode() + b"\n"
    cut = result("c", feedback="déjà").model_dump_json().encode()
    cut = cut[: cut.index("é".encode()) + 1]  # inside the two bytes of "é"
    path.write_bytes(whole + b"not json\n" + b"\xff\xfe\n" + result("b").model_dump_json().encode() + b"\n" + cut)
    notes: list[str] = []
    assert [r.task_id for r in read_results(path, notes)] == ["a", "b"]
    assert len(notes) == 3
    assert notes[0].endswith(":2: not a task result: skipped") and ":3:" in notes[1] and "UTF-8" in notes[1]
    assert ":5: torn last line" in notes[2]


def test_the_writer_cuts_a_torn_tail_before_appending(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    torn = result("b").model_dump_json().encode()[:25]
    path.write_bytes(result("a").model_dump_json().encode() + b"\n" + torn)
    writer = ResultsWriter(path)
    writer.write(result("c"))
    writer.close()
    notes: list[str] = []
    assert [r.task_id for r in read_results(path, notes)] == ["a", "c"] and notes == []
    assert (tmp_path / "results.jsonl.torn").read_bytes() == torn + b"\n"
    assert path.read_bytes().endswith(b"\n")


def test_out_that_is_a_file_or_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    with pytest.raises(DeskactError, match=r"^--out .*afile: is a file, not a folder$"):
        check_out_dir(tmp_path / "afile")
    with pytest.raises(DeskactError, match=r"^--out /proc/deskact-out: cannot write there: "):
        check_out_dir(Path("/proc/deskact-out"))
    check_out_dir(tmp_path / "new" / "run")
    assert (tmp_path / "new" / "run").is_dir()


SUITE = """
tasks:
  - id: i-one
    instruction: Write one.
    judge: [{files.content: {path: "${WORKSPACE}/one.txt", equals: "1"}}]
    reference: |
      open("one.txt", "w").write("1")
      exit()
  - id: i-two
    instruction: Write two.
    judge: [{files.content: {path: "${WORKSPACE}/two.txt", equals: "2"}}]
    reference: |
      open("two.txt", "w").write("2")
      exit()
"""


def test_resume_after_a_torn_line_loses_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "suite_i"
    folder.mkdir()
    (folder / "tasks.yaml").write_text(dedent(SUITE))
    out = tmp_path / "out"
    first = Run(Config(), RunOptions(paths=[str(folder)], model="reference", out=out, tasks_glob="i-one")).execute()
    assert [r.status for r in first] == ["passed"]
    results = out / "results.jsonl"
    line = result("i-two", feedback="ünïcode").model_dump_json().encode()
    with results.open("ab") as f:  # a kill in the middle of the second task's line, inside a character
        f.write(line[: line.index("ü".encode()) + 1])
    resumed = Run(Config(), RunOptions(paths=[str(folder)], model="reference", out=out, resume=True)).execute()
    assert sorted((r.task_id, r.status) for r in resumed) == [("i-one", "passed"), ("i-two", "passed")]
    notes: list[str] = []
    on_disk = read_results(results, notes)
    assert notes == [] and [r.task_id for r in on_disk] == ["i-one", "i-two"]  # i-one kept, i-two run again


BOMB = "\n".join(["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
                 + [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 9)])

HOSTILE = f"""
tasks:
  - id: h-bomb
    instruction: The agent writes an alias bomb where a config file should be.
    judge: [{{config.value: {{path: "${{WORKSPACE}}/app.yaml", key: l8, exists: true}}}}]
    reference: |
      open("app.yaml", "w").write({BOMB!r})
      exit()
  - id: h-next
    instruction: Write two.
    judge: [{{files.content: {{path: "${{WORKSPACE}}/two.txt", equals: "2"}}}}]
    reference: |
      open("two.txt", "w").write("2")
      exit()
"""


@pytest.mark.slow  # a whole `deskact run` and its report in a subprocess: several seconds
def test_an_agent_written_yaml_bomb_errors_one_task_and_the_run_goes_on(tmp_path: Path) -> None:
    folder = tmp_path / "suite_h"
    folder.mkdir()
    (folder / "tasks.yaml").write_text(dedent(HOSTILE))
    out = tmp_path / "out"
    peak_file = tmp_path / "peak_kb"
    # The runner writes its own peak (VmHWM) at exit: RUSAGE_CHILDREN would be the largest of every
    # child this test session ever waited for.
    limit = ("import atexit, resource, runpy, sys; resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30)); "
             f"atexit.register(lambda: open({str(peak_file)!r}, 'w').write(next(l.split()[1] for l in "
             "open('/proc/self/status') if l.startswith('VmHWM:')))); ")
    # The runner under a hard address-space cap of its own, so a regression fails here, not the machine.
    subprocess.run([sys.executable, "-c", limit + "sys.argv[0] = 'deskact'; runpy.run_module('deskact.runtime.ui.cli', "
                    "run_name='__main__')", "run", str(folder), "--model", "reference", "--out", str(out)],
                   check=False, capture_output=True, timeout=600)
    by_id = {r.task_id: r for r in read_results(out / "results.jsonl")}
    assert by_id["h-bomb"].status == "error" and "app.yaml:5: aliases expand" in (by_id["h-bomb"].error or "")
    assert by_id["h-next"].status == "passed"
    assert (out / "report" / "index.html").is_file()
    peak_kb = int(peak_file.read_text())
    assert peak_kb < 1 << 20, f"runner peaked at {peak_kb // 1024} MB"
    assert json.loads((out / "run.json").read_text())
