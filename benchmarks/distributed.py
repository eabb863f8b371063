"""The Ray backend against the thread backend on the `os` suite, with a stand-in model.

The stand-in is the reference model waiting --latency seconds before each
reply (a real model's latency; the reference solves each os task in one code
block plus exit(), so two replies per task). For each worker count it runs the
suite with the thread backend and then with the Ray backend on a local
two-node Ray cluster (ray.cluster_utils.Cluster: a head and one more node on
this machine), and reports:

- throughput (tasks/s) and its ratio to N x the one-worker throughput of the
  same backend; machine cores busy during the run (from /proc/stat), which
  shows where the machine saturates;
- start-up: seconds from the call to execute() to the first result, and the
  cores busy until then (N Ray actors are N new processes, each importing
  deskact and starting its own fork server and kernel pool);
- Ray's own cost per task: the driver's round trip for a task minus the time
  the actor spent on it (task hand-out, result and trajectory shipping);
- memory per Ray worker: resident memory of each actor process and everything
  it started (warm kernel pool, fork server), sampled before it closes;
- a faults run: the suite on 4 single-worker nodes while 3 of them are killed
  mid-task one after another (a fresh node joins after each kill): tasks lost
  and tasks counted twice.

Both backends are timed the same way: the wall time of ``execute()``, which
loads the tasks, starts the workers (threads; or Ray actors, each with its
fork server and warm kernel pool), runs every task and closes the workers.
The thread rows run in this process, so after the first one they find its
fork server running and deskact's modules imported (as a second run in the
same notebook does); each Ray row starts new actor processes.
``--epochs E`` runs each task E times: one start-up per run, E times the tasks.

    .venv/bin/python benchmarks/distributed.py [--latency 1.0] [--workers 1,2,4,8] [--epochs 1] [--tasks 'os-*']
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import ray
from deskact.runtime.agent.models import offline
from deskact.runtime.agent.models.base import Message, ModelReply
from deskact.runtime.config import Config
from deskact.runtime.run.ray_backend import RayRun
from deskact.runtime.run.results import TaskResult, read_results
from deskact.runtime.run.runner import Run, RunOptions
from ray.cluster_utils import Cluster

sys.path.insert(0, str(Path(__file__).resolve().parent))
from runner import SUITE, machine_cpu, pct

MB = 1024 * 1024
LATENCY = 1.0


class StandIn(offline.Reference):
    """The reference model with a fixed latency per reply, like a remote model."""

    latency = LATENCY

    def reply(self, system: str, messages: list[Message]) -> ModelReply:
        time.sleep(self.latency)
        return super().reply(system, messages)


def stand_in() -> StandIn:  # pickled to every Ray actor by value (this is __main__)
    model = StandIn()
    model.latency = LATENCY
    return model


class MeasuredRayRun(RayRun):
    """Samples each actor's memory just before the actors close."""

    memory: list[int]

    def _close_actors(self, ray_mod: Any) -> None:
        started = [s.handle.memory.remote() for s in self._slots if s.info is not None]
        self.memory = ray_mod.get(started) if started else []
        super()._close_actors(ray_mod)


def options(workers: int, glob: str | None, epochs: int = 1) -> RunOptions:
    out = Path(tempfile.mkdtemp(prefix="bench-distributed-"))
    return RunOptions(paths=[str(SUITE)], model="reference", out=out, workers=workers, tasks_glob=glob,
                      epochs=epochs)


def timed(run: Run) -> dict[str, Any]:
    first: list[tuple[float, float]] = []  # (time, machine CPU) at the first result

    def on_result(result: TaskResult) -> None:
        if not first:
            first.append((time.monotonic(), machine_cpu()))

    run.on_result = on_result
    cpu, start = machine_cpu(), time.monotonic()
    results = run.execute()
    wall = time.monotonic() - start
    failed = [r.task_id for r in results if r.reward != 1]  # reported: a loaded machine may fail a timing-bound task
    first_at, first_cpu = first[0] if first else (start + wall, machine_cpu())
    return {"n": len(results), "wall": wall, "tput": len(results) / wall, "busy": (machine_cpu() - cpu) / wall,
            "failed": failed, "first": first_at - start, "first_busy": (first_cpu - cpu) / max(first_at - start, 1e-9)}


def thread_run(workers: int, glob: str | None, epochs: int) -> dict[str, Any]:
    original = offline.Reference.reply

    def slow(self: offline.Reference, system: str, messages: list[Message]) -> ModelReply:
        time.sleep(LATENCY)
        return original(self, system, messages)

    offline.Reference.reply = slow  # type: ignore[method-assign]
    try:
        return timed(Run(Config(), options(workers, glob, epochs)))
    finally:
        offline.Reference.reply = original  # type: ignore[method-assign]


def ray_run(workers: int, glob: str | None, epochs: int) -> dict[str, Any]:
    run = MeasuredRayRun(Config(), options(workers, glob, epochs), model_factory=stand_in)
    out = timed(run)
    out["cost"] = run.ray_costs
    out["memory"] = run.memory
    out["nodes"] = len({w.node_id for w in run.workers})
    return out


