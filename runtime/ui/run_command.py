"""``deskact run``: one run per ``--model`` (each in its own folder under ``--out`` when there are
several), each with its summary and report; with several models, their comparison
(``OUT/comparison.json`` and a table)."""

from __future__ import annotations

import sys
from pathlib import Path

import typer
from pydantic import BaseModel, Field
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..config import Config
from ..errors import DeskactError
from ..run.events import RunEvent
from ..run.results import TaskResult, latest_by_attempt, read_results
from ..run.runner import RunOptions
from ..run.trajectory import safe_name
from .consoles import output_console
from .report.compare import CompareResult, compare_runs

COMPARISON_FILE = "comparison.json"


class ModelRun(BaseModel):
    """One model's run of a several-model ``deskact run``."""

    model: str
    run_dir: Path
    attempts: int
    passed: int
    errors: int
    """Errors and invalid tasks."""
    success_rate: float
    """Passed over attempts (pass@1 when tasks ran several epochs)."""


class ModelsComparison(BaseModel):
    """``OUT/comparison.json`` of ``deskact run --model A --model B ...``."""

    schema_version: int = 1
    """1 is the first version."""
    runs: list[ModelRun] = Field(default_factory=list)
    comparisons: list[CompareResult] = Field(default_factory=list)
    """Each model's run against the first model's (``deskact compare FIRST OTHER``)."""


def model_folder(out: Path, model: str) -> Path:
    return out / safe_name(model.replace("/", "-"))


def with_model(cfg: Config, model: str, temperature: float | None) -> Config:
    """The config for one model's run: agent.model, and ``--temperature`` on the model's provider."""
    cfg = cfg.model_copy(deep=True)
    cfg.agent.model = model
    if temperature is not None:
        provider, slash, _ = model.partition("/")
        if not slash:
            raise DeskactError(f"--temperature {temperature}: {model} is an offline model and samples nothing")
        cfg.providers[provider].temperature = temperature
    return cfg


def run_one(console: Console, cfg: Config, opts: RunOptions) -> int:
    """Run, print the summary, write the report; the exit code (1: stopped early or invalid tasks).
    Ctrl-C writes what finished and prints the command that completes the run, then exits 130."""
    from ..run.ray_backend import make_run
    from .progress import progress_view, resume_command
    from .views import print_summary
    from .watch import announcer, task_tracker

    out_dir = opts.out
    try:
        runner = make_run(cfg, opts, on_worker=lambda w: console.print(f"[dim]{escape(w.describe())}[/]"))
        runner.on_display = announcer(console, out_dir)  # VNC / browser addresses (display.vnc, --watch)
        runner.prepare()  # a user's mistakes (tasks, --tasks, --out, model) show before any progress
        for bad in runner.invalid:
            console.print(f"[yellow]invalid[/] {escape(str(bad))}")
        track = task_tracker(out_dir)  # watch.json names each watched worker's task
        with progress_view(console, mode=cfg.runner.progress) as show:
            def on_event(event: RunEvent) -> None:
                show(event)
                track(event)

            runner.on_event = on_event
            results = runner.execute()
    except KeyboardInterrupt:
        if (out_dir / "results.jsonl").is_file():  # interrupted after the first task started
            write_report(console, out_dir)
        console.print(f"interrupted: finished results are in {out_dir}/results.jsonl; to complete the run:\n"
                      f"  {resume_command(sys.argv[1:], str(out_dir))}", markup=False, highlight=False)
        raise typer.Exit(130) from None
    print_summary(output_console(), results)
    write_report(console, out_dir)
    print_kept_worlds(console, out_dir)
    console.print(f"results: {out_dir}/results.jsonl")
    stopped = runner.stop_message()
    if stopped:
        console.print(f"[red]error:[/red] {escape(stopped)}:\n  {escape(resume_command(sys.argv[1:], str(out_dir)))}",
                      emoji=False)
        return 1
    invalid = sum(r.status == "invalid" for r in results)
    if invalid:
        console.print(f"[red]error:[/red] {invalid} of {len(results)} tasks invalid, not run "
                      "(their errors are listed above and in results.jsonl)")
        return 1
    return 0


def compare_models(out: Path, runs: list[tuple[str, Path]]) -> ModelsComparison:
    """Every model's totals and its run compared with the first model's; written to OUT/comparison.json."""
    rows = [_model_run(model, folder) for model, folder in runs]
    first = runs[0][1]
    comparison = ModelsComparison(runs=rows, comparisons=[compare_runs(first, folder) for _, folder in runs[1:]])
    (out / COMPARISON_FILE).write_text(comparison.model_dump_json(indent=1) + "\n")
    return comparison


def _model_run(model: str, folder: Path) -> ModelRun:
    results: list[TaskResult] = list(latest_by_attempt(read_results(folder / "results.jsonl")).values())
    passed = sum(r.reward for r in results)
    return ModelRun(model=model, run_dir=folder, attempts=len(results), passed=passed,
                    errors=sum(r.status in ("error", "invalid") for r in results),
                    success_rate=passed / len(results) if results else 0.0)


def print_models(console: Console, comparison: ModelsComparison) -> None:
    table = Table(title=f"Models compared (against {comparison.runs[0].model})")
    for col in ("model", "passed", "success", "errors", "fixed", "broken", "run folder"):
        table.add_column(col, justify="left" if col in ("model", "run folder") else "right")
    changes = [None, *comparison.comparisons]
    for row, change in zip(comparison.runs, changes, strict=True):
        table.add_row(row.model, f"{row.passed}/{row.attempts}", f"{row.success_rate:.1%}", str(row.errors),
                      str(len(change.fixed)) if change else "-", str(len(change.broken)) if change else "-",
                      str(row.run_dir))
    console.print(table)


def write_report(console: Console, out_dir: Path) -> None:
    try:
        from .report import write_report as write
    except ImportError:
        return
    console.print(f"report: {write(out_dir)}")


def print_kept_worlds(console: Console, out_dir: Path) -> None:
    """Where ``--keep-worlds`` left each task's world (runner.py links them from the trajectories)."""
    links = sorted(out_dir.glob("**/trajectories/*/world"))
    for link in links:
        task = link.parent.name if len(links) == len({p.parent.name for p in links}) else link.parent
        console.print(f"world kept: {link.resolve()} (task {task})", markup=False, highlight=False)
    if links:
        console.print("(layers in DIR/disk/upper, workspace in DIR/disk/workspace; "
                      "free one with `umount DIR/disk && rm -r DIR`)", markup=False, highlight=False)
