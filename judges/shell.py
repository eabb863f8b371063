"""shell.output: what a command prints (in the task's world, or on the host)."""

from __future__ import annotations

from ..reset_scripts.shell import Where, run_shell
from ..runtime.tasks.helpers import Regex, check_text, clip, short
from ..runtime.tasks.steps import StepContext, Verdict, judge


@judge("shell.output", one_of=("equals", "contains", "regex"))
def shell_output(
    ctx: StepContext, cmd: str, equals: str | None = None, contains: str | None = None,
    regex: Regex | None = None, timeout: float = 30, exit_code: int | None = 0, in_: Where | None = None,
) -> Verdict:
    """Run ``cmd`` with bash in the workspace (in the task's world when it has one, else or with
    ``in: host`` on the host); its stdout equals/contains/matches the text.

    ``exit_code`` (default 0) must match too; ``null`` accepts any exit code.
    """
    proc = run_shell(ctx, cmd, timeout, in_)
    what = f"output of `{short(cmd)}`"
    if exit_code is not None and proc.returncode != exit_code:
        return Verdict.fail(
            f"`{short(cmd)}` exited with {proc.returncode}, expected {exit_code}:"
            f" {clip((proc.stderr or proc.stdout).strip())}",
            stdout=proc.stdout[:2000], stderr=proc.stderr[:2000],
        )
    return check_text(what, proc.stdout, equals, contains, regex)

