"""Host-side capture of one execution's output: memory held while capturing, peak with the result, time.

Usage: .venv/bin/python benchmarks/kernel_capture.py [--mb 4] [--repeat 5]

Feeds synthetic iopub stream messages (every seventh to stderr, each text a
string of its own, as a kernel's are) to the capture a ``KernelSession`` uses,
then builds the ``ExecResult``. Memory is traced with tracemalloc; the messages
are made while traced, so a message string the capture keeps counts like a copy.
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
from collections.abc import Iterator
from typing import Any

from deskact.runtime.config import Config
from deskact.runtime.world.kernel.messages import ExecuteCapture


def stream_messages(total_bytes: int, size: int) -> Iterator[dict[str, Any]]:
    body = "x" * (size - 9) + "\n"
    for i in range(total_bytes // size):
        yield {"msg_type": "stream",
               "content": {"name": "stdout" if i % 7 else "stderr", "text": f"{i:08d}" + body}}


def measure(total_bytes: int, size: int) -> tuple[float, float, float]:
    """(seconds, MB held after the last message, peak MB including the result)."""
    tracemalloc.start()
    started = time.perf_counter()
    capture = ExecuteCapture(Config())
    for msg in stream_messages(total_bytes, size):
        capture.handle(msg)
    held = tracemalloc.get_traced_memory()[0]
    capture.to_result("ok", restarted=False, duration=0.0)
    elapsed = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return elapsed, held / 1e6, peak / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=4.0, help="output per execution (default: the 4 MB capture limit)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    total = int(args.mb * 1e6)
    print("| writes | time p50 ms | held while capturing MB | peak with result MB | n |")
    print("|---|---:|---:|---:|---:|")
    for size in (4096, 100):
        runs = [measure(total, size) for _ in range(args.repeat)]
        print(f"| {args.mb:g} MB in {size}-byte writes | {statistics.median(r[0] for r in runs) * 1000:.0f} "
              f"| {statistics.median(r[1] for r in runs):.1f} | {statistics.median(r[2] for r in runs):.1f} "
              f"| {len(runs)} |")


if __name__ == "__main__":
    main()
