"""AgentStudio's system.exec (its system_evaluator.py: ``os.system(command)``): /bin/sh runs the
command, its exit status ignored; in an eval procedure it runs before the checks after it, so it
becomes a before_judge step."""

from __future__ import annotations

from pathlib import Path

from deskact.runtime.importers.agentstudio import convert
from deskact.runtime.importers.common import ImportOptions
from deskact.runtime.tasks.steps import StepContext, run_reset


def _task(where: str, command: str) -> dict:
    check = {"evaluator": "filesystem", "function": "exists", "params": {"file_to_check": {"${AS_ROOT}/out.txt": True}}}
    exec_ = {"evaluator": "system", "function": "exec", "params": {"command": command}}
    return {"task_id": "0000", "instruction": "Convert it.",
            "reset_procedure": [exec_] if where == "reset" else [],
            "eval_procedure": [exec_, check] if where == "eval" else [check]}


def test_exec_in_eval_runs_before_the_judges_under_sh_its_exit_ignored(ctx: StepContext, tmp_path: Path) -> None:
    command = "echo -e $((1+1)) > ${AS_ROOT}/out.txt; exit 3"
    task, _ = convert(_task("eval", command), "compositional/0000.json", ImportOptions(out=tmp_path))
    assert task["judge"] == [{"files.exists": {"path": "${WORKSPACE}/out.txt"}}]
    ((name, params),) = task["before_judge"][0].items()
    assert name == "shell.run" and params["timeout"] == 120
    run_reset(name, {**params, "cmd": params["cmd"].replace("${WORKSPACE}", str(ctx.workspace))}, ctx)
    # dash's echo prints -e; the exit status 3 fails nothing
    assert (ctx.workspace / "out.txt").read_text() == "-e 2\n"


def test_exec_in_reset_stays_a_reset_step(tmp_path: Path) -> None:
    task, _ = convert(_task("reset", "true"), "compositional/0000.json", ImportOptions(out=tmp_path))
    assert task["reset"] == [{"shell.run": {"cmd": "/bin/sh -c true || true", "timeout": 120}}]
    assert "before_judge" not in task
