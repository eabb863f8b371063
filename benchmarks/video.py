"""CPU cost of the episode video: the same suite run with and without ``--record``.

    .venv/bin/python benchmarks/video.py task_suites/os_gui [--tasks 'GLOB'] [--order record-first]

Each run is a real ``deskact run`` (reference model, one worker) in a child
process; the run's CPU is its process tree's user + system time as the kernel
counts it for waited-for children (``RUSAGE_CHILDREN``: the runner, its
kernels, Xvfb and the apps, and the recorders). The recorders' CPU is measured
directly, not as the difference of two noisy totals: each ``episode.mp4.json``
holds its recorder process's own CPU since that process started (interpreter
start-up and imports included) at the episode's end, so the last episode of
each recorder process gives that process's whole cost (all but its exit).
The whole-tree difference between the two runs is printed too. Prints a
Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DESKACT = Path(sys.executable).parent / "deskact"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(suites: list[str], tasks: str | None, out: Path, record: bool) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one ``deskact run``."""
    argv = [str(DESKACT), "run", *suites, "-m", "reference", "-w", "1", "-o", str(out), "--progress", "totals"]
    if tasks:
        argv += ["--tasks", tasks]
    if record:
        argv.append("--record")
    cpu, wall = children_cpu(), time.monotonic()
    proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"deskact run failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return children_cpu() - cpu, time.monotonic() - wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("suites", nargs="+")
    parser.add_argument("--tasks", help="only task ids matching this glob (deskact run --tasks)")
    parser.add_argument("--order", choices=["plain-first", "record-first"], default="plain-first",
                        help="which run goes first (a warm page cache favours the second)")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        runs: dict[bool, tuple[float, float]] = {}
        for record in ([False, True] if args.order == "plain-first" else [True, False]):
            runs[record] = run(args.suites, args.tasks, Path(tmp) / ("record" if record else "plain"), record)
        stats = [json.loads(p.read_text()) for p in (Path(tmp) / "record").glob("trajectories/*/episode.mp4.json")]
    (plain_cpu, plain_wall), (rec_cpu, rec_wall) = runs[False], runs[True]
    episodes = sum(s["cpu_s"] for s in stats)
    processes: dict[int, dict[str, float]] = {}
    for s in stats:  # per recorder process, its stats at its last episode
        if s["process_cpu_s"] >= processes.get(s["process_id"], {}).get("process_cpu_s", -1.0):
            processes[s["process_id"]] = s
    recorders = sum(p["process_cpu_s"] for p in processes.values())
    startup = sum(p["startup_cpu_s"] for p in processes.values())
    frames, ticks, grabs = (sum(s[k] for s in stats) for k in ("frames", "ticks", "grabs"))
    video_s = sum(s["duration_s"] for s in stats)
    print(f"suites {' '.join(args.suites)}{f' --tasks {args.tasks}' if args.tasks else ''}; {len(stats)} videos "
          f"from {len(processes)} recorder process(es); {args.order}; "
          f"load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end\n")
    print("| run | wall s | CPU s (whole tree) | recorders' CPU s, whole processes (start-up) "
          "| of which episodes | recorders / run CPU |")
    print("|---|---:|---:|---:|---:|---:|")
    print(f"| without --record | {plain_wall:.1f} | {plain_cpu:.2f} | | | |")
    print(f"| with --record | {rec_wall:.1f} | {rec_cpu:.2f} | {recorders:.2f} ({startup:.2f}) | {episodes:.2f} "
          f"| {recorders / rec_cpu:.1%} |")
    print(f"\nwhole-tree difference: {rec_cpu - plain_cpu:+.2f} s ({(rec_cpu - plain_cpu) / plain_cpu:+.1%} of the run "
          f"without recording); recorders / run CPU without recording: {recorders / plain_cpu:.1%}")
    print(f"video: {video_s:.0f} s recorded, {ticks} looks, {grabs} grabs, {frames} frames encoded; "
          f"recorder CPU per recorded second {recorders / max(video_s, 1e-9) * 1000:.1f} ms (start-up included)")


if __name__ == "__main__":
    main()
