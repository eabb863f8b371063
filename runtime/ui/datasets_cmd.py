"""``deskact datasets``: step-level datasets made in deskact's own worlds and runs (docs/evaluation.md)."""

from __future__ import annotations

from pathlib import Path

import typer

from .consoles import output_console

app = typer.Typer(help="Make step-level evaluation datasets from worlds and runs (docs/evaluation.md).",
                  no_args_is_help=True)
console = output_console(stderr=True)


@app.command("ground")
def ground_cmd(
    out: Path = typer.Option(..., "--out", "-o", help="Writes OUT/screen (display resolution), OUT/scaled (the model's size) and OUT/report.json."),
    apps: str = typer.Option("writer,calc,impress,draw,mousepad,chromium", "--apps", help="Comma-separated apps to ground in."),
    per_app: int = typer.Option(200, "--per-app", "-n", help="Proven samples wanted per app."),
    workers: int = typer.Option(1, "--workers", "-w", help="Apps grounded at once, each on its own display."),
    seed: int = typer.Option(0, "--seed", help="Seed of the scenes' contents, the targets' order and the phrasings."),
    config: Path | None = typer.Option(None, "--config", "-c", help="Config file."),
) -> None:
    """Grounding samples (instruction, screenshot, box) from apps in worlds, each proven by clicking its box centre."""
    from ..config import load_config
    from ..evaluation.datasets.ground import generate

    try:
        report = generate(out, load_config(config), [a.strip() for a in apps.split(",") if a.strip()], per_app,
                          workers=workers, seed=seed, log=lambda line: console.print(line, markup=False))
    except ValueError as exc:  # an unknown app, named with the known ones
        console.print(f"error: {exc}", markup=False)
        raise typer.Exit(2) from None
    console.print(f"{report.proven} proven samples in {report.seconds:.0f} s -> {out / 'screen'} and {out / 'scaled'}")
    raise typer.Exit(0 if report.proven else 1)


@app.command("idm")
def idm_cmd(
    run_dirs: list[Path] = typer.Argument(..., help="Run folders (or folders holding them) recorded with --record."),
    out: Path = typer.Option(..., "--out", "-o", help="Writes OUT/idm (IDM-Single) and OUT/idm_clip (IDM-Multiple)."),
    name: str = typer.Option("deskact-idm", "--name", help="The datasets' name (dataset.yaml)."),
) -> None:
    """Cut action-labelling samples (frame before, frame after, the action) and clips from recorded episodes."""
    from ..evaluation.datasets.idm import make_idm

    counts = make_idm(run_dirs, out, name)
    console.print(f"{counts.episodes} episodes ({counts.episodes_without_log} without an input log skipped), "
                  f"{counts.actions} actions: {counts.samples} IDM-Single samples from {counts.episodes_with_samples} "
                  f"episodes -> {out / 'idm'}; {counts.clips} clips ({counts.clip_actions} actions) -> {out / 'idm_clip'}")
    for reason, n in sorted(counts.dropped.items(), key=lambda kv: -kv[1]):
        console.print(f"  dropped {n}: {reason}")
    raise typer.Exit(0 if counts.samples else 1)


@app.command("critic")
def critic_cmd(
    run_dirs: list[Path] = typer.Argument(..., help="Run folders, validate --out folders, or folders holding them."),
    out: Path = typer.Option(..., "--out", "-o", help="The critic dataset folder to write."),
    no_balance: bool = typer.Option(False, "--no-balance", help="Keep every labelled trajectory (classes unbalanced)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the balancing draw."),
    name: str = typer.Option("deskact-critic", "--name", help="The dataset's name (dataset.yaml)."),
) -> None:
    """Label trajectories by the judges' verdicts (references succeed; noop, explore, counterexamples and truncated references fail), balanced."""
    from ..evaluation.datasets.critic import make_critic

    counts = make_critic(run_dirs, out, balance=not no_balance, seed=seed, name=name)
    console.print(f"{counts.trajectories} trajectories in {counts.runs} runs: {counts.successes} successes, "
                  f"{counts.failures} failures labelled; {counts.errors} errors, "
                  f"{sum(counts.disagreed.values())} disagreeing with their source dropped {counts.disagreed or ''}")
    console.print(f"kept {counts.kept_successes} successes + {counts.kept_failures} failures -> {out} "
                  f"(by source: {counts.kept_by_source})")
    raise typer.Exit(0 if counts.kept_successes + counts.kept_failures else 1)


@app.command("truncated")
def truncated_cmd(
    paths: list[Path] = typer.Argument(..., help="Suite folders, task YAML files, or built-in suite names."),
    out: Path = typer.Option(..., "--out", "-o", help="The run folder to write (a critic source)."),
    workers: int = typer.Option(1, "--workers", "-w"),
    tasks: str | None = typer.Option(None, "--tasks", "-t", help="Only task ids matching this glob."),
    config: Path | None = typer.Option(None, "--config", "-c", help="Config file."),
) -> None:
    """Run each task's reference cut before its last effective statement (failures for the critic set)."""
    from ..config import load_config
    from ..evaluation.datasets.truncate import run_truncated

    results = run_truncated(load_config(config), [str(p) for p in paths], out, workers, tasks)
    passed = sum(r.status == "passed" for r in results)
    failed = sum(r.status == "failed" for r in results)
    console.print(f"{len(results)} truncated references: {failed} failed, {passed} still passed, "
                  f"{len(results) - passed - failed} errors -> {out}")


@app.command("import")
def import_cmd(
    fmt: str = typer.Argument(..., metavar="FORMAT", help="groundui, agentstudio-idm, agentstudio-idm-multiple, "
                              "agentstudio-critic, aitw, aitw-tfrecord, screenagent, screenagent-critic, or auto (found from the records' fields)."),
    src: Path = typer.Argument(..., metavar="SRC", help="The published file or folder (docs/evaluation.md, Loaders)."),
    out: Path = typer.Argument(..., metavar="OUT", help="The dataset folder to write; the files the samples name are copied under it."),
    name: str | None = typer.Option(None, "--name", help="The dataset's name (dataset.yaml; default: the source's)."),
) -> None:
    """Read a published step-level dataset (GroundUI, AgentStudio IDM/SuccessDetection, AITW as JSON or its TFRecords, ScreenAgent) into a dataset folder."""
    from rich.markup import escape

    from ..errors import DeskactError
    from ..evaluation.loaders import import_dataset

    try:
        info = import_dataset(None if fmt == "auto" else fmt, src, out, name)
    except DeskactError as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}", emoji=False)
        raise typer.Exit(2) from None
    console.print(f"{info.counts.get('samples', 0)} {info.kind} samples -> {out} ({escape(info.description)})", emoji=False)