def faults(glob: str | None, kills: int = 3) -> str:
    """4 single-worker nodes; kill one mid-task `kills` times, adding a fresh node each time."""
    cluster = Cluster(initialize_head=True, head_node_args={
        "num_cpus": 0, "object_store_memory": 100 * MB, "include_dashboard": False})
    nodes = [cluster.add_node(num_cpus=1, object_store_memory=100 * MB) for _ in range(4)]
    ray.init(address=cluster.address, log_to_driver=False)
    cluster.wait_for_nodes()
    config = Config()
    config.runner.ray_worker_cpus = 1  # one worker per node
    opts = options(4, glob)
    run = RayRun(config, opts, model_factory=stand_in)
    killed: list[str] = []
    finished: list[list[TaskResult]] = []
    # The run goes on a thread: Ray adds nodes only from the main thread (it sets signal handlers).
    runner = threading.Thread(target=lambda: finished.append(run.execute()), daemon=True)
    start = time.monotonic()
    runner.start()
    try:
        while runner.is_alive() and len(killed) < kills:
            time.sleep(4)
            busy = {f.slot.info.node_id: f.job.task.id for f in list(run._flights.values()) if f.slot.info}
            victim = next((n for n in nodes if n.node_id in busy), None)
            if victim is None:
                continue
            killed.append(busy[victim.node_id])
            nodes.remove(victim)
            cluster.remove_node(victim, allow_graceful=False)
            nodes.append(cluster.add_node(num_cpus=1, object_store_memory=100 * MB))
        runner.join()
        wall = time.monotonic() - start
    finally:
        ray.shutdown()
        cluster.shutdown()
    (results,) = finished
    lines = read_results(opts.out / "results.jsonl")
    ids = [r.task_id for r in lines]
    expected = {t.id for t in run.tasks}
    lost = len(expected - set(ids))
    twice = len(ids) - len(set(ids))
    bad = [r.task_id for r in results if r.status != "passed"]
    return (f"faults: {len(killed)} node kills mid-task ({', '.join(killed)}), {len(expected)} tasks in "
            f"{wall:.0f} s: {lost} lost, {twice} counted twice, {len(run.retried)} rerun, "
            f"not passed: {bad or 'none'}")


def main() -> None:
    global LATENCY
    ap = argparse.ArgumentParser()
    ap.add_argument("--latency", type=float, default=1.0, help="stand-in model latency per reply (s)")
    ap.add_argument("--workers", default="1,2,4,8")
    ap.add_argument("--tasks", default=None, help="task glob (default: the whole os suite)")
    ap.add_argument("--epochs", type=int, default=1, help="run each task this many times per run")
    ap.add_argument("--no-faults", action="store_true")
    args = ap.parse_args()
    LATENCY = args.latency
    counts = [int(w) for w in args.workers.split(",")]
    load_start = os.getloadavg()[0]

    cluster = Cluster(initialize_head=True, head_node_args={
        "num_cpus": 4, "object_store_memory": 100 * MB, "include_dashboard": False})
    cluster.add_node(num_cpus=4, object_store_memory=100 * MB)
    ray.init(address=cluster.address, log_to_driver=False)
    cluster.wait_for_nodes()
    rows: dict[tuple[str, int], dict[str, Any]] = {}
    try:
        for n in counts:  # both backends per worker count, back to back: the same machine load
            rows[("thread", n)] = thread_run(n, args.tasks, args.epochs)
            rows[("ray", n)] = ray_run(n, args.tasks, args.epochs)
    finally:
        ray.shutdown()
        cluster.shutdown()

    print(f"{os.cpu_count()} cores, stand-in model latency {LATENCY:g} s per reply, {args.epochs} epoch(s), "
          f"load average at the start {load_start:.2f}, at the end {os.getloadavg()[0]:.2f}\n")
    print("| backend | workers | tasks | wall s | tasks/s | / (N x 1-worker) | cores busy | first result s | "
          "cores busy until then | Ray cost p50 ms | p95 ms | memory per worker MB (median) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for backend in ("thread", "ray"):
        one = rows[(backend, counts[0])]["tput"] / counts[0]
        for n in counts:
            r = rows[(backend, n)]
            cost = [c * 1000 for c in r.get("cost", [])]
            mem = r.get("memory") or []
            start = f"{r['first']:.1f} | {r['first_busy']:.2f}"
            print(f"| {backend}{' (' + str(r['nodes']) + ' nodes)' if 'nodes' in r else ''} | {n} | {r['n']} | "
                  f"{r['wall']:.1f} | {r['tput']:.2f} | {r['tput'] / (one * n):.2f} | {r['busy']:.2f} | {start} | "
                  f"{statistics.median(cost):.1f} | {pct(cost, 0.95):.1f} | "
                  f"{statistics.median(mem) / MB:.0f} |" if cost else
                  f"| {backend} | {n} | {r['n']} | {r['wall']:.1f} | {r['tput']:.2f} | "
                  f"{r['tput'] / (one * n):.2f} | {r['busy']:.2f} | {start} | - | - | - |")
    for (backend, n), r in rows.items():
        if r["failed"]:
            print(f"{backend}, {n} workers: not passed: {', '.join(r['failed'])}")
    print()
    if not args.no_faults:
        print(faults(args.tasks))


if __name__ == "__main__":
    main()
