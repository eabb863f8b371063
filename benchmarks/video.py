"""CPU cost of the episode video: the same suite run with and without ``--record``.

    .venv/bin/python benchmarks/video.py task_suites/os_gui [--tasks 'GLOB'] [--repeat N]

Each run is a real ``deskact run`` (reference model, one worker) in a child
process; the run's CPU is its process tree's user + system time as the kernel
counts it for waited-for children (``RUSAGE_CHILDREN``: the runner, its
kernels, Xvfb and the apps, and the recorders). The recorders' CPU is measured
directly, not as the difference of two noisy totals: each ``episode.mp4.json``
holds its recorder process's own CPU since that process started (interpreter
start-up and imports included) at the episode's end, so the last episode of
each recorder process gives that process's whole cost (all but its exit).
The whole-tree difference between the runs is printed too (medians over
``--repeat`` pairs, alternating which goes first). Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
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


def recorders(out: Path) -> dict[str, float]:
    """What the recorders of one run cost, from its ``episode.mp4.json`` files."""
    stats = [json.loads(p.read_text()) for p in out.glob("trajectories/*/episode.mp4.json")]
    processes: dict[int, dict[str, float]] = {}
    for s in stats:  # per recorder process, its stats at its last episode
        if s["process_cpu_s"] >= processes.get(s["process_id"], {}).get("process_cpu_s", -1.0):
            processes[s["process_id"]] = s
    totals = {k: float(sum(s[k] for s in stats)) for k in ("cpu_s", "frames", "ticks", "grabs", "duration_s")}
    return {**totals, "videos": len(stats), "processes": len(processes),
            "process_cpu_s": sum(p["process_cpu_s"] for p in processes.values()),
            "startup_cpu_s": sum(p["startup_cpu_s"] for p in processes.values())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("suites", nargs="+")
    parser.add_argument("--tasks", help="only task ids matching this glob (deskact run --tasks)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="pairs of runs, alternating which goes first (the first of a pair tends to differ)")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    rows: list[tuple[bool, float, float, dict[str, float]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(2 * args.repeat):
            record = (i % 2 == 1) == (i // 2 % 2 == 0)  # plain, record, record, plain, ...
            out = Path(tmp) / str(i)
            cpu, wall = run(args.suites, args.tasks, out, record)
            rows.append((record, cpu, wall, recorders(out) if record else {}))
    print(f"suites {' '.join(args.suites)}{f' --tasks {args.tasks}' if args.tasks else ''}; {args.repeat} pair(s) "
          f"of runs; load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end\n")
    print("| run | wall s | CPU s (whole tree) | recorders' CPU s, whole processes (start-up) "
          "| of which episodes | recorders / run CPU |")
    print("|---|---:|---:|---:|---:|---:|")
    for record, cpu, wall, rec in rows:
        if record:
            print(f"| with --record | {wall:.1f} | {cpu:.2f} | {rec['process_cpu_s']:.2f} ({rec['startup_cpu_s']:.2f}) "
                  f"| {rec['cpu_s']:.2f} | {rec['process_cpu_s'] / cpu:.1%} |")
        else:
            print(f"| without --record | {wall:.1f} | {cpu:.2f} | | | |")
    plain = statistics.median(cpu for record, cpu, _, _ in rows if not record)
    recorded = [(cpu, rec) for record, cpu, _, rec in rows if record]
    rec_cpu = statistics.median(cpu for cpu, _ in recorded)
    whole = statistics.median(rec["process_cpu_s"] for _, rec in recorded)
    ratio = statistics.median(rec["process_cpu_s"] / cpu for cpu, rec in recorded)
    last = recorded[-1][1]
    print(f"\nmedians: run CPU {plain:.2f} s without, {rec_cpu:.2f} s with --record (difference {rec_cpu - plain:+.2f} s, "
          f"{(rec_cpu - plain) / plain:+.1%}); recorders {whole:.2f} s = {ratio:.1%} of the run's CPU "
          f"({whole / plain:.1%} of the run without recording)")
    print(f"video (last run): {last['videos']:.0f} videos from {last['processes']:.0f} recorder process(es), "
          f"{last['duration_s']:.0f} s recorded, {last['ticks']:.0f} looks, {last['grabs']:.0f} grabs, "
          f"{last['frames']:.0f} frames encoded")


if __name__ == "__main__":
    main()
