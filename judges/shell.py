"""shell.output, shell.json_object: what a command prints (in the task's world, or on the host)."""

from __future__ import annotations

from typing import Any

from ..reset_scripts.shell import Where, run_shell
from ..runtime.tasks.helpers import Regex, check_text, clip, short
from ..runtime.tasks.limits import Seconds
from ..runtime.tasks.steps import StepContext, Verdict, judge


@judge("shell.output", one_of=("equals", "contains", "regex"))
def shell_output(
    ctx: StepContext, cmd: str, equals: str | None = None, contains: str | None = None,
    regex: Regex | None = None, timeout: Seconds = 30, exit_code: int | None = 0, in_: Where | None = None,
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



@judge("shell.json_object")
def shell_json_object(ctx: StepContext, cmd: str, expected: dict[str, Any], expect_in_result: bool = False,
                      timeout: Seconds = 30, in_: Where | None = None) -> Verdict:
    """Run ``cmd`` like ``shell.output`` (any exit code); its output, read as OSWorld's
    ``check_direct_json_object`` reads it (stripped, ' made ", JSON), has the ``expected`` values
    at their keys (``ignore_list_order`` in ``expected`` sorts lists first); with
    ``expect_in_result``, a text is found within the output's and a list names one value the
    output's list holds (or its text equals)."""
    import json

    from ._json_object import difference, parse

    proc = run_shell(ctx, cmd, timeout, in_)
    try:
        result = parse(proc.stdout)
    except json.JSONDecodeError as exc:
        return Verdict.fail(f"the output of `{short(cmd)}` is not a JSON object: {exc}: {clip(proc.stdout.strip())}",
                            stderr=proc.stderr[:2000])
    found = difference(result, expected, expect_in_result)
    if found:
        return Verdict.fail(f"the output of `{short(cmd)}`: {found}", stdout=proc.stdout[:2000])
    return Verdict.ok(f"the output of `{short(cmd)}` has the expected values")
