"""What waiting for an app's window to be drawn adds to a reset (runtime/screen/drawn.py).

    .venv/bin/python benchmarks/app_drawn.py [--repeat 5]

Resets built-in tasks as a run does (worker, world, display 1920x1080) and records, for every
window a reset step opened, the seconds from its title appearing to its being drawn and still
(``wait_drawn``'s ``waited``: the time this wait adds), and whether it was drawn within the bound.
Tasks alternate, so each app sees the same machine load.
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

from deskact.reset_scripts import browser
from deskact.reset_scripts.apps import launcher, terminal
from deskact.runtime.config import Config
from deskact.runtime.run.task_env import TaskEnv
from deskact.runtime.run.worker import Worker
from deskact.runtime.screen import drawn
from deskact.runtime.tasks.suites import SUITES_DIR
from deskact.runtime.tasks.task import load_tasks

CASES = {
    "mousepad (apps.launch)": ("editor", "editor-replace-word"),
    "xterm (apps.terminal)": ("os_gui", "os-gui-win-maximize"),
    "LibreOffice Calc (apps.open)": ("office", "office-gui-calc-edit-price"),
    "LibreOffice Writer (apps.open)": ("office", "office-gui-writer-format-title"),
    "LibreOffice Impress (apps.open)": ("office", "office-gui-impress-retitle"),
    "Chromium (browser.open)": ("browser", "browser-tabs-follow-link"),
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--apps", default="", help="only the apps whose name contains this (e.g. Chromium)")
    args = ap.parse_args()
    cases = {name: case for name, case in CASES.items() if args.apps in name}
    waits: list[drawn.Settled] = []

    def recorded(*a: Any, **kw: Any) -> drawn.Settled:
        settled = drawn.wait_drawn(*a, **kw)
        waits.append(settled)
        return settled

    launcher.wait_drawn = recorded  # type: ignore[assignment]
    terminal.wait_drawn = recorded  # type: ignore[assignment]
    browser.wait_drawn = recorded  # type: ignore[assignment]
    tasks = {name: next(t for t in load_tasks([str(SUITES_DIR / suite)]).tasks if t.id == task_id)
             for name, (suite, task_id) in cases.items()}
    config = Config()
    worker = Worker(config, 0)
    added: dict[str, list[float]] = {name: [] for name in cases}
    undrawn: dict[str, int] = dict.fromkeys(cases, 0)
    try:
        for _ in range(args.repeat):
            for name, task in tasks.items():
                env = TaskEnv(task, worker)
                waits.clear()
                try:
                    env.reset()
                finally:
                    env.cleanup()
                added[name].extend(w.waited for w in waits)
                undrawn[name] += sum(not w.drawn for w in waits)
    finally:
        worker.close()
    print("| app | windows | added p50 s | added max s | not drawn within the bound |")
    print("|---|---:|---:|---:|---:|")
    for name, values in added.items():
        print(f"| {name} | {len(values)} | {statistics.median(values):.2f} | {max(values):.2f} | {undrawn[name]} |")


if __name__ == "__main__":
    main()
