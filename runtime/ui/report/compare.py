"""``deskact compare RUN_A RUN_B``: which tasks changed outcome, and both summaries side by side.

Every epoch of every task counts (``deskact run --epochs N``): a task's outcome is its status when
it ran once, else how many of its epochs passed; the summaries count attempts, so their success
rate is pass@1; the epochs table adds pass@k per run."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ...errors import DeskactError
from ...run.epochs import SuiteEpochs, has_epochs, ks_for, pass_at_k, suite_epochs, task_epochs
from ...run.results import SummaryRow, TaskResult, latest_by_attempt, read_results, summarize


class ChangedTask(BaseModel):
    task_id: str
    suite: str
    status_a: str
    """The task's status in run A when it ran once; over several epochs, e.g. '2/3 passed, 1 error'."""
    status_b: str
    reward_a: float
    """pass@1 in run A: the mean reward over the task's epochs (its reward when it ran once)."""
    reward_b: float
    epochs_a: int = 1
    epochs_b: int = 1
    pass_at_a: dict[int, float] = Field(default_factory=dict)
    """k -> pass@k of the task in run A (k = 1 and its epoch count, with round numbers between)."""
    pass_at_b: dict[int, float] = Field(default_factory=dict)
    detail_b: str = ""
    """Run B's error or judge feedback: why it fails now (empty when it passes)."""


class SummaryPair(BaseModel):
    group: str
    a: SummaryRow | None = None
    b: SummaryRow | None = None


class CompareResult(BaseModel):
    run_a: Path
    run_b: Path
    changed: list[ChangedTask] = Field(default_factory=list)
    """Tasks in both runs whose status differs (passed/failed/error/invalid)."""
    only_a: list[str] = Field(default_factory=list)
    only_b: list[str] = Field(default_factory=list)
    by_suite: list[SummaryPair] = Field(default_factory=list)
    by_tag: list[SummaryPair] = Field(default_factory=list)
    epochs_a: list[SuiteEpochs] = Field(default_factory=list)
    """pass@k and spread per suite of run A (empty unless it ran tasks more than once)."""
    epochs_b: list[SuiteEpochs] = Field(default_factory=list)
    models_a: list[str] = Field(default_factory=list)
    """The models run A's results name (one, unless a resume was forced onto another)."""
    models_b: list[str] = Field(default_factory=list)

    @property
    def fixed(self) -> list[ChangedTask]:
        return [c for c in self.changed if c.reward_b > c.reward_a]

    @property
    def broken(self) -> list[ChangedTask]:
        return [c for c in self.changed if c.reward_b < c.reward_a]


class Outcome(BaseModel):
    """One task's attempts in one run."""

    suite: str
    status: str
    epochs: int
    reward: float
    pass_at: dict[int, float]
    detail: str = ""


def _load(run_dir: Path) -> list[TaskResult]:
    """Every attempt of the run: the last result of each (task, epoch)."""
    path = Path(run_dir) / "results.jsonl"
    if not path.is_file():
        raise DeskactError(f"{path}: no such file (is {run_dir} a deskact run folder?)")
    return list(latest_by_attempt(read_results(path)).values())


def outcomes(results: list[TaskResult]) -> dict[str, Outcome]:
    """Each task over its epochs (invalid tasks, which never ran, by their status)."""
    by_task: dict[str, list[TaskResult]] = {}
    for r in sorted(results, key=lambda r: r.epoch):
        by_task.setdefault(r.task_id, []).append(r)
    out = {}
    for task_id, attempts in by_task.items():
        n, passed = len(attempts), sum(r.reward for r in attempts)
        failing = [r for r in attempts if r.status != "passed"]
        out[task_id] = Outcome(suite=attempts[-1].suite, status=_status(attempts), epochs=n, reward=passed / n,
                               pass_at={k: pass_at_k(n, passed, k) for k in ks_for(n)},
                               detail=(failing[-1].error or failing[-1].feedback) if failing else "")
    return out


def _status(attempts: list[TaskResult]) -> str:
    if len(attempts) == 1:
        return attempts[0].status
    passed, errors = sum(r.status == "passed" for r in attempts), sum(r.status in ("error", "invalid") for r in attempts)
    return f"{passed}/{len(attempts)} passed" + (f", {errors} error{'s' if errors > 1 else ''}" if errors else "")


def _pairs(a: list[SummaryRow], b: list[SummaryRow]) -> list[SummaryPair]:
    rows_a, rows_b = {r.group: r for r in a}, {r.group: r for r in b}
    groups = sorted(set(rows_a) | set(rows_b), key=lambda g: (g == "all", g))
    return [SummaryPair(group=g, a=rows_a.get(g), b=rows_b.get(g)) for g in groups]


