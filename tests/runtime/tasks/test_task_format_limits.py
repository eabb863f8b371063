"""Task files a careless or hostile author wrote: limits that cannot work and alias bombs are load errors
naming file and line, never a runner that grows or crashes later."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import pytest
from deskact.runtime.tasks.task import load_tasks

LEVELS = "\n".join(
    ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    + [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 8)]
)


def write(tmp_path: Path, text: str) -> Path:
    suite = tmp_path / "suite"
    suite.mkdir(exist_ok=True)
    path = suite / "tasks.yaml"
    path.write_text(text)
    return path


def one_task(field: str) -> str:
    return dedent(f"""\
        id: t
        instruction: do it
        {field}
        judge: [{{answer.contains: {{text: x}}}}]
        """)


@pytest.mark.parametrize("field", ["max_time: -5", "max_time: .nan", "max_time: .inf", "max_time: 0",
                                   "max_steps: 0", "max_steps: -3"])
def test_limits_must_be_positive_and_finite(tmp_path: Path, field: str) -> None:
    path = write(tmp_path, one_task(field))
    res = load_tasks([path])
    assert res.tasks == []
    (bad,) = res.invalid
    assert bad.line == 3 and field.split(":")[0] in bad.message and "positive" in bad.message
    assert str(bad).startswith(f"{path}:3:")


@pytest.mark.parametrize("task_id", ['""', '" "', "../up", "a/b", ".", "..", '"tab\\there"', "x" * 201])
def test_ids_are_one_readable_path_segment(tmp_path: Path, task_id: str) -> None:
    path = write(tmp_path, one_task("").replace("id: t", f"id: {task_id}"))
    res = load_tasks([path])
    assert res.tasks == [], task_id
    (bad,) = res.invalid
    assert bad.line == 1 and "id" in bad.message


def test_a_good_task_still_loads(tmp_path: Path) -> None:
    res = load_tasks([write(tmp_path, one_task("max_time: 30").replace("id: t", "id: t\nmax_steps: 4"))])
    assert res.invalid == [] and (res.tasks[0].max_time, res.tasks[0].max_steps) == (30, 4)


@pytest.mark.parametrize("where", ["tags", "params"])
def test_an_alias_bomb_is_a_load_error_with_file_and_line(tmp_path: Path, where: str) -> None:
    use = ("tags: *l7\n  judge: [{answer.contains: {text: x}}]" if where == "tags"
           else "judge: [{files.json: {path: a.json, equals: *l7}}]")
    text = f"{LEVELS}\ntasks:\n- id: t\n  instruction: do it\n  {use}\n"
    path = write(tmp_path, text)
    res = load_tasks([path])
    assert res.tasks == []
    (bad,) = res.invalid
    assert bad.line is not None and bad.line <= 8 and "alias" in bad.message
    assert str(bad).startswith(f"{path}:{bad.line}:")


@pytest.mark.parametrize("step", ["shell.output: {cmd: sleep 1, equals: '', timeout: .inf}",
                                  "shell.output: {cmd: sleep 1, equals: '', timeout: 0}",
                                  "shell.run: {cmd: sleep 1, timeout: .nan}",
                                  "files.download: {url: 'http://x/y', path: y, timeout: -1}"])
def test_step_timeouts_are_positive_and_finite(tmp_path: Path, step: str) -> None:
    where = "judge" if step.startswith("shell.output") else "reset"
    text = f"id: t\ninstruction: do it\n{where}:\n  - {step}\n"
    if where == "reset":
        text += "judge: [{answer.contains: {text: x}}]\n"
    res = load_tasks([write(tmp_path, text)])
    assert res.tasks == []
    (bad,) = res.invalid
    assert bad.line == 4 and "timeout" in bad.message
