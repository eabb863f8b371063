"""Toolkits' reset steps and judges, registered before any task that uses them is checked.

A task may name steps that a toolkit's host modules (``Toolkit.plugins``) register,
such as ``memo.seed``. Workers import those modules when they start a task, which
is too late for the loader: it checks every step name when the task loads. So the
loader imports them first, for the configured toolkits (``load_tasks(toolkits=...)``)
and for each task's own ``toolkits:``; ``run``, ``validate``, notebooks and any
backend that loads tasks through ``load_tasks`` see the registry their workers use.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterable

from ...toolkits.base import load_toolkit
from ..errors import ToolkitError

_loaded: set[str] = set()
_lock = threading.Lock()


def load_toolkit_steps(names: Iterable[str]) -> None:
    """Import the step modules of these toolkits (built-in name, entry point or ``module:attr``).

    Raises ToolkitError naming the toolkit, the module and Python's reason.
    """
    for name in names:
        with _lock:
            if name in _loaded:
                continue
            toolkit = load_toolkit(name)
            for module in toolkit.plugins:
                try:
                    importlib.import_module(module)
                except Exception as exc:
                    raise ToolkitError(f"toolkit {name!r}: cannot import its steps module {module}: "
                                       f"{type(exc).__name__}: {exc}") from exc
            _loaded.add(name)
