"""What a task's world costs: set-up + teardown per task, a kernel's start inside one, GUI suites validated.

Usage: .venv/bin/python benchmarks/world.py [--repeat N] [--suites os_gui,editor,office] [--workers 2]
                                              [--rounds 2] [--skip-suites]

(a) ``KernelSession`` start + shutdown with ``world.enabled`` on vs off (bwrap,
    forked kernels, the same preload), interleaved; the world alone
    (``World.start`` + ``close``, no kernel) and its phases. Target: <= 50 ms
    p50 added per task.
(b) a kernel's start inside an already-made world (``session.restart()``: kill
    + fork + ready + preload; the world stays) vs the same without a world.
    Target: <= 60 ms p50.
(c) ``deskact validate -w N SUITE`` as a subprocess with DESKACT_WORLD_ENABLED=on
    and =off, per suite, ``--rounds`` times each in alternating order. Target: on
    within 10 % of off.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from deskact.runtime.config import Config
from deskact.runtime.world.kernel import KernelSession, why_exec
from deskact.runtime.world.world import World, world_status

ROOT = Path(__file__).resolve().parent.parent
PRELOAD = [("bench", "import json, os, re\nREADY = True")]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.1f} | {pct(values, 0.95) * 1000:.1f}"


def config(world: str) -> Config:
    cfg = Config()
    cfg.world.enabled = world  # type: ignore[assignment]
    cfg.sandbox.mode = "bwrap"
    return cfg


def session_cost(repeat: int) -> None:
    """(a) and (b): start, restart and shutdown of a session, world on vs off, interleaved."""
    names = ("start", "kill", "restart", "restart+kill", "shutdown", "both")
    times: dict[str, dict[str, list[float]]] = {w: {n: [] for n in names} for w in ("on", "off")}
    for i in range(repeat + 1):  # the first round warms the fork server and the world's base layer up
        for w in (("on", "off") if i % 2 else ("off", "on")):
            with tempfile.TemporaryDirectory(prefix="bench-world-") as tmp:
                t0 = time.perf_counter()
                s = KernelSession(config(w), workspace=Path(tmp), preload=PRELOAD).start()
                t1 = time.perf_counter()
                assert (s.world is not None) == (w == "on")
                for _ in range(3):  # restart() = _kill() + start(), timed apart
                    t = time.perf_counter()
                    s._kill()
                    t_kill = time.perf_counter()
                    s.start()
                    times[w]["kill"].append(t_kill - t)
                    times[w]["restart"].append(time.perf_counter() - t_kill)
                    times[w]["restart+kill"].append(time.perf_counter() - t)
                assert s.execute("READY", timeout=10).result == "True"
                t2 = time.perf_counter()
                s.shutdown()
                t3 = time.perf_counter()
            if i == 0:
                for name in ("kill", "restart", "restart+kill"):
                    del times[w][name][-3:]
                continue
            times[w]["start"].append(t1 - t0)
            times[w]["shutdown"].append(t3 - t2)
            times[w]["both"].append(t1 - t0 + t3 - t2)
    print(f"n = {repeat} sessions per side ({3 * repeat} restarts), interleaved; kernels "
          f"{'forked' if why_exec(config('on')) is None else 'exec: ' + str(why_exec(config('on')))}\n")
    print("| measure | world on p50 ms | p95 ms | world off p50 ms | p95 ms | added p50 ms |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, label in (("both", "**session start + shutdown (per task)**"), ("start", "start (world + kernel + preload)"),
                        ("shutdown", "shutdown"),
                        ("restart", "**kernel start in a made world** (fork + ready + preload)"),
                        ("kill", "kernel kill (world stays)"), ("restart+kill", "`restart()` (kill + start)")):
        on, off = times["on"][name], times["off"][name]
        added = (statistics.median(on) - statistics.median(off)) * 1000
        print(f"| {label} | {ms(on)} | {ms(off)} | {added:+.1f} |")


def world_alone(repeat: int) -> None:
    """The world without a kernel: where its set-up and teardown time goes."""
    phases: dict[str, list[float]] = {"layers": [], "launch": [], "start": [], "close": []}
    cfg = config("on")
    with tempfile.TemporaryDirectory(prefix="bench-world-alone-") as tmp:
        for i in range(repeat + 1):
            ws, priv = Path(tmp, f"ws{i}"), Path(tmp, f"p{i}")
            ws.mkdir()
            priv.mkdir()
            w = World(cfg, workspace=ws, private_dir=priv)
            os.chown(priv, w.uid, w.uid)
            t0 = time.perf_counter()
            w._build_layers()
            t1 = time.perf_counter()
            w._launch(20)
            t2 = time.perf_counter()
            w.close()
            t3 = time.perf_counter()
            if i:
                phases["layers"].append(t1 - t0)
                phases["launch"].append(t2 - t1)
                phases["start"].append(t2 - t0)
                phases["close"].append(t3 - t2)
    print("\n| World alone (no kernel) | p50 ms | p95 ms |")
    print("|---|---:|---:|")
    for name, label in (("layers", "layers: user namespace, tmpfs, 5 idmapped overlays, workspace bind, cgroup"),
                        ("launch", "launch: bwrap + placeholder ready"), ("start", "start (both)"),
                        ("close", "close: kill, unmount, cgroup rmdir, rm")):
        print(f"| {label} | {ms(phases[name])} |")


def suites(names: list[str], workers: int, rounds: int) -> None:
    """(c) deskact validate per suite, world on vs off, ``rounds`` times each in alternating order."""
    print(f"\n{rounds} rounds per suite and mode, order alternating (on/off, off/on, ...); wall seconds:\n")
    print("| suite | world on s (each round) | world off s (each round) | on / off (sums) |")
    print("|---|---:|---:|---:|")
    total = {"on": 0.0, "off": 0.0}
    for name in names:
        wall: dict[str, list[float]] = {"on": [], "off": []}
        for r in range(rounds):
            for w in (("on", "off") if r % 2 == 0 else ("off", "on")):
                env = {**os.environ, "DESKACT_WORLD_ENABLED": w}
                t = time.monotonic()
                proc = subprocess.run([str(ROOT / ".venv/bin/deskact"), "validate", "-w", str(workers),
                                       str(ROOT / "task_suites" / name)], env=env, capture_output=True, text=True,
                                      check=False)
                wall[w].append(time.monotonic() - t)
                verdict = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit {proc.returncode}"
                if proc.returncode:
                    print(f"<!-- {name} world {w}: exit {proc.returncode}: {proc.stderr.strip()[-2000:]} -->")
                print(f"<!-- {name} world {w}: {wall[w][-1]:.1f} s, {verdict} -->", flush=True)
        on, off = sum(wall["on"]), sum(wall["off"])
        total["on"] += on
        total["off"] += off
        print(f"| {name} | {' / '.join(f'{v:.1f}' for v in wall['on'])} | "
              f"{' / '.join(f'{v:.1f}' for v in wall['off'])} | {on / off:.2f} |", flush=True)
    print(f"| **all** | {total['on']:.1f} | {total['off']:.1f} | {total['on'] / total['off']:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--suites", default="os_gui,editor,office")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--skip-suites", action="store_true")
    args = parser.parse_args()
    ok, why = world_status()
    if not ok:
        sys.exit(f"no worlds on this machine: {why}")
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start; {why}\n")
    session_cost(args.repeat)
    world_alone(args.repeat)
    if not args.skip_suites:
        suites(args.suites.split(","), args.workers, args.rounds)
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
