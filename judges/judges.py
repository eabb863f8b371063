"""judges.any: alternatives of judges, at least one of which must pass whole.

A task's judges must all pass; some benchmarks accept any one of several answers (OSWorld's
evaluators joined by ``conj: or``: its score is the best of the metrics', and a task is solved
at 1, so one metric at 1 solves it). Each alternative is a list of judge steps that must all
pass, written as in a task's ``judge:`` list; they are checked when the task loads.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator

from ..runtime.tasks.steps import StepContext, Verdict, judge, lookup


def _checked(alternatives: list[list[dict[str, Any]]]) -> list[list[dict[str, Any]]]:
    if len(alternatives) < 2:
        raise ValueError("needs at least two alternatives (one is a plain judge list)")
    for alternative in alternatives:
        if not alternative:
            raise ValueError("an alternative has no judge (it would pass for anything)")
        for s in alternative:
            if not isinstance(s, dict) or len(s) != 1:
                raise ValueError(f"a judge step is one mapping {{name: params}}, not {str(s)[:80]!r}")
            name, params = next(iter(s.items()))
            try:
                spec = lookup("judge", name)
            except KeyError as exc:
                raise ValueError(exc.args[0]) from None
            spec.validate(params)
    return alternatives


Alternatives = Annotated[list[list[dict[str, Any]]], AfterValidator(_checked)]


def _verdict(ctx: StepContext, name: str, params: dict[str, Any] | None) -> Verdict:
    """One inner judge, its params already expanded by the outer call (expanding twice would read
    a ``$$`` the task escaped as a placeholder); what it raises is an error verdict, as for a step."""
    spec = lookup("judge", name)
    try:
        parsed = spec.params.model_validate(params or {})
        verdict = spec.func(ctx, **{k: getattr(parsed, k) for k in parsed.model_fields_set})
        if not isinstance(verdict, Verdict):
            raise TypeError(f"judge returned {type(verdict).__name__}, not a Verdict")
    except Exception as exc:  # noqa: BLE001 - a crashing judge is an error verdict, never dropped
        verdict = Verdict(passed=False, error=True, feedback=f"judge `{name}` failed: {type(exc).__name__}: {exc}")
    verdict.judge = name
    return verdict


@judge("judges.any")
def judges_any(ctx: StepContext, of: Alternatives) -> Verdict:
    """Passes when every judge of at least one alternative in ``of`` (a list of judge lists)
    passes. Alternatives are tried in order and the first that passes decides; when none does,
    the feedback names each one's first failure, and an inner judge that errored makes the
    verdict an error (the task could not be judged), as a crashing metric does in OSWorld."""
    failures: list[str] = []
    errored = False
    for i, alternative in enumerate(of, 1):
        first_failure = None
        for s in alternative:
            name, params = next(iter(s.items()))
            verdict = _verdict(ctx, name, params)
            if not verdict.passed:
                errored = errored or verdict.error
                first_failure = f"{name}: {verdict.feedback}"
                break
        if first_failure is None:
            return Verdict.ok(f"alternative {i} of {len(of)} passes", alternative=i)
        failures.append(f"alternative {i}: {first_failure[:300]}")
    return Verdict(passed=False, error=errored, feedback="no alternative passes; " + "; ".join(failures))
