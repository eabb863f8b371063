"""validate()'s fourth pass: a task whose counterexample gets reward 1 is invalid, named by index."""

from __future__ import annotations

from pathlib import Path

import pytest
from deskact.runtime.config import Config
from deskact.runtime.run.validate import counterexample_passes, validate
from deskact.runtime.tasks.task import load_tasks

SUITE = r"""
defaults:
  reset:
    - files.write: {path: "${WORKSPACE}/in/report.txt", content: "q3\n"}
  reference: |
    import os, shutil
    os.makedirs("out", exist_ok=True)
    shutil.move("in/report.txt", "out/report.txt")
    exit()
tasks:
  - id: cx-loose
    instruction: Move ${WORKSPACE}/in/report.txt into ${WORKSPACE}/out/.
    judge:
      - files.exists: {path: "${WORKSPACE}/out/report.txt"}
    counterexamples:
      - code: |
          import os
          os.makedirs("out", exist_ok=True)
          open("out/other.txt", "w").write("q3\n")
          exit()
        note: writes another file
      - code: |
          import os, shutil
          os.makedirs("out", exist_ok=True)
          shutil.copy("in/report.txt", "out/report.txt")
          exit()
        note: copies instead of moving
  - id: cx-tight
    instruction: Move ${WORKSPACE}/in/report.txt into ${WORKSPACE}/out/.
    judge:
      - files.exists: {path: "${WORKSPACE}/out/report.txt"}
      - files.absent: {path: "${WORKSPACE}/in/report.txt"}
    counterexamples:
      - |
        import os, shutil
        os.makedirs("out", exist_ok=True)
        shutil.copy("in/report.txt", "out/report.txt")
        exit()
"""


def _suite(tmp_path: Path) -> Path:
    folder = tmp_path / "suite_cx"
    folder.mkdir()
    (folder / "tasks.yaml").write_text(SUITE)
    return folder


def test_counterexamples_load_as_code_and_note(tmp_path: Path) -> None:
    loaded = load_tasks([_suite(tmp_path)])
    assert not loaded.invalid
    loose, tight = loaded.tasks
    assert [c.note for c in loose.counterexamples] == ["writes another file", "copies instead of moving"]
    assert "shutil.copy" in tight.counterexamples[0].code and tight.counterexamples[0].note == ""


def test_one_pass_per_counterexample_index(tmp_path: Path) -> None:
    folder = _suite(tmp_path)
    assert counterexample_passes([str(folder)], None) == [
        ("counterexample/0", 0, "cx-loose,cx-tight"), ("counterexample/1", 0, "cx-loose")]
    assert counterexample_passes([str(folder)], "cx-tight") == [("counterexample/0", 0, "cx-tight")]


def test_bad_counterexample_is_a_load_error(tmp_path: Path) -> None:
    folder = tmp_path / "suite_bad"
    folder.mkdir()
    (folder / "t.yaml").write_text(
        "id: cx-bad\ninstruction: x\njudge: [{answer.regex: {pattern: a}}]\n"
        "counterexamples:\n  - {code: 'print(1)', because: typo}\n  - 'print(\"${WORKSPAC}\")'\n")
    bad = load_tasks([folder]).invalid
    assert len(bad) == 1
    assert "because" in bad[0].message and "WORKSPAC" in bad[0].message


@pytest.mark.slow
def test_a_passing_counterexample_makes_the_task_invalid(tmp_path: Path) -> None:
    problems, checked = validate(Config(), [str(_suite(tmp_path))], workers=1, out=tmp_path / "out",
                                 explore=False)
    assert checked == 2
    assert [(p.task_id, p.model, p.reward) for p in problems] == [("cx-loose", "counterexample/1", 1)]
    assert "counterexample 1" in problems[0].detail and "copies instead of moving" in problems[0].detail


def test_counterexample_model_replays_the_indexed_code(tmp_path: Path) -> None:
    from deskact.runtime.agent.models import make_model
    from deskact.runtime.errors import ModelError

    loose = load_tasks([_suite(tmp_path)]).tasks[0]
    model = make_model("counterexample/1", Config())
    assert model.name == "counterexample/1"
    model.start_episode(loose)
    assert "shutil.copy" in model.reply("", []).text
    assert "exit()" in model.reply("", []).text  # then it asks to stop
    model = make_model("counterexample/2", Config())
    model.start_episode(loose)
    with pytest.raises(ModelError, match="task cx-loose has no counterexample 2"):
        model.reply("", [])
