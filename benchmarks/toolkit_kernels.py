"""Start time of a toolkit's kernel (GUI on a display, Google with its emulator), with and without
``Toolkit.fork_imports`` (the fork server importing the toolkit's module once for all kernels).

    .venv/bin/python benchmarks/toolkit_kernels.py [--repeat 10]

Bwrap as root (kernels forked); "not shared" runs first on a fresh fork server, then "shared".
Start = the session's start() including the toolkit's preload; CPU = the kernel's own when ready.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from deskact.runtime.config import Config
from deskact.runtime.run.worker import Worker
from deskact.runtime.world.kernel import KernelSession, launch_forked

CPU_NOW = "import resource as r; u = r.getrusage(r.RUSAGE_SELF); print(u.ru_utime + u.ru_stime)"


def measure(config: Config, args: dict[str, Any], repeat: int) -> dict[str, tuple[list[float], list[float]]]:
    """"not shared" first, on a fresh fork server: once the server has imported a module, every
    later kernel has it, so the two cannot be interleaved."""
    if launch_forked._forkserver is not None:
        launch_forked._forkserver.close()
    out: dict[str, tuple[list[float], list[float]]] = {}
    for name, imports in (("not shared", []), ("shared", args["fork_imports"])):
        walls, cpus = out.setdefault(name, ([], []))
        for _ in range(repeat + 1):  # the first start also starts the server (or imports): dropped
            start = time.perf_counter()
            with KernelSession(config, **{**args, "fork_imports": imports}) as s:
                walls.append(time.perf_counter() - start)
                cpus.append(float(s.execute(CPU_NOW, timeout=10).stdout))
        del walls[0], cpus[0]
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=10)
    args = ap.parse_args()
    config = Config()
    worker = Worker(config, 0)
    try:
        cases = {
            "gui": worker.kernel_args(worker.toolkits_for([], has_display=True), worker.display()),
            "google": worker.kernel_args(worker.toolkits_for(["google"], has_display=False), None),
        }
        print("| toolkit | fork_imports | start p50 ms | start p95 ms | kernel CPU p50 ms |")
        print("|---|---|---:|---:|---:|")
        for toolkit, kernel_args in cases.items():
            for name, (walls, cpus) in measure(config, kernel_args, args.repeat).items():
                walls.sort()
                p95 = walls[min(len(walls) - 1, round(0.95 * (len(walls) - 1)))]
                print(f"| {toolkit} | {name} | {statistics.median(walls) * 1000:.0f} | {p95 * 1000:.0f} | "
                      f"{statistics.median(cpus) * 1000:.0f} |")
    finally:
        worker.close()


if __name__ == "__main__":
    main()
