"""A world's limits as a cgroup: memory, processes (threads count) and CPU.

Uses the cgroup v1 hierarchies (pids, memory, cpu) when we may make groups in
them (root on a machine that mounts them), and cgroup v2 when its root
delegates those controllers. Elsewhere there is no cgroup, and the kernel's
rlimits are the only limits (``deskact doctor`` says which).
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
_PARENT = "deskact"


@dataclass(frozen=True)
class Limits:
    memory_mb: int
    max_processes: int
    cpus: float


@lru_cache(maxsize=1)
def layout() -> tuple[str, list[Path]]:
    """("v1" | "v2" | "none", the parent groups to make world groups under)."""
    if os.geteuid() != 0:
        return "none", []
    v1 = [CGROUP_ROOT / c for c in ("pids", "memory", "cpu")]
    if all((d / "cgroup.procs").exists() for d in v1):
        parents = [d / _PARENT for d in v1]
        try:
            for parent in parents:
                parent.mkdir(exist_ok=True)
            return "v1", parents
        except OSError:
            return "none", []
    for root in (CGROUP_ROOT, CGROUP_ROOT / "unified"):
        try:
            controllers = (root / "cgroup.subtree_control").read_text().split()
        except OSError:
            continue
        if {"pids", "memory", "cpu"} <= set(controllers):
            parent = root / _PARENT
            try:
                parent.mkdir(exist_ok=True)
                (parent / "cgroup.subtree_control").write_text("+pids +memory +cpu")
                return "v2", [parent]
            except OSError:
                return "none", []
    return "none", []


def describe() -> str:
    kind, parents = layout()
    if kind == "none":
        return "no cgroup to make (not root, or no pids/memory/cpu controllers): kernel rlimits only"
    return f"cgroup {kind} ({', '.join(str(p) for p in parents)}): memory, pids and CPU per world"


FREEZER = CGROUP_ROOT / "freezer"


class WorldCgroup:
    """One world's groups. ``procs_files`` are what a process writes its pid to in order to join.

    On cgroup v1 the world also gets a freezer group: host judges run while it is frozen, so no
    process the agent left running can swap a file between a judge's path check and its read.
    Commands started while it is frozen (a judge's ``shell.output``) stay out of the freezer group.
    """

    def __init__(self, name: str, limits: Limits | None = None) -> None:
        """``limits``: make the groups and set them; None: the groups of a world that exists (to remove)."""
        self.kind, parents = layout()
        self.dirs = [parent / name for parent in parents]
        self.freezer: Path | None = None
        if self.kind == "v1" and (FREEZER / "cgroup.procs").exists():
            self.freezer = FREEZER / _PARENT / name
        self.frozen = False
        if limits is not None:
            for d in [*self.dirs, *([self.freezer] if self.freezer else [])]:
                d.mkdir(parents=True, exist_ok=True)
            self._apply(limits)
            weigh_parent()

    @property
    def procs_files(self) -> list[str]:
        """What a new process of the world joins (not the freezer while the world is frozen)."""
        groups = self.dirs if self.frozen or self.freezer is None else [*self.dirs, self.freezer]
        return [str(d / "cgroup.procs") for d in groups]

    def freeze(self, timeout: float = 5.0) -> bool:
        """Stop every process of the world (True once they all are; False without a freezer)."""
        if self.freezer is None:
            return False
        (self.freezer / "freezer.state").write_text("FROZEN")
        self.frozen = True
        deadline = time.monotonic() + timeout
        while (self.freezer / "freezer.state").read_text().strip() != "FROZEN":
            if time.monotonic() > deadline:
                return False
            time.sleep(0.001)
        return True

    def thaw(self) -> None:
        """Let the world run again (also one frozen by a process that died: the reaper's case)."""
        if self.freezer is not None and (self.freezer / "freezer.state").exists():
            (self.freezer / "freezer.state").write_text("THAWED")
        self.frozen = False

    def _apply(self, limits: Limits) -> None:
        mem = limits.memory_mb * 1024 * 1024
        period = 100_000
        quota = int(limits.cpus * period) if limits.cpus > 0 else -1
        if self.kind == "v1":
            pids, memory, cpu = self.dirs
            (pids / "pids.max").write_text(str(limits.max_processes))
            (memory / "memory.limit_in_bytes").write_text(str(mem))
            (cpu / "cpu.cfs_period_us").write_text(str(period))
            (cpu / "cpu.cfs_quota_us").write_text(str(quota))
        elif self.kind == "v2":
            (group,) = self.dirs
            (group / "pids.max").write_text(str(limits.max_processes))
            (group / "memory.max").write_text(str(mem))
            (group / "cpu.max").write_text(f"{quota if quota > 0 else 'max'} {period}")

    def pids(self) -> list[int]:
        if not self.dirs:
            return []
        try:
            return [int(p) for p in (self.dirs[0] / "cgroup.procs").read_text().split()]
        except OSError:
            return []

    def kill_all(self, wait: float = 3.0) -> None:
        """SIGKILL everything in the world (a double-forked daemon included) and wait until it is gone."""
        deadline = time.monotonic() + wait
        while pids := self.pids():
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            if time.monotonic() > deadline:
                return
            time.sleep(0.002)

    def remove(self) -> None:
        self.thaw()  # a frozen task cannot die
        self.kill_all()
        for d in [*self.dirs, *([self.freezer] if self.freezer else [])]:
            for _ in range(100):  # rmdir fails while the last exiting task is still counted
                try:
                    d.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.005)
        weigh_parent()


WEIGHT_PER_WORLD = {"v1": 1024, "v2": 100}
"""A world's CPU weight next to the host's processes: that of one ordinary (nice 0) process."""
_MAX_WEIGHT = {"v1": 262_144, "v2": 10_000}


def weigh_parent() -> None:
    """Give the deskact CPU group a weight of one ordinary process per world it holds.

    With the default weight (cpu.shares 1024, cpu.weight 100) all worlds together weigh as much
    as ONE host process: on a machine with 30 runnable host processes, a world's Chromium got a
    few percent of a core and took 12 s to start instead of 0.8 s. Each world's own group keeps
    the default weight, so worlds share the parent's time evenly. Recounted on every world made
    or removed (by any process: the count comes from the directory, so races settle on the next call).
    """
    kind, parents = layout()
    if kind == "none":
        return
    cpu_parent = parents[2] if kind == "v1" else parents[0]
    try:
        worlds = sum(1 for d in cpu_parent.iterdir() if d.is_dir())
        weight = min(_MAX_WEIGHT[kind], WEIGHT_PER_WORLD[kind] * max(1, worlds))
        (cpu_parent / ("cpu.shares" if kind == "v1" else "cpu.weight")).write_text(str(weight))
    except OSError:
        pass  # a weight is an optimisation: a world runs without it
