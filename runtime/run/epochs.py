"""Repeated runs of each task (``deskact run --epochs N``): pass@k and spread.

pass@k is the chance that at least one of k attempts passes. From n attempts with c
passes it is estimated without bias as ``1 - C(n-c, k) / C(n, k)`` (Chen et al. 2021,
"Evaluating Large Language Models Trained on Code"); pass@1 is then the mean reward.
Errors count as failed attempts (reward 0, as everywhere else); invalid tasks never ran
and are left out.

The running epoch itself travels with the attempt: ``run_task(..., epoch)`` ->
``TaskEnv.epoch`` -> ``Episode(epoch=)`` -> ``Model.epoch`` (offline models pick a
per-epoch script by it).
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable
from math import comb

from pydantic import BaseModel, Field

from .results import TaskResult


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k from ``n`` attempts of which ``c`` passed."""
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"pass@k needs 0 <= c <= n and 1 <= k <= n, got n={n}, c={c}, k={k}")
    if n - c < k:
        return 1.0  # every k-subset holds a pass
    return 1.0 - comb(n - c, k) / comb(n, k)


def ks_for(n: int) -> list[int]:
    """Which k to show for n epochs: 1, n and a few round numbers between."""
    return sorted({1, n} | {k for k in (2, 3, 5, 10, 20, 50, 100) if k < n})


class TaskEpochs(BaseModel):
    task_id: str
    suite: str
    n: int
    """Epochs that ran (not invalid)."""
    passed: int
    pass_at: dict[int, float] = Field(default_factory=dict)
    """k -> pass@k (k = 1 is the mean reward)."""
    spread: float = 0.0
    """Standard deviation of the reward over the epochs (0 = the same outcome every time)."""
    rewards: list[int] = Field(default_factory=list)
    """Reward of each epoch, in epoch order."""


class SuiteEpochs(BaseModel):
    suite: str
    tasks: int
    n: int
    """Epochs per task (the smallest count when tasks differ, e.g. in a run still going)."""
    pass_at: dict[int, float] = Field(default_factory=dict)
    """k -> mean over the suite's tasks of their pass@k."""
    epoch_rates: list[float] = Field(default_factory=list)
    """The suite's success rate in each epoch."""
    spread: float = 0.0
    """Standard deviation of ``epoch_rates``: how much one run of the suite varies."""


def task_epochs(results: Iterable[TaskResult]) -> list[TaskEpochs]:
    """One row per task over its epochs (the last result of each (task, epoch) counts)."""
    latest = {(r.task_id, r.epoch): r for r in results if r.status != "invalid"}
    by_task: dict[str, list[TaskResult]] = defaultdict(list)
    for key in sorted(latest):
        by_task[key[0]].append(latest[key])
    rows = []
    for task_id, attempts in sorted(by_task.items(), key=lambda kv: (kv[1][0].suite, kv[0])):
        rewards = [r.reward for r in attempts]
        n, c = len(rewards), sum(rewards)
        rows.append(TaskEpochs(task_id=task_id, suite=attempts[0].suite, n=n, passed=c, rewards=rewards,
                               pass_at={k: pass_at_k(n, c, k) for k in ks_for(n)},
                               spread=statistics.pstdev(rewards) if n > 1 else 0.0))
    return rows


def suite_epochs(rows: list[TaskEpochs], results: Iterable[TaskResult]) -> list[SuiteEpochs]:
    """Per suite: mean pass@k over its tasks and the spread of its per-epoch success rate."""
    by_epoch: dict[tuple[str, int], list[int]] = defaultdict(list)
    latest = {(r.task_id, r.epoch): r for r in results if r.status != "invalid"}
    for r in latest.values():
        by_epoch[(r.suite, r.epoch)].append(r.reward)
    out = []
    for suite in sorted({row.suite for row in rows}):
        mine = [row for row in rows if row.suite == suite]
        n = min(row.n for row in mine)
        rates = [sum(v) / len(v) for (s, _), v in sorted(by_epoch.items()) if s == suite]
        out.append(SuiteEpochs(suite=suite, tasks=len(mine), n=n, epoch_rates=rates,
                               pass_at={k: statistics.fmean(pass_at_k(row.n, row.passed, k) for row in mine)
                                        for k in ks_for(n)},
                               spread=statistics.pstdev(rates) if len(rates) > 1 else 0.0))
    return out


def has_epochs(results: Iterable[TaskResult]) -> bool:
    """True when some task ran more than once (a run with ``--epochs`` above 1)."""
    return any(r.epoch > 1 for r in results)
