"""Kernel session speed: cold start (and its CPU, vs ipykernel as shipped), warm-pool ready, round trip, interrupt, recovery.

Usage: .venv/bin/python benchmarks/kernel.py [--repeat N] [--mode none|bwrap|both]

Targets (2-core machine): warm-pool ready <= 50 ms p50; `1+1` round trip
<= 10 ms p50; a `time.sleep` hang reported <= 0.5 s after its timeout; a hang
that ignores interrupts recovered (restarted and preloaded) <= 2 s after it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

import zmq
from deskact.runtime.config import Config
from deskact.runtime.world.kernel import KernelPool, KernelSession, process
from deskact.runtime.world.sandbox import sandbox_status

PRELOAD = [("bench", "import json, os, re\nREADY = True")]
HANG_TIMEOUT = 1.0


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def row(name: str, values: list[float], unit: str = "ms") -> str:
    scale = 1000 if unit == "ms" else 1
    return f"| {name} | {statistics.median(values) * scale:.1f} | {pct(values, 0.95) * scale:.1f} | {len(values)} |"


CPU_NOW = "import resource as r; u = r.getrusage(r.RUSAGE_SELF); print(u.ru_utime + u.ru_stime)"


def start_cost(mode: str, repeat: int) -> list[str]:
    """Cold start wall time and the kernel's own CPU when ready, three ways, interleaved.

    "stock" = ``python -m ipykernel_launcher`` with zmq's default 100 ms reconnect
    interval; "exec" = deskact's ``kernel.launcher`` (no debugpy, no gc during
    imports) with a 5 ms interval; "forked" = forked by the fork server into the
    sandbox (bwrap as root only). Interleaved, so all see the same machine load.
    """
    variants = {"stock": ("ipykernel_launcher", 100, False), "exec": (process.KERNEL_MODULE, 5, False)}
    if mode == "bwrap" and os.geteuid() == 0:
        variants["forked"] = (process.KERNEL_MODULE, 5, True)
    wall: dict[str, list[float]] = {name: [] for name in variants}
    cpu: dict[str, list[float]] = {name: [] for name in variants}
    try:
        for _ in range(max(5, repeat // 2)):
            for name, (module, reconnect_ms, fork) in variants.items():
                cfg = Config()
                cfg.kernel.fork_server = fork
                process.KERNEL_MODULE = module
                process.zmq_context.setsockopt(zmq.RECONNECT_IVL, reconnect_ms)
                t = time.perf_counter()
                with KernelSession(cfg, preload=PRELOAD, sandbox=mode) as s:
                    wall[name].append(time.perf_counter() - t)
                    cpu[name].append(float(s.execute(CPU_NOW, timeout=10).stdout))
    finally:
        process.KERNEL_MODULE, _, _ = variants["exec"]
        process.zmq_context.setsockopt(zmq.RECONNECT_IVL, 5)
    rows = []
    for name in variants:
        rows.append(row(f"{mode}: cold start + preload, {name}", wall[name]))
        rows.append(row(f"{mode}: kernel CPU when ready, {name}", cpu[name]))
    best = list(variants)[-1]
    rows.append(f"| {mode}: stock / {best} | {statistics.median(wall['stock']) / statistics.median(wall[best]):.2f}x wall "
                f"| {statistics.median(cpu['stock']) / statistics.median(cpu[best]):.2f}x CPU | |")
    return rows


def bench(mode: str, repeat: int) -> list[str]:
    cfg = Config()
    rows = start_cost(mode, repeat)

    with tempfile.TemporaryDirectory() as root, KernelPool(
        cfg, preload=PRELOAD, workspace_root=Path(root), sandbox=mode
    ) as pool:
        ready = []
        for _ in range(max(5, repeat // 2)):
            while not pool._ready:  # measure the warm case: a kernel is waiting
                time.sleep(0.01)
            t = time.perf_counter()
            s = pool.acquire()
            ready.append(time.perf_counter() - t)
            s.shutdown()
        rows.append(row(f"{mode}: warm-pool acquire", ready))

    with KernelSession(cfg, preload=PRELOAD, sandbox=mode) as s:
        for _ in range(20):
            s.execute("1+1", timeout=10)
        trips = []
        for _ in range(repeat * 10):
            t = time.perf_counter()
            r = s.execute("1+1", timeout=10)
            trips.append(time.perf_counter() - t)
            assert r.result == "2"
        rows.append(row(f"{mode}: `1+1` round trip", trips))

        to_idle = []
        for _ in range(repeat):
            timer = threading.Timer(0.2, s.interrupt)
            timer.start()
            r = s.execute("import time; time.sleep(100)", timeout=30)
            to_idle.append(r.duration_s - 0.2)
            timer.join()
            assert r.error is not None and r.error.ename == "KeyboardInterrupt"
        rows.append(row(f"{mode}: interrupt -> idle (time.sleep)", to_idle))

        sleep_late = []
        for _ in range(repeat):
            t = time.perf_counter()
            r = s.execute("import time; time.sleep(1e6)", timeout=HANG_TIMEOUT)
            sleep_late.append(time.perf_counter() - t - HANG_TIMEOUT)
            assert (r.status, r.restarted) == ("timeout", False)
        rows.append(row(f"{mode}: `time.sleep` hang reported after its timeout", sleep_late))

        recovered = []
        for _ in range(max(3, repeat // 2)):
            t = time.perf_counter()
            r = s.execute("import signal; signal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True: pass",
                          timeout=HANG_TIMEOUT)
            recovered.append(time.perf_counter() - t - HANG_TIMEOUT)
            assert (r.status, r.restarted) == ("timeout", True)
            assert s.execute("READY", timeout=10).result == "True"
        rows.append(row(f"{mode}: SIGINT-ignoring hang recovered (restarted + preloaded) after its timeout",
                        recovered))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--mode", choices=["none", "bwrap", "both"], default="both")
    args = parser.parse_args()
    modes = ["none", "bwrap"] if args.mode == "both" else [args.mode]
    if "bwrap" in modes and not sandbox_status()[0]:
        print(f"skipping bwrap: {sandbox_status()[1]}")
        modes.remove("bwrap")
    print("| measure | median ms | p95 ms | n |")
    print("|---|---:|---:|---:|")
    for mode in modes:
        for line in bench(mode, args.repeat):
            print(line, flush=True)


if __name__ == "__main__":
    main()