def compare_runs(a: Path, b: Path) -> CompareResult:
    """Compare two run folders (each holding results.jsonl)."""
    va, vb = _load(a), _load(b)
    ra, rb = outcomes(va), outcomes(vb)
    changed = [
        ChangedTask(task_id=tid, suite=rb[tid].suite, status_a=ra[tid].status, status_b=rb[tid].status,
                    reward_a=ra[tid].reward, reward_b=rb[tid].reward, epochs_a=ra[tid].epochs,
                    epochs_b=rb[tid].epochs, pass_at_a=ra[tid].pass_at, pass_at_b=rb[tid].pass_at,
                    detail_b=rb[tid].detail)
        for tid in sorted(set(ra) & set(rb)) if (ra[tid].status, ra[tid].reward) != (rb[tid].status, rb[tid].reward)
    ]
    return CompareResult(
        run_a=Path(a), run_b=Path(b), changed=changed,
        only_a=sorted(set(ra) - set(rb)), only_b=sorted(set(rb) - set(ra)),
        by_suite=_pairs(summarize(va, "suite"), summarize(vb, "suite")),
        by_tag=_pairs(summarize(va, "tag"), summarize(vb, "tag")),
        epochs_a=_epochs(a), epochs_b=_epochs(b),
        models_a=sorted({r.model for r in va if r.model}), models_b=sorted({r.model for r in vb if r.model}),
    )


def _epochs(run_dir: Path) -> list[SuiteEpochs]:
    results = read_results(Path(run_dir) / "results.jsonl")
    return suite_epochs(task_epochs(results), results) if has_epochs(results) else []


def _print_epochs(console: Console, result: CompareResult) -> None:
    a, b = {s.suite: s for s in result.epochs_a}, {s.suite: s for s in result.epochs_b}
    table = Table(title="Epochs by suite (pass@1 = mean reward; k = epochs)")
    for col in ("suite", "pass@1 A/B", "pass@k A/B", "spread A/B"):
        table.add_column(col)
    for suite in sorted(set(a) | set(b)):
        both = (a.get(suite), b.get(suite))
        table.add_row(suite, *("/".join(cell(s) if s else "-" for s in both) for cell in _EPOCH_CELLS))
    console.print(table)


_EPOCH_CELLS = (lambda s: f"{s.pass_at[1]:.1%}", lambda s: f"@{s.n} {s.pass_at[s.n]:.1%}",
                lambda s: f"{s.spread:.3f}")


STYLES = {"passed": "green", "failed": "red", "error": "yellow", "invalid": "magenta"}


def _outcome_cell(status: str, reward: float, pass_at: dict[int, float]) -> str:
    """A single attempt's status, or 'k/n passed' with its pass@n when the task ran several epochs."""
    if status in STYLES:
        return f"[{STYLES[status]}]{status}[/]"
    colour = "green" if reward == 1 else "red" if reward == 0 else "yellow"
    n = max(pass_at)
    return f"[{colour}]{escape(status)}[/] (pass@{n} {pass_at[n]:.0%})"


def _cell(row: SummaryRow | None) -> str:
    if row is None:
        return "-"
    return f"{row.passed}/{row.tasks} ({100 * row.success_rate:.0f}%)"


def _delta(pair: SummaryPair) -> str:
    if pair.a is None or pair.b is None:
        return ""
    d = 100 * (pair.b.success_rate - pair.a.success_rate)
    colour = "green" if d > 0 else "red" if d < 0 else "dim"
    return f"[{colour}]{d:+.0f} pts[/]"


def print_compare(console: Console, result: CompareResult) -> None:
    """The comparison as rich tables: changed tasks, then the summaries side by side."""
    changed = Table(title=f"Tasks that changed outcome ({len(result.fixed)} fixed, {len(result.broken)} broken, "
                          f"{len(result.changed)} changed)")
    for col in ("task", "suite", "A", "B", "why B fails"):
        changed.add_column(col, overflow="fold")
    for c in result.changed:
        changed.add_row(c.task_id, c.suite, _outcome_cell(c.status_a, c.reward_a, c.pass_at_a),
                        _outcome_cell(c.status_b, c.reward_b, c.pass_at_b), escape(c.detail_b[:200]))
    if result.changed:
        console.print(changed)
    else:
        console.print("No task changed outcome.")
    epochs = " (every epoch an attempt: success = pass@1)" if result.epochs_a or result.epochs_b else ""
    for title, pairs in (("By suite", result.by_suite), ("By tag", result.by_tag)):
        table = Table(title=title + epochs)
        for col in ("group", f"A: {result.run_a.name} ({', '.join(result.models_a) or 'n/a'})",
                    f"B: {result.run_b.name} ({', '.join(result.models_b) or 'n/a'})", "change",
                    "errors A/B", "mean steps A/B"):
            table.add_column(col)
        for p in pairs:
            errors = f"{p.a.errors if p.a else '-'}/{p.b.errors if p.b else '-'}"
            steps = f"{p.a.mean_steps if p.a else 0:.1f}/{p.b.mean_steps if p.b else 0:.1f}"
            table.add_row(p.group, _cell(p.a), _cell(p.b), _delta(p), errors, steps)
        console.print(table)
    if result.epochs_a or result.epochs_b:
        _print_epochs(console, result)
    for label, ids in (("only in A", result.only_a), ("only in B", result.only_b)):
        if ids:
            console.print(f"{label} ({len(ids)}): {', '.join(ids)}")
