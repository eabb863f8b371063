"""``deskact import osworld|agentstudio``: other benchmarks' task files -> a deskact suite folder."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from ..errors import DeskactError

import_app = typer.Typer(help="Import other benchmarks' tasks as a deskact suite (with a report of what was not).",
                         no_args_is_help=True)
OutOpt = typer.Option(..., "--out", "-o", help="Suite folder to write (imported.yaml, gold/, import-report.md/.json).")
MirrorOpt = typer.Option(None, "--mirror", help="PREFIX=URL: fetch URLs starting with PREFIX from URL instead (repeatable).")
NoGoldOpt = typer.Option(False, "--no-fetch-gold", help="Do not download expected files; tasks that need one are skipped.")


def _options(out: Path, mirror: list[str] | None, no_fetch_gold: bool, files_root: Path | None = None) -> object:
    from ..importers import ImportOptions

    mirrors = {}
    for item in mirror or []:
        prefix, sep, url = item.partition("=")
        if not sep or not prefix or not url:
            raise typer.BadParameter(f"--mirror {item!r}: expected PREFIX=URL")
        mirrors[prefix] = url
    return ImportOptions(out=out, mirrors=mirrors, fetch_gold=not no_fetch_gold, files_root=files_root)


def _run(source: str, path: Path, opts: object) -> None:
    from ..importers.agentstudio import import_agentstudio
    from ..importers.common import REPORT_MD, SUITE_FILE
    from ..importers.osworld import import_osworld
    from .cli import fail

    console = Console(stderr=True)
    try:
        report = (import_osworld if source == "osworld" else import_agentstudio)(path, opts)  # type: ignore[arg-type]
    except DeskactError as exc:
        fail(exc)
        return
    total = len(report.converted) + len(report.skipped)
    console.print(f"{len(report.converted)}/{total} tasks converted -> {report.out}/{SUITE_FILE};"
                  f" {len(report.skipped)} not translated (why: {report.out}/{REPORT_MD})", highlight=False)


@import_app.command("osworld")
def osworld_cmd(path: Path = typer.Argument(..., help="OSWorld's evaluation_examples/examples folder, a domain folder, or one task JSON."),
                out: Path = OutOpt, mirror: list[str] | None = MirrorOpt, no_fetch_gold: bool = NoGoldOpt) -> None:
    """Convert OSWorld task JSON (config -> reset steps, evaluator -> judges)."""
    _run("osworld", path, _options(out, mirror, no_fetch_gold))


@import_app.command("agentstudio")
def agentstudio_cmd(path: Path = typer.Argument(..., help="AgentStudio's tasks folder, one task JSON, or a JSONL file."),
                    out: Path = OutOpt, mirror: list[str] | None = MirrorOpt, no_fetch_gold: bool = NoGoldOpt,
                    files_root: Path | None = typer.Option(
                        None, "--files-root", help="The folder AgentStudio's ${AS_ROOT} named (holds data/): input and gold files are copied from it.")) -> None:
    """Convert AgentStudio task JSON (reset/eval/cleanup procedures -> steps and judges)."""
    _run("agentstudio", path, _options(out, mirror, no_fetch_gold, files_root))
