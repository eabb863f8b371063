"""A worker: the per-slot resources that tasks run on.

Each parallel slot owns its display, its toolkit services (the Google emulator)
and its warm kernel pools; nothing mutable is shared between workers. Resources
start lazily, the first time a task needs them, and stop with the worker.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
import threading
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from ...toolkits.base import ServiceContext, ServiceHandle, Toolkit, any_needs_display, load_toolkit
from ..config import Config
from ..world import reaper
from ..world.base import PACKAGE_ROOT
from .allocator import fix_malloc_thresholds


class Worker:
    def __init__(self, config: Config, worker_id: int = 0,
                 on_display: Callable[[int, Any], None] | None = None) -> None:
        fix_malloc_thresholds()  # what its tasks free goes back to the system (allocator.py says why)
        self.config = config
        self.worker_id = worker_id
        self.on_display = on_display
        """Told (worker id, display) when this worker's display starts: where a person can watch it."""
        self._stack = ExitStack()
        # Re-entrant: pool() holds it while starting the services its toolkits need (service()).
        self._lock = threading.RLock()
        self._display: Any = None
        self._display_started = False
        self._services: dict[str, ServiceHandle] = {}
        self._pools: dict[tuple[str, ...], Any] = {}
        self.state_dir = Path(tempfile.mkdtemp(prefix=f"deskact-w{worker_id}-"))
        reaper.own(self.state_dir)  # its services' mounts and files, after a kill -9
        # Sandboxed kernels run as a non-root uid and must traverse to their workspace.
        self.state_dir.chmod(0o755)
        self._stack.callback(reaper.disown, self.state_dir)
        self._stack.callback(_rmtree, self.state_dir)

    # -- toolkits -------------------------------------------------------------

    def toolkits_for(self, names: list[str], has_display: bool) -> list[Toolkit]:
        """Configured toolkits plus the task's own, in order, without duplicates.

        A configured toolkit that needs a display is left out of tasks without one:
        it has nothing to drive there, and importing it slows every kernel start.
        """
        wanted = list(dict.fromkeys([*self.config.toolkits.enabled, *names]))
        loaded = [(spec, load_toolkit(spec)) for spec in wanted]
        toolkits = [tk for spec, tk in loaded if has_display or not tk.needs_display or spec in names]
        for tk in toolkits:
            tk.load_plugins()
        return toolkits

    def service(self, toolkit: Toolkit) -> ServiceHandle | None:
        if toolkit.service is None:
            return None
        with self._lock:
            if toolkit.name not in self._services:
                ctx = ServiceContext(
                    worker_id=self.worker_id,
                    state_dir=self.state_dir / toolkit.name,
                    config=self.config,
                )
                ctx.state_dir.mkdir(parents=True, exist_ok=True)
                self._services[toolkit.name] = self._stack.enter_context(toolkit.service(ctx))
            return self._services[toolkit.name]

    # -- display --------------------------------------------------------------

    def display(self) -> Any:
        """This worker's display (started on first use), or None in display mode none."""
        with self._lock:
            if not self._display_started:
                from ..world.display import open_display

                self._display = open_display(self.config)
                if self._display is not None:
                    self._stack.callback(self._display.stop)
                    if self.on_display is not None:
                        self.on_display(self.worker_id, self._display)
                self._display_started = True
            elif self._display is not None:
                self._display.heal()  # the last task's apps may have made openbox exit
            return self._display

    def display_done(self, display: Any) -> None:
        """A task is done with this worker's display (its world is gone): reset the X server so the
        next task sees nothing of this one. A display that cannot be reset is stopped; the next
        task starts a new one."""
        with self._lock:
            if display is None or display is not self._display:
                return
            try:
                display.reset()
            except Exception:
                display.stop()
                self._display, self._display_started = None, False
                raise

    # -- kernels --------------------------------------------------------------

    def kernel_args(self, toolkits: list[Toolkit], display: Any) -> dict[str, Any]:
        """What a kernel for these toolkits gets: preload code, env, service sockets, display."""
        env: dict[str, str] = {}
        sockets: dict[str, Path] = {}
        for tk in toolkits:
            handle = self.service(tk)
            if handle is not None:
                env.update(handle.env)
                sockets.update(handle.sockets)
        for tk in toolkits:
            if tk.kernel_env is not None:
                env.update(tk.kernel_env(self.config, display))
        roots = import_roots(toolkits)
        if roots:  # a user's toolkit imported from outside the venv (an editable install, a folder)
            given = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
            env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys([*roots, *given]))
        return {
            "preload": [(tk.name, tk.preload_code()) for tk in toolkits],
            "fork_imports": [name for tk in toolkits for name in tk.fork_imports],
            "env": env,
            "sockets": sockets,
            "display": display.name if display else None,
        }

    def pool(self, toolkits: list[Toolkit], display: Any) -> Any:
        """A warm kernel pool for this set of toolkits (kernels are never reused across tasks)."""
        from ..world.kernel import KernelPool

        key = tuple(tk.name for tk in toolkits) + (display.name if display else "",)
        with self._lock:
            if key not in self._pools:
                pool = KernelPool(self.config, workspace_root=self.workspace_root(),
                                  **self.kernel_args(toolkits, display))
                self._stack.callback(pool.close)
                self._pools[key] = pool
            return self._pools[key]

    def warm(self, toolkits: list[str], display: bool) -> None:
        """Start, ahead of time, what a task with these toolkits needs: its display (if it needs
        one), its toolkits' services and its warm kernel pool. A task that then comes finds them
        running (or starting: it waits on the same locks), so a fresh worker's first task does not
        pay for them in series (the Ray backend warms each actor while it waits for its first task)."""
        shown = self.display() if display else None
        self.pool(self.toolkits_for(toolkits, has_display=shown is not None), shown)

    def workspace_root(self) -> Path:
        root = self.config.runner.workspace_root
        base = Path(root) if root else self.state_dir / "workspaces"
        base.mkdir(parents=True, exist_ok=True)
        return base

    def close(self) -> None:
        self._stack.close()

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def import_roots(toolkits: list[Toolkit]) -> list[str]:
    """The folders the host imports these toolkits' modules from, where the kernel would not find
    them by itself (not in the venv, not deskact's own): put on its PYTHONPATH, shown in its world."""
    visible = [Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(), PACKAGE_ROOT]
    roots = []
    for tk in toolkits:
        top = tk.module.split(".")[0]
        if top == "deskact":
            continue  # deskact's own kernel-side code is in every world already (and its checkout must not be)
        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError):
            continue
        if spec is None or spec.origin in (None, "built-in", "frozen"):
            continue
        where = Path(spec.origin).resolve().parent
        root = where.parent if spec.submodule_search_locations else where
        if not any(root == v or v in root.parents for v in visible):
            roots.append(str(root))
    return list(dict.fromkeys(roots))


def needs_display(visual: bool, toolkits: list[str]) -> bool:
    """Whether a task gets a display: it is visual, or one of its own toolkits drives one."""
    return visual or any_needs_display(toolkits)


def _rmtree(path: Path) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)
