"""What ``deskact record`` costs while a person acts: the recorder's own CPU, idle and busy.

One xterm task is recorded in this process (runtime/record/session.py); xdotool plays the
person on the task's display (the same XTest input x11vnc gives a person's noVNC input).
Measured, with ``getrusage(RUSAGE_SELF)`` (every thread of this process: the input log's
RECORD reader, the snapshot watcher with its grabs and screenshots, the page's server) over
a window from the page's announcement to Done:

- ``idle``: nobody acts for ``--seconds``;
- ``typing``: a key every ``--key-interval`` seconds, with a click and a pause every 20 keys
  (each pause settles: a snapshot).

The display's own processes (Xvfb, x11vnc, websockify, the video recorder) are not counted:
they run the same for ``run --watch --record``.

    .venv/bin/python benchmarks/record_overhead.py --seconds 20
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

SUITE = """
tasks:
  - id: bench-record
    instruction: Type in the terminal.
    visual: true
    toolkits: [gui]
    reset:
      - apps.launch: {cmd: "xterm -T Terminal -geometry 80x24+100+100 -e bash --norc", window: Terminal}
    judge:
      - files.content: {path: "${WORKSPACE}/never.txt", equals: "x"}
    cleanup:
      - apps.kill: {name: xterm}
"""


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def measure(mode: str, seconds: float, key_interval: float, base: Path) -> dict[str, float]:
    from deskact.runtime.config import load_config
    from deskact.runtime.record.session import RecordOptions, record

    suite = base / mode / "suite"
    suite.mkdir(parents=True)
    (suite / "tasks.yaml").write_text(SUITE)
    out = base / mode / "out"
    window: dict[str, float] = {}

    def act(url: str) -> None:
        def run() -> None:
            log = next((out / "trajectories").glob("*/input.jsonl"))
            env = {"DISPLAY": json.loads(log.read_text().splitlines()[0])["display"], "PATH": "/usr/bin:/bin"}
            window["cpu0"], window["t0"] = cpu(), time.monotonic()
            keys = 0
            while time.monotonic() - window["t0"] < seconds:
                if mode == "typing":
                    if keys % 20 == 0:
                        subprocess.run(["xdotool", "mousemove", "500", "300", "click", "1"], env=env, check=False)
                        time.sleep(1.0)
                    subprocess.run(["xdotool", "key", "a"], env=env, check=False)
                    keys += 1
                    time.sleep(key_interval)
                else:
                    time.sleep(0.2)
            window["cpu1"], window["t1"] = cpu(), time.monotonic()
            urllib.request.urlopen(urllib.request.Request(url + "done", method="POST"), timeout=30)

        threading.Thread(target=run, daemon=True).start()

    outcome = record(load_config(None), RecordOptions(suite=str(suite), task_id="bench-record", out=out,
                                                      write=False), act)
    span = window["t1"] - window["t0"]
    return {"seconds": round(span, 1), "cpu_s": round(window["cpu1"] - window["cpu0"], 3),
            "cpu_pct_of_a_core": round(100 * (window["cpu1"] - window["cpu0"]) / span, 2),
            "events": outcome.events, "actions": outcome.actions}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--key-interval", type=float, default=0.15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="deskact-bench-record-") as tmp:
        for mode in ("idle", "typing"):
            print(mode, json.dumps(measure(mode, args.seconds, args.key_interval, Path(tmp))), flush=True)


if __name__ == "__main__":
    main()
