"""The toolkit interface: what users implement to give agents new helpers.

A toolkit names a module whose public objects are preloaded into the agent's
kernel. Their signatures and docstrings become the model's documentation, so a
new toolkit needs no prompt editing. A toolkit may also start a local service
per worker (the Google emulator is one) and register its own reset steps and
judges by naming modules to import on the host.

Example (a complete toolkit, see README "Writing a toolkit")::

    # mypkg/weather.py
    import os, requests

    def forecast(city: str) -> dict:
        \"\"\"Tomorrow's forecast for `city`: {"high": float, "low": float}.\"\"\"
        return requests.get(f"{os.environ['WEATHER_URL']}/forecast/{city}").json()

    toolkit = Toolkit(name="weather", module="mypkg.weather", exports=["forecast"])

Enable it with ``toolkits: {enabled: [gui, "mypkg.weather:toolkit"]}`` or an
entry point in the ``deskact.toolkits`` group.
"""

from __future__ import annotations

import difflib
import importlib
import inspect
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..runtime.errors import ToolkitError
from .builtin import BUILTIN_TOOLKITS

if TYPE_CHECKING:
    from ..runtime.agent.agent import StepRecord
    from ..runtime.config import Config
    from ..runtime.tasks.steps import StepContext


@dataclass
class ServiceHandle:
    """What a running per-worker service tells the kernel and the host steps.

    ``env``: variables set in the kernel (e.g. an access token the agent may see).
    ``sockets``: env var name -> Unix socket path. The kernel session forwards a
    loopback TCP port inside the sandbox to each socket and sets the variable to
    ``http://127.0.0.1:PORT``, so the service is reachable while the network is not.
    ``host``: anything host-side reset steps and judges need (never sent to the kernel).
    ``before_task``: called before every task that lists the toolkit, ahead of its reset
    steps: the service's state back to its start (the service lives as long as the worker,
    its tasks must not see each other's data, whether or not they name a reset step).
    """

    env: dict[str, str] = field(default_factory=dict)
    sockets: dict[str, Path] = field(default_factory=dict)
    host: dict[str, Any] = field(default_factory=dict)
    before_task: Callable[[], None] | None = None


ServiceFactory = Callable[["ServiceContext"], AbstractContextManager[ServiceHandle]]
KernelEnvHook = Callable[["Config", Any], dict[str, str]]
"""(config, the task's display or None) -> variables set in each kernel the toolkit is loaded in."""
StepHook = Callable[["StepContext", "StepRecord"], None]
"""(the task's step context, the step just taken) -> None; may add to the record before it is saved."""
StepUrlHook = Callable[["StepContext"], "str | None"]
"""(the task's step context) -> the URL the task's world shows now, or None."""


@dataclass
class ServiceContext:
    """Given to a toolkit's service factory when a worker starts."""

    worker_id: int
    state_dir: Path
    """A private folder for this worker's service state."""
    config: Any
    """The effective deskact Config."""


@dataclass
class Toolkit:
    name: str
    module: str
    """Module imported in the kernel (and on the host, for documentation)."""
    exports: list[str]
    """Names from ``module`` placed in the kernel's namespace, documented for the model."""
    setup: str = ""
    """Extra code run in the kernel after the imports (e.g. configure from env vars)."""
    summary: str = ""
    """One paragraph for the system prompt before the generated API docs."""
    service: ServiceFactory | None = None
    plugins: list[str] = field(default_factory=list)
    """Host modules to import so their reset steps and judges register."""
    fork_imports: list[str] = field(default_factory=list)
    """Kernel modules the fork server may import once and share with every kernel it forks.
    Only modules whose import starts no thread, reads no environment and opens no file,
    socket or display (``module`` itself, often); the rest are imported by each kernel."""

    # What the toolkit needs from the runtime: the runtime asks these, never a toolkit's name.
    needs_display: bool = False
    """A task that names this toolkit gets a display. Enabled in the config, the toolkit is left
    out of tasks without a display: it has nothing to drive there (and would slow kernel starts)."""
    kernel_env: KernelEnvHook | None = None
    """Variables for each kernel the toolkit is loaded in, computed on the host from the config and
    the task's display (None without one): settings the kernel-side module reads at import."""
    after_step: StepHook | None = None
    """Run on the host after each of the agent's steps, before the step is saved to the trajectory."""
    step_url: StepUrlHook | None = None
    """The URL to save with each step (``StepRecord.url``): what the task's world shows after it."""

    def preload_code(self) -> str:
        names = ", ".join(self.exports)
        code = f"from {self.module} import {names}\n" if self.exports else f"import {self.module}\n"
        return code + self.setup

    def load_plugins(self) -> None:
        for mod in self.plugins:
            importlib.import_module(mod)

    def documentation(self) -> str:
        """Markdown docs generated from the exports' signatures and docstrings."""
        try:
            module = importlib.import_module(self.module)
        except Exception as exc:  # any import failure is the toolkit's
            raise ToolkitError(f"toolkit {self.name!r}: cannot import {self.module}: {exc}") from exc
        parts = [f"### Toolkit `{self.name}`"]
        if self.summary:
            parts.append(self.summary.strip())
        for name in self.exports:
            obj = getattr(module, name, None)
            if obj is None:
                raise ToolkitError(f"toolkit {self.name!r}: {self.module} has no export {name!r}")
            parts.append(describe(name, obj))
        return "\n\n".join(parts)


