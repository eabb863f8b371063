"""``deskact record SUITE --task ID``: the terminal side of a recording (runtime/record/session.py)."""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path
from typing import Literal

from rich.console import Console

from ..config import Config
from ..record.session import RecordOptions, RecordOutcome, record
from ..run.trajectory import safe_name


def default_out(config: Config, task_id: str) -> Path:
    """``runner.out`` with ``record-TASK-TIME`` for its timestamp (``runs/record-...`` by default)."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path(config.runner.out.format(timestamp=f"record-{safe_name(task_id)}-{stamp}"))


def run_record(config: Config, suite: str, task_id: str, out: Path | None, save_as: Literal["reference", "counterexample"],
               note: str, write: bool, console: Console, open_browser: bool = False,
               tree: bool | None = None) -> RecordOutcome:
    options = RecordOptions(suite=suite, task_id=task_id, out=out or default_out(config, task_id), save_as=save_as,
                            note=note, write=write, tree=tree, command=["deskact", *sys.argv[1:]])

    def announce(url: str) -> None:
        # The first line on stdout, alone, for scripts; the rest on stderr.
        print(url, flush=True)
        console.print(f"record {task_id}: open {url} in a browser on this machine, do the task, then press Done "
                      "(or Ctrl-C here).", markup=False, highlight=False, soft_wrap=True)
        if open_browser:
            import webbrowser

            webbrowser.open(url)

    outcome = record(config, options, announce)
    console.print(outcome.message, markup=False, highlight=False, soft_wrap=True)
    console.print(f"trajectory: {outcome.trajectory} (deskact view {outcome.out})", markup=False, highlight=False,
                  soft_wrap=True)
    return outcome
