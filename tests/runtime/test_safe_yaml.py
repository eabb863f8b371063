"""The one YAML loader: ordinary anchors load, alias bombs are refused with file and line."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from deskact.runtime import safe_yaml


def bomb(levels: int = 9, width: int = 9) -> str:
    """A 'billion laughs' document: each level is a list of ``width`` aliases of the one before."""
    lines = ["l0: &l0 [" + ", ".join(["lol"] * width) + "]"]
    for i in range(1, levels):
        lines.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def test_ordinary_anchors_load() -> None:
    text = "base: &base {a: 1, b: [1, 2]}\none: *base\ntwo: {<<: *base, c: 3}\n"
    assert safe_yaml.load(text) == {"base": {"a": 1, "b": [1, 2]}, "one": {"a": 1, "b": [1, 2]},
                                    "two": {"a": 1, "b": [1, 2], "c": 3}}


def test_a_bomb_is_refused_with_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "agent.yaml"
    path.write_text(bomb())
    assert path.stat().st_size < 1024
    with pytest.raises(safe_yaml.AliasBombError) as caught:
        safe_yaml.load_file(path)
    assert isinstance(caught.value, yaml.YAMLError)  # callers catching YAML errors catch this too
    where = safe_yaml.where(caught.value)
    assert where.startswith(f"{path}:") and "alias" in where
    line = int(where.split(":")[1])
    assert 2 <= line <= 9  # the alias that went over the budget, not the top of the file


def test_a_recursive_anchor_does_not_loop() -> None:
    doc = safe_yaml.load("a: &a [1, *a]\n")
    assert doc["a"][0] == 1 and doc["a"][1] is doc["a"]


def test_many_small_aliases_within_the_budget_load() -> None:
    text = "x: &x [1, 2]\nys: [" + ", ".join(["*x"] * 1000) + "]\n"
    assert len(safe_yaml.load(text)["ys"]) == 1000


def test_an_inline_notebook_task_with_a_bomb_is_a_task_error() -> None:
    from deskact.runtime.errors import TaskError
    from deskact.runtime.ui.notebook import Env

    with pytest.raises(TaskError, match=r"^not valid YAML: <inline task>:\d+: aliases expand"):
        Env.from_yaml(bomb())
