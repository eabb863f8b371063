import json
from pathlib import Path
from textwrap import dedent

import pytest
from deskact.runtime.tasks.task import SUITES_DIR, json_schema, load_tasks

GOOD = """
id: t-mkdir
instruction: Create ${WORKSPACE}/docs/reports.
tags: [os]
reset:
  - files.mkdir: {path: "${WORKSPACE}/docs"}
judge:
  - files.exists: {path: "${WORKSPACE}/docs/reports", kind: dir}
cleanup:
  - files.remove: {path: "${WORKSPACE}/docs"}
reference: |
  !mkdir -p $WORKSPACE/docs/reports
  exit()
"""


def write(tmp_path: Path, text: str, name: str = "tasks.yaml") -> Path:
    suite = tmp_path / "mysuite"
    suite.mkdir(exist_ok=True)
    path = suite / name
    path.write_text(dedent(text))
    return path


def test_single_task_file_loads(tmp_path: Path):
    res = load_tasks([write(tmp_path, GOOD)])
    assert res.invalid == []
    (task,) = res.tasks
    assert task.suite == "mysuite" and task.judge[0].name == "files.exists"
    assert task.judge[0].params == {"path": "${WORKSPACE}/docs/reports", "kind": "dir"}
    assert task.files_dir == tmp_path / "mysuite" / "files"


def test_list_with_defaults(tmp_path: Path):
    text = """
    defaults:
      tags: [shared]
      max_steps: 4
    tasks:
      - id: a
        instruction: do a
        judge: [{files.absent: {path: x}}]
      - id: b
        instruction: do b
        max_steps: 9
        judge: [{files.absent: {path: y}}]
    """
    res = load_tasks([write(tmp_path, text)])
    assert res.invalid == []
    assert [(t.id, t.max_steps, t.tags) for t in res.tasks] == [("a", 4, ["shared"]), ("b", 9, ["shared"])]


def test_unknown_judge_gets_did_you_mean_with_file_line_and_id(tmp_path: Path):
    path = write(tmp_path, GOOD.replace("- files.exists:", "- files.exist:"))
    res = load_tasks([path])
    assert res.tasks == []
    (bad,) = res.invalid
    assert bad.task_id == "t-mkdir" and bad.file == str(path) and bad.line == 8
    assert "unknown judge `files.exist`; did you mean `files.exists`?" in bad.message
    assert str(bad).startswith(f"{path}:8: task `t-mkdir`")


def test_missing_param_is_named(tmp_path: Path):
    res = load_tasks([write(tmp_path, GOOD.replace('{path: "${WORKSPACE}/docs/reports", kind: dir}', "{kind: dir}"))])
    assert "missing param `path` for `files.exists`" in res.invalid[0].message


def test_unknown_placeholder_and_unknown_field(tmp_path: Path):
    res = load_tasks([write(tmp_path, GOOD.replace("Create ${WORKSPACE}", "Create ${WORKSPCE}"))])
    assert "unknown placeholder ${WORKSPCE}; did you mean ${WORKSPACE}?" in res.invalid[0].message
    res = load_tasks([write(tmp_path, GOOD + "max_step: 3\n")])
    assert "unknown field `max_step`; did you mean `max_steps`?" in res.invalid[0].message


def test_a_broken_task_does_not_hide_the_others(tmp_path: Path):
    text = """
    tasks:
      - id: ok
        instruction: fine
        judge: [{files.absent: {path: x}}]
      - id: broken
        instruction: no judge here
      - id: ok2
        instruction: fine
        judge: [{files.absent: {path: y}}]
    """
    res = load_tasks([write(tmp_path, text)])
    assert [t.id for t in res.tasks] == ["ok", "ok2"]
    assert res.invalid[0].task_id == "broken" and "judge" in res.invalid[0].message


def test_duplicate_ids_across_files(tmp_path: Path):
    write(tmp_path, GOOD, "a.yaml")
    write(tmp_path, GOOD, "b.yaml")
    res = load_tasks([tmp_path / "mysuite"])
    assert len(res.tasks) == 1
    assert "duplicate task id" in res.invalid[0].message


def test_bad_yaml_reports_the_line(tmp_path: Path):
    res = load_tasks([write(tmp_path, "id: x\ninstruction: [unclosed\n")])
    assert res.invalid[0].line is not None and "not valid YAML" in res.invalid[0].message


def test_shipped_schema_is_current():
    # task_suites/schema.json is generated: `deskact schema --out task_suites/schema.json`
    shipped = json.loads((SUITES_DIR / "schema.json").read_text())
    assert shipped == json.loads(json.dumps(json_schema()))
    assert "files.exists" in json.dumps(shipped)


def test_missing_path_is_a_clear_error(tmp_path: Path):
    from deskact.runtime.errors import TaskError

    with pytest.raises(TaskError, match="no such suite folder"):
        load_tasks([tmp_path / "nope"])
