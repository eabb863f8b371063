"""validate(): reference must pass, noop and explore must fail; explore catches loose answer judges."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from deskact.runtime.config import Config
from deskact.runtime.run.validate import FAILS_WITH, validate

SUITE = r"""
defaults:
  reset:
    - files.write: {path: "${WORKSPACE}/app.log", content: "a [ERROR] x\nb [INFO] y\nc [ERROR] z\n"}
tasks:
  - id: v-loose
    instruction: How many lines of ${WORKSPACE}/app.log have the level ERROR? Print the number.
    judge:
      - answer.regex: {pattern: '(?<!\d)2(?!\d)'}  # a 2 anywhere: a date in ls -l output will do
    reference: |
      print(open("app.log").read().count("[ERROR]"))
      exit()
  - id: v-tight
    instruction: >-
      How many lines of ${WORKSPACE}/app.log have the level ERROR? Print only the number, on a line
      of its own.
    judge:
      - answer.regex: {pattern: '(?m)^\s*2\s*$'}
    reference: |
      print(open("app.log").read().count("[ERROR]"))
      exit()
"""


@pytest.mark.slow
def test_explore_pass_flags_only_the_loose_judge(tmp_path: Path) -> None:
    folder = tmp_path / "suite_v"
    folder.mkdir()
    (folder / "tasks.yaml").write_text(SUITE)
    config = Config()
    problems, checked = validate(config, [str(folder)], workers=1, out=tmp_path / "out")
    assert checked == 2
    assert [(p.task_id, p.model, p.reward, p.detail) for p in problems] == [
        ("v-loose", "explore", 1, FAILS_WITH["explore"])
    ]
    assert "only looked around" in FAILS_WITH["explore"]
    skipped, _ = validate(config, [str(folder)], workers=1, out=tmp_path / "out2", explore=False)
    assert skipped == []


@pytest.mark.slow
def test_first_observation_problems_are_reported_after_the_passes(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from deskact.runtime.run import validate as validate_module

    folder = tmp_path / "suite_v"
    folder.mkdir()
    (folder / "tasks.yaml").write_text(SUITE)
    asked: list[str] = []

    def blank_window(env: Any) -> str | None:
        asked.append(env.task.id)
        if env.task.id == "v-tight":
            return "the first observation shows window 'x' blank (one colour): the app is not drawn yet"
        return None

    monkeypatch.setattr(validate_module, "observation_problem", blank_window)
    problems, checked = validate(Config(), [str(folder)], workers=1, out=tmp_path / "out", explore=False)
    assert sorted(asked) == ["v-loose", "v-tight"]  # once each: in the noop pass, no reset of their own
    assert checked == 2
    assert [(p.task_id, p.model, p.status, p.reward) for p in problems] == [("v-tight", "observation", "failed", 0)]
    assert "not drawn yet" in problems[0].detail
    skipped, _ = validate(Config(), [str(folder)], workers=1, out=tmp_path / "out2", explore=False, observe=False)
    assert skipped == [] and len(asked) == 2  # no look with observe=False
