"""How long apps.thunderbird takes to show Thunderbird in a task's world, with the warm profile
template and without.

    .venv/bin/python benchmarks/thunderbird_start.py [--repeat 3]

Resets a built-in thunderbird task as a run does (worker, world, display) and times
``TaskEnv.reset`` (the profile copied and its Local Folders written, Thunderbird started, its
3-pane window showing the Inbox, maximized, drawn and still). "cold" copies a bare profile (the
same settled prefs.js and mail, never started: what every task would pay without the template);
"warm" copies apps.thunderbird's template (started once by Thunderbird on a private Xvfb and
quit). The template itself is made once per process and timed apart. Runs alternate, so both see
the same machine load.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from app_resets import print_resets, time_resets
from deskact.reset_scripts.apps import thunderbird
from deskact.runtime.tasks.suites import SUITES_DIR
from deskact.runtime.tasks.task import Task, load_tasks

TASK = "thunderbird-flag-report"


def bare_profile() -> Path:
    """The settled prefs.js and an empty Local Folders store, never started."""
    profile = Path(tempfile.mkdtemp(prefix="deskact-thunderbird-bare-")) / "profile"
    (profile / thunderbird.LOCAL_FOLDERS).mkdir(parents=True)
    (profile / "prefs.js").write_text("".join(thunderbird.pref_line(k, v) for k, v in thunderbird.SETTLED.items()))
    return profile


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    task = next(t for t in load_tasks([str(SUITES_DIR / "thunderbird")]).tasks if t.id == TASK)
    started = time.monotonic()
    warm = thunderbird.profile_template()
    template_s = time.monotonic() - started
    bare = bare_profile()

    def mode(chosen: Path) -> Callable[[], Task]:
        def ready() -> Task:
            thunderbird.profile_template = lambda: chosen  # type: ignore[misc]
            return task
        return ready

    times = time_resets({"cold": mode(bare), "warm": mode(warm)}, args.repeat)
    print(f"template made once per process: {template_s:.1f} s")
    print_resets(times, "profile")


if __name__ == "__main__":
    main()
