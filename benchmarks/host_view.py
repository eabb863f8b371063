"""What issue 24's world-side checks cost: the host view of /etc and /var, and the reaper.

Run (as root): .venv/bin/python benchmarks/host_view.py [--n 30]
Prints, in ms: the base's one-off scan (build_base: /etc, /var/lib, /var/cache), the per-world check
that /etc did not change since (etc_hidden_since_base: a walk of /etc's folders), and the reaper
every deskact command starts with when there is nothing to reap (reap_all).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

from deskact.runtime.world import base, reaper


def measure(n: int, fn: Callable[[], object]) -> tuple[float, float]:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[min(n - 1, round(0.95 * (n - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=30)
    n = parser.parse_args().n
    print(f"load average {os.getloadavg()[0]:.1f}")
    start = time.perf_counter()
    base.build_base()
    print(f"| build_base, once per process (scans included) | {(time.perf_counter() - start) * 1000:.0f} (one) | |")
    for label, fn in (("etc_hidden_since_base, per world", base.etc_hidden_since_base),
                      ("reap_all with nothing to reap, per command", reaper.reap_all)):
        median, p95 = measure(n, fn)
        print(f"| {label} | {median:.1f} | {p95:.1f} |")


if __name__ == "__main__":
    main()
