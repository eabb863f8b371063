"""The ``deskact`` command. Each command is a few lines; the logic lives in its module."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console

from .. import __version__
from .errors import DeskactError

app = typer.Typer(
    help="deskact: run code-as-action computer agents in sandboxed kernels on real desktops.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
console = Console(stderr=True)

ConfigOpt = typer.Option(None, "--config", "-c", help="Config file (default: $DESKACT_CONFIG or ./config.yaml).")


def _version(value: bool) -> None:
    if value:
        print(f"deskact {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version."),
) -> None:
    """deskact: run code-as-action computer agents in sandboxed kernels on real desktops."""


def config_from(path: Optional[Path], **flags: Any) -> Any:
    """Load config; ``flags`` are dotted keys ("agent.model") set only when not None."""
    from .config import load_config

    overrides: dict[str, Any] = {}
    for dotted, value in flags.items():
        if value is None:
            continue
        section, _, key = dotted.partition("__")
        overrides.setdefault(section, {})[key] = value
    return load_config(path, overrides)


def fail(exc: DeskactError) -> None:
    console.print(f"[red]error:[/red] {exc}")
    raise typer.Exit(2)


def run() -> None:
    """Entry point that turns DeskactError into a clean message and exit code 2."""
    try:
        app()
    except DeskactError as exc:
        console.print(f"[red]error:[/red] {exc}")
        sys.exit(2)
