"""CPU of a gui kernel's life against a plain kernel's: start, the first GUI call, shutdown.

    .venv/bin/python benchmarks/gui_kernel_cpu.py [--repeat 10]

As in a run: kernels forked by the fork server (bwrap as root), each in its own world when worlds
are on, on a 1920x1080 Xvfb + openbox. "plain" has no toolkit; "gui" has the gui toolkit (its
preload and ``fork_imports``) and makes one GUI call (``mouse.position()``), as every visual task's
first step does. CPU = the kernel's own plus its children's (``which`` run by an import counts)
after that call, read inside the kernel; shutdown costs both the same. The two kinds alternate, so
both see the same machine load; the first kernel of each (the fork server's imports) is dropped.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from deskact.runtime.config import Config
from deskact.runtime.run.worker import Worker
from deskact.runtime.world.kernel import KernelSession

CPU_NOW = ("import resource as r\n"
           "u, c = r.getrusage(r.RUSAGE_SELF), r.getrusage(r.RUSAGE_CHILDREN)\n"
           "print(u.ru_utime + u.ru_stime + c.ru_utime + c.ru_stime)")
FIRST_GUI_CALL = "mouse.position()"


def kernel_cpu(config: Config, args: dict[str, Any], first_call: str | None) -> tuple[float, float]:
    """Wall seconds from start to shutdown, and the kernel's CPU seconds."""
    start = time.perf_counter()
    with KernelSession(config, **args) as session:
        if first_call:
            session.execute(first_call, timeout=30)
        cpu = float(session.execute(CPU_NOW, timeout=30).stdout)
    return time.perf_counter() - start, cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=10)
    args = ap.parse_args()
    config = Config()
    worker = Worker(config, 0)
    try:
        display = worker.display()
        cases = {
            "plain": (worker.kernel_args([], None), None),
            "gui": (worker.kernel_args(worker.toolkits_for(["gui"], has_display=True), display), FIRST_GUI_CALL),
        }
        walls: dict[str, list[float]] = {name: [] for name in cases}
        cpus: dict[str, list[float]] = {name: [] for name in cases}
        for i in range(args.repeat + 1):
            for name, (kernel_args, first_call) in cases.items():
                wall, cpu = kernel_cpu(config, kernel_args, first_call)
                if i:  # the first of each kind also pays for the fork server's imports
                    walls[name].append(wall)
                    cpus[name].append(cpu)
        print("| kernel | start+call+shutdown wall p50 ms | kernel CPU p50 ms | n |")
        print("|---|---:|---:|---:|")
        for name in cases:
            print(f"| {name} | {statistics.median(walls[name]) * 1000:.0f} | "
                  f"{statistics.median(cpus[name]) * 1000:.0f} | {len(cpus[name])} |")
        ratio = statistics.median(cpus["gui"]) / statistics.median(cpus["plain"])
        print(f"| gui / plain CPU | | **{ratio:.2f}x** | |")
    finally:
        worker.close()


if __name__ == "__main__":
    main()
