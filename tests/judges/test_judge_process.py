"""process.running without a world (the host's processes); in a world: test_judge_world_system.py."""

import subprocess
import sys

from deskact.runtime.tasks.steps import StepContext, Verdict, run_judge


def j(judge_name: str, ctx: StepContext, **params: object) -> Verdict:
    v = run_judge(judge_name, params, ctx)
    assert not v.error, v.feedback
    return v


def test_process_running(ctx: StepContext) -> None:
    marker = f"deskact-marker-{id(ctx)}"
    assert j("process.running", ctx, name=marker, running=False).passed
    v = j("process.running", ctx, name=marker)
    assert v.feedback == f"no process with '{marker}' in its command line is running"
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)", marker])
    try:
        assert j("process.running", ctx, name=marker).passed
        v = j("process.running", ctx, name=marker, running=False)
        assert v.feedback.startswith(f"no process with '{marker}' in its command line should be running,"
                                     f" but pid {proc.pid} (0): ")
        assert v.details["pids"] == [proc.pid]
    finally:
        proc.kill()
        proc.wait()
