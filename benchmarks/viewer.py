"""What ``deskact view`` costs per request on a large run, over real HTTP on loopback.

The run folders are the synthetic ones of benchmarks/report.py (the real
ResultsWriter/TrajectoryWriter: N tasks x S steps, a 1280x720 PNG per step).
A live page polls ``/signature`` once a second, so that is the request that
must stay cheap; the others are made when something changed or on a click.
"changed" = the run folder is read again (cache cleared before each request);
"unchanged" = the answer kept for the same signature (the run list page polls it).

    .venv/bin/python benchmarks/viewer.py --tasks 500 --steps 8 --repeat 20
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from deskact.runtime.ui.viewer import ViewerServer, runs

sys.path.insert(0, str(Path(__file__).resolve().parent))
from report import build_run, p95  # the report benchmark's synthetic runs


def timed(url: str, repeat: int, cold: bool) -> tuple[list[float], int]:
    out, size = [], 0
    for _ in range(repeat):
        if cold:
            runs._CACHE.clear()  # as after a change: the run folder is read again
        start = time.perf_counter()
        size = len(urllib.request.urlopen(url, timeout=120).read())
        out.append(time.perf_counter() - start)
    return out, size


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tasks", type=int, default=500)
    ap.add_argument("--steps", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    base = Path(tempfile.mkdtemp(prefix="deskact-bench-view-"))
    try:
        build_run(base / "a", args.tasks, args.steps)
        build_run(base / "b", args.tasks, args.steps, flip=args.tasks // 10)
        print(f"{args.tasks} tasks x {args.steps} steps per run, two runs, repeat {args.repeat}")
        with ViewerServer([base]) as server:
            for label, path in (("signature (the live poll)", "api/runs/a/signature"),
                                ("run list (2 runs)", "api/runs"),
                                ("one run: summary + task rows", "api/runs/a"),
                                ("one task: 8 steps + click points", "api/runs/a/tasks/bench-task-0001"),
                                ("compare (500 vs 500)", "api/compare?a=a&b=b")):
                cold, size = timed(server.url + path, args.repeat, cold=True)
                warm, _ = timed(server.url + path, args.repeat, cold=False)
                print(f"| {label} | {statistics.median(cold) * 1000:.1f} ms | {p95(cold) * 1000:.1f} ms "
                      f"| {statistics.median(warm) * 1000:.1f} ms | {size / 1000:.0f} kB |")
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
