"""Memory of idle kernels, forked (sharing the fork server's pages) vs exec'd, in bwrap as root.

    .venv/bin/python benchmarks/kernel_memory.py [--kernels 4]

Starts N kernels each way, runs one cell in each, and reads every kernel's RSS and PSS
(proportional set size: shared pages divided among their users) from /proc/PID/smaps_rollup.
"""

from __future__ import annotations

import argparse
import os
import statistics
from pathlib import Path

from deskact.runtime.config import Config
from deskact.runtime.world.kernel import KernelSession, launch_forked
from deskact.runtime.world.sandbox import kernel_processes


def kernel_pid(session: KernelSession) -> int:
    kernel = session._kernel
    assert kernel is not None
    if kernel.forked is not None:
        return kernel.forked.pid
    # Exec'd: the one of our kernels running as the session's uid (under bwrap and setpriv).
    (pid,) = [p for p in kernel_processes(os.getpid()) if os.stat(f"/proc/{p}").st_uid == session.uid]
    return pid


def memory_mb(pid: int) -> dict[str, float]:
    fields = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        name, *rest = line.split()
        if name in ("Rss:", "Pss:"):
            fields[name.rstrip(":")] = int(rest[0]) / 1024
    return fields


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernels", type=int, default=4)
    args = ap.parse_args()
    if os.geteuid() != 0:
        raise SystemExit("kernels are forked only as root")
    print("| kernels | each RSS MB (median) | each PSS MB (median) | all PSS MB (+ fork server) |")
    print("|---|---:|---:|---:|")
    for fork in (True, False):
        config = Config()
        config.kernel.fork_server = fork
        sessions = [KernelSession(config, sandbox="bwrap").start() for _ in range(args.kernels)]
        try:
            for s in sessions:
                s.execute("x = 1", timeout=10)
            mem = [memory_mb(kernel_pid(s)) for s in sessions]
            # The fork server holds its share of the pages its kernels share: count it too.
            server = memory_mb(launch_forked._forkserver.proc.pid)["Pss"] if fork and launch_forked._forkserver else 0.0
        finally:
            for s in sessions:
                s.shutdown()
        how = "forked" if fork else "exec'd"
        print(f"| {args.kernels} {how} | {statistics.median(m['Rss'] for m in mem):.1f} | "
              f"{statistics.median(m['Pss'] for m in mem):.1f} | {sum(m['Pss'] for m in mem) + server:.1f} |")


if __name__ == "__main__":
    main()
