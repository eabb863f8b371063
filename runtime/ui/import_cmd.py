"""``deskact import osworld|agentstudio``: other benchmarks' task files -> a deskact suite folder."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from ..errors import DeskactError

import_app = typer.Typer(help="Import other benchmarks' tasks as a deskact suite (with a report of what was not).",
                         no_args_is_help=True)
OutOpt = typer.Option(..., "--out", "-o", help="Suite folder to write (imported.yaml, gold/, import-report.md/.json).")
MirrorOpt = typer.Option(None, "--mirror", help="A mirror file (YAML/JSON): source URL -> local file or URL, one entry per URL.")
FetchOpt = typer.Option(False, "--fetch", help="Download every input file into the suite now, so it runs with no network.")
NoGoldOpt = typer.Option(False, "--no-fetch-gold", help="Do not download expected files; tasks that need one are skipped.")
DeadlineOpt = typer.Option(1800.0, "--deadline", help="Seconds all downloads of the import may take together.")
MaxBytesOpt = typer.Option(5_000_000_000, "--max-total-bytes", help="Bytes all downloads of the import may take together.")


def _options(out: Path, mirror: Path | None, fetch: bool, no_fetch_gold: bool, deadline: float, max_total_bytes: int,
             files_root: Path | None = None) -> object:
    from ..importers import ImportOptions

    return ImportOptions(out=out, mirror=mirror, fetch=fetch, fetch_gold=not no_fetch_gold, deadline=deadline,
                         max_total_bytes=max_total_bytes, files_root=files_root)


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
                out: Path = OutOpt, mirror: Path | None = MirrorOpt, fetch: bool = FetchOpt,
                no_fetch_gold: bool = NoGoldOpt, deadline: float = DeadlineOpt, max_total_bytes: int = MaxBytesOpt) -> None:
    """Convert OSWorld task JSON (config -> reset steps, evaluator -> judges)."""
    _run("osworld", path, _options(out, mirror, fetch, no_fetch_gold, deadline, max_total_bytes))


@import_app.command("agentstudio")
def agentstudio_cmd(path: Path = typer.Argument(..., help="AgentStudio's tasks folder, one task JSON, or a JSONL file."),
                    out: Path = OutOpt, no_fetch_gold: bool = NoGoldOpt,
                    files_root: Path | None = typer.Option(
                        None, "--files-root", help="The folder AgentStudio's ${AS_ROOT} named (holds data/): "
                                                   "input and gold files are copied from it.")) -> None:
    """Convert AgentStudio task JSON (reset/eval/cleanup procedures -> steps and judges)."""
    _run("agentstudio", path, _options(out, None, False, no_fetch_gold, 0, 0, files_root))
