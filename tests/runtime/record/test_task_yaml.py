"""Writing a recorded reference or counterexample into a task's YAML keeps the rest of the file."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from deskact.runtime.errors import TaskError
from deskact.runtime.record.task_yaml import add_counterexample, set_reference
from deskact.runtime.tasks.task import load_tasks

SUITE = """\
# A suite with comments that must survive.
defaults:
  visual: true
  toolkits: [gui]

tasks:
  - id: first
    instruction: Say hi.   # trailing comment
    judge:
      - answer.regex: {pattern: hi}
    reference: |
      print("hi")

  # the second task: no reference yet
  - id: second
    instruction: >-
      Write a note.
    judge:
      - answer.regex: {pattern: note}
    cleanup:
      - apps.kill: {name: xterm}

  - id: third
    instruction: Third.
    judge:
      - answer.regex: {pattern: x}
    counterexamples:
      - note: old one
        code: |
          print("y")
"""

CODE = 'keyboard.type("hello\\n")\nscreen.wait_stable()\n'


def _suite(tmp_path: Path) -> Path:
    folder = tmp_path / "suite"
    folder.mkdir()
    file = folder / "tasks.yaml"
    file.write_text(SUITE)
    return file


def _tasks(file: Path) -> dict[str, object]:
    loaded = load_tasks([str(file.parent)])
    assert not loaded.invalid, loaded.invalid
    return {t.id: t for t in loaded.tasks}


def test_reference_added_after_the_last_key_and_nothing_else_changes(tmp_path: Path) -> None:
    file = _suite(tmp_path)
    set_reference(file, "second", CODE)
    text = file.read_text()
    tasks = _tasks(file)
    assert tasks["second"].reference == CODE  # type: ignore[attr-defined]
    assert tasks["first"].reference == 'print("hi")\n'  # type: ignore[attr-defined]
    # Everything before the insertion is the same text, comments included.
    assert text.startswith(SUITE[: SUITE.index("  - id: third")].rstrip("\n").rsplit("\n", 1)[0])
    assert "# the second task: no reference yet" in text and "# trailing comment" in text
    assert text.replace(textwrap.indent("reference: |\n" + textwrap.indent(CODE, "  "), "    "), "") == SUITE


def test_reference_replaced_in_place(tmp_path: Path) -> None:
    file = _suite(tmp_path)
    set_reference(file, "first", CODE)
    assert _tasks(file)["first"].reference == CODE  # type: ignore[attr-defined]
    assert file.read_text() == SUITE.replace('      print("hi")\n', textwrap.indent(CODE, "      "))


def test_counterexample_appended_or_added(tmp_path: Path) -> None:
    file = _suite(tmp_path)
    add_counterexample(file, "third", CODE, "typed the wrong word")
    add_counterexample(file, "first", CODE, "a\nsecond line")
    tasks = _tasks(file)
    third = tasks["third"].counterexamples  # type: ignore[attr-defined]
    assert [(c.note, c.code) for c in third] == [("old one", 'print("y")\n'), ("typed the wrong word", CODE)]
    first = tasks["first"].counterexamples  # type: ignore[attr-defined]
    assert [(c.note, c.code) for c in first] == [("a second line", CODE)]
    assert tasks["first"].reference == 'print("hi")\n'  # type: ignore[attr-defined]


def test_single_task_file_and_missing_task(tmp_path: Path) -> None:
    folder = tmp_path / "one"
    folder.mkdir()
    file = folder / "task.yaml"
    file.write_text("id: solo\ninstruction: Do it.\njudge:\n  - answer.regex: {pattern: x}\n")
    set_reference(file, "solo", "  indented first line\nmouse.click(1, 2)\n")
    assert _tasks(file)["solo"].reference == "  indented first line\nmouse.click(1, 2)\n"  # type: ignore[attr-defined]
    with pytest.raises(TaskError, match="no task `nope`"):
        set_reference(file, "nope", CODE)