def _signature(obj: Callable[..., Any]) -> str:
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return "(...)"
    params = [_unquote(p) for p in sig.parameters.values() if p.name != "self"]
    ret = sig.return_annotation
    ret = _Annotation(ret) if isinstance(ret, str) else ret
    return str(sig.replace(parameters=params, return_annotation=ret))


class _Annotation:
    """Shows a string annotation (``from __future__ import annotations``) without quotes."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _unquote(param: inspect.Parameter) -> inspect.Parameter:
    if isinstance(param.annotation, str):
        return param.replace(annotation=_Annotation(param.annotation))
    return param


def describe(name: str, obj: Any) -> str:
    """Document one exported object: a function, or an object and its public methods."""
    doc = inspect.getdoc(obj) or ""
    if inspect.isfunction(obj) or inspect.isbuiltin(obj):
        return f"- `{name}{_signature(obj)}`: {doc}".rstrip(": ")
    lines = [f"- `{name}`: {doc}".rstrip(": ")]
    for attr in dir(type(obj)) if not inspect.isclass(obj) and not inspect.ismodule(obj) else dir(obj):
        if attr.startswith("_"):
            continue
        # Static lookup: a property must be documented, not evaluated (it may need a display).
        static = inspect.getattr_static(obj, attr, None)
        if isinstance(static, property):
            pdoc = (inspect.getdoc(static) or "").split("\n\n")[0].replace("\n", " ")
            lines.append(f"  - `{name}.{attr}` (attribute): {pdoc}".rstrip(": "))
            continue
        member = getattr(obj, attr, None)
        if not callable(member):
            continue
        mdoc = (inspect.getdoc(member) or "").split("\n\n")[0].replace("\n", " ")
        lines.append(f"  - `{name}.{attr}{_signature(member)}`: {mdoc}".rstrip(": "))
    return "\n".join(lines)


def load_toolkit(spec: str) -> Toolkit:
    """Resolve a name (built-in or entry point) or a ``module:attr`` path to a Toolkit."""
    target = BUILTIN_TOOLKITS.get(spec)
    if target is None and ":" not in spec:
        found = [ep for ep in entry_points(group="deskact.toolkits") if ep.name == spec]
        if not found:
            known = sorted(set(BUILTIN_TOOLKITS) | {ep.name for ep in entry_points(group="deskact.toolkits")})
            hint = difflib.get_close_matches(spec, known, n=1)
            raise ToolkitError(f"unknown toolkit {spec!r}; " + (f"did you mean {hint[0]!r}? " if hint else "")
                               + f"known: {', '.join(known)} (or use module:attr)")
        target = found[0].value
    target = target or spec
    module_name, _, attr = target.partition(":")
    try:
        obj = getattr(importlib.import_module(module_name), attr or "toolkit")
    except (ImportError, AttributeError) as exc:
        raise ToolkitError(f"toolkit {spec!r}: cannot load {target}: {exc}") from exc
    if not isinstance(obj, Toolkit):
        raise ToolkitError(f"toolkit {spec!r}: {target} is a {type(obj).__name__}, not a Toolkit")
    return obj


def any_needs_display(specs: list[str]) -> bool:
    """Whether one of these toolkits (names, entry points or module:attr) drives a display."""
    return any(load_toolkit(spec).needs_display for spec in specs)
