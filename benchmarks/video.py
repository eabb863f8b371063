"""CPU cost of the episode video: the same suite run with and without ``--record``.

    .venv/bin/python benchmarks/video.py task_suites/os_gui task_suites/editor

Each run is a real ``deskact run`` (reference model, one worker) in a child
process; the run's CPU is its process tree's user + system time as the kernel
counts it for waited-for children (``RUSAGE_CHILDREN``: the runner, its
kernels, Xvfb and the apps, and the recorders). The recorders' own CPU comes
from the ``episode.mp4.json`` each one writes. Prints a Markdown table.
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


def run(suites: list[str], out: Path, record: bool) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one ``deskact run``."""
    argv = [str(DESKACT), "run", *suites, "-m", "reference", "-w", "1", "-o", str(out)]
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
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        plain_cpu, plain_wall = run(args.suites, Path(tmp) / "plain", record=False)
        rec_cpu, rec_wall = run(args.suites, Path(tmp) / "record", record=True)
        stats = [json.loads(p.read_text()) for p in (Path(tmp) / "record").glob("trajectories/*/episode.mp4.json")]
        recorder = sum(s["cpu_s"] for s in stats)
        frames, ticks, grabs = (sum(s[k] for s in stats) for k in ("frames", "ticks", "grabs"))
        video_s = sum(s["duration_s"] for s in stats)
    print(f"suites {' '.join(args.suites)}; {len(stats)} videos; load average {os.getloadavg()[0]:.1f} at the end\n")
    print("| run | wall s | CPU s (whole tree) | recorders' CPU s | recorders / run CPU |")
    print("|---|---:|---:|---:|---:|")
    print(f"| without --record | {plain_wall:.1f} | {plain_cpu:.1f} | | |")
    print(f"| with --record | {rec_wall:.1f} | {rec_cpu:.1f} | {recorder:.2f} | {recorder / rec_cpu:.1%} |")
    print(f"\nvideo: {video_s:.0f} s recorded, {ticks} looks, {grabs} grabs, {frames} frames encoded; "
          f"recorder CPU per recorded second {recorder / max(video_s, 1e-9) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
