"""Registries of reset/cleanup steps and judges: small decorated functions.

A step's parameters come from its signature (after the ``ctx`` argument) and
are validated with pydantic when the task loads, not when it runs::

    @judge("files.exists")
    def files_exists(ctx: StepContext, path: str, kind: Literal["file", "dir"] = "file") -> Verdict:
        p = Path(path)
        if kind == "dir" and p.is_dir() or kind == "file" and p.is_file():
            return Verdict.ok()
        return Verdict.fail(f"{path} is not a {kind}" + (" (it does not exist)" if not p.exists() else ""))

Reset steps return None and raise on failure. Judges return a Verdict; a judge
that raises becomes an ``error`` verdict (counted, never dropped).
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import os
import string
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import IO, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model, model_validator

from ..errors import DeskactError
from ..world.rooted import RESOLVE_BENEATH, Root
from . import limits
from .feedback import relative_to_workspace
from .judge_server import NeedsRunner
from .step_paths import StepPath


class StepFailed(DeskactError):
    """A reset or cleanup step could not do its job; the message says what and why."""


class Verdict(BaseModel):
    """A judge's decision. ``feedback`` says which condition failed and what was found."""

    passed: bool
    feedback: str = ""
    details: dict[str, Any] = Field(default_factory=dict)
    error: bool = False
    """The judge itself failed (raised); the task counts as failed and is reported as an error."""
    judge: str = ""
    """Registered name of the judge that decided, e.g. ``files.exists``."""
    params: dict[str, Any] = Field(default_factory=dict)
    """The (expanded) parameters it was called with."""

    @classmethod
    def ok(cls, feedback: str = "", **details: Any) -> Verdict:
        return cls(passed=True, feedback=feedback, details=details)

    @classmethod
    def fail(cls, feedback: str, **details: Any) -> Verdict:
        return cls(passed=False, feedback=feedback, details=details)


@dataclass
class StepContext:
    """What a reset step or judge may use. Everything here lives on the host."""

    workspace: Path
    files: Path
    """The suite's fixture folder (read-only)."""
    home: Path
    display: str | None = None
    """X display (":12") when the task has one."""
    answer: str = ""
    """What the agent printed in its last step (for answer.* judges)."""
    services: dict[str, Any] = field(default_factory=dict)
    """Host-side handles of per-worker services, by toolkit name (e.g. the Google clients)."""
    config: Any = None
    task_id: str = ""
    gold: Path | None = None
    """The suite's ``gold/`` folder (reference files for judges); never mounted into the sandbox."""
    world: Any = None
    """The task's world (``runtime.world.World``) when it has one: run commands in it, reach its files."""
    reset_at: float | None = None
    """Wall-clock time (``time.time()``) when the reset steps ended: files changed later were changed
    by the agent (``files.stat``'s ``modified``)."""
    infeasible: str | None = None
    """Why the agent declared the task infeasible (its ``infeasible("why")``); None if it did not."""

    def path(self, value: str | Path) -> StepPath:
        """A step's path param: relative ones against the workspace, absolute ones as the agent sees
        them. Anything the agent could have touched comes back as a ``StepPath``, opened only through
        descriptors inside the world's root (or beneath the workspace without a world): an agent's
        symlink never leads out, not even one swapped in while the step runs. The suite's fixtures
        and gold files are the host's (read, never written)."""
        p = Path(value).expanduser() if self.world is None else Path(value)
        for suite_dir in (self.files, self.gold):
            if suite_dir is not None and _under(p, suite_dir):  # read beneath it: `..` never leaves it
                return StepPath(Root(str(suite_dir), RESOLVE_BENEATH, writable=False), PurePosixPath(suite_dir),
                                PurePosixPath(p))
        if self.world is not None:
            return StepPath(Root(self.world.root), PurePosixPath("/"), PurePosixPath(self.world.workspace, value))
        shown = PurePosixPath(p if p.is_absolute() else self.workspace / p)
        for base in (self.workspace, self.home):
            if str(shown) == str(base) or str(shown).startswith(str(base).rstrip("/") + "/"):
                # Compared as text on purpose: `..` stays in the path and the kernel refuses it
                # (RESOLVE_BENEATH), as it refuses a symlink that leaves the workspace.
                return StepPath(Root(str(base), RESOLVE_BENEATH), PurePosixPath(base), shown)
        # Without a world an absolute path elsewhere is the host's own file: read, never written.
        return StepPath(Root("/", 0, writable=False), PurePosixPath("/"), shown)

    def agent_path(self, path: str) -> StepPath:
        """``path()`` of a file the agent can reach (what a step may change): never the suite's files."""
        p = self.path(path)
        if not p.root.writable:
            raise StepFailed(f"{path} is one of the suite's files: steps never change those")
        return p

    def open(self, path: str, mode: str = "r") -> IO[Any]:
        """``path`` opened like ``open()`` (a regular file only), through ``path()``."""
        return self.path(path).open(mode)

    def read_bytes(self, path: str, limit: int | None = None) -> bytes:
        return self.path(path).read_bytes(limit)

    def write(self, path: str, data: bytes | str) -> None:
        """Write a file the agent may reach; a new one belongs to the world's root."""
        target = self.agent_path(path)
        owner = (self.world.uid, self.world.uid) if self.world is not None else None
        target.write_bytes(data.encode() if isinstance(data, str) else data, owner=owner)

    def remove(self, path: str) -> bool:
        """Remove a file, symlink or folder (``rm -rf``); False if nothing was there."""
        return self.agent_path(path).remove()

    def listdir(self, path: str) -> list[str]:
        return sorted(p.name for p in self.path(path).iterdir())

    def stat(self, path: str, follow_symlinks: bool = True) -> os.stat_result:
        return self.path(path).stat(follow_symlinks=follow_symlinks)

    def chmod(self, path: str, mode: int) -> None:
        self.agent_path(path).chmod(mode)

    def mkdir(self, path: str) -> None:
        """``mkdir -p``; new folders belong to the world's root."""
        owner = (self.world.uid, self.world.uid) if self.world is not None else None
        self.agent_path(path).make_dirs(owner=owner)

    def placeholders(self) -> dict[str, str]:
        return {"WORKSPACE": str(self.workspace), "FILES": str(self.files), "HOME": str(self.home)}

    def env(self) -> dict[str, str]:
        """Environment for host-side shell commands: the display and placeholders set."""
        env = dict(os.environ, **self.placeholders())
        if self.display:
            env["DISPLAY"] = self.display
        return env


def _under(path: Path, base: Path) -> bool:
    return path.is_absolute() and (path == base or base in path.parents)


PLACEHOLDERS = ("WORKSPACE", "FILES", "HOME")


def placeholder_names(text: str) -> set[str]:
    """Names used as ${NAME} in text (``$$`` escapes a dollar)."""
    names = set()
    for _, _named, braced, _ in string.Template.pattern.findall(text):
        if braced:
            names.add(braced)
    return names


def expand(value: Any, values: dict[str, str]) -> Any:
    """Replace ${WORKSPACE}, ${FILES}, ${HOME} in strings, recursively."""
    if isinstance(value, str):
        return string.Template(value).safe_substitute(values)
    if isinstance(value, list):
        return [expand(v, values) for v in value]
    if isinstance(value, dict):
        return {k: expand(v, values) for k, v in value.items()}
    return value


Kind = Literal["reset", "judge"]


@dataclass
class StepSpec:
    name: str
    kind: Kind
    func: Callable[..., Any]
    params: type[BaseModel]
    doc: str
    one_of: tuple[str, ...] = ()
    """Alternative params of which exactly one must be given."""
    live: bool = False
    """The step acts on the world's running processes (keys to a window, signals) and reads or
    touches its files only through ``ctx.path``: cleanup runs it with the world thawed, every
    other step frozen."""

    def validate(self, raw: Any) -> dict[str, Any]:
        """Check params; raises ValueError with a readable message."""
        if raw is None:
            raw = {}
        if not isinstance(raw, dict):
            raise ValueError(f"params of `{self.name}` must be a mapping, got {raw!r}")
        try:
            return self.params.model_validate(raw).model_dump(exclude_unset=True, by_alias=True)
        except ValidationError as exc:
            raise ValueError(_explain_params(self, exc)) from None

    def call(self, ctx: StepContext, params: dict[str, Any]) -> Any:
        """Expand placeholders, parse params (so the function gets typed values, e.g. a
        mode "0644" as an int, nested models as models) and call the function."""
        raw = expand(params or {}, ctx.placeholders())
        if not isinstance(raw, dict):
            raise ValueError(f"params of `{self.name}` must be a mapping, got {raw!r}")
        try:
            parsed = self.params.model_validate(raw)
        except ValidationError as exc:
            raise ValueError(_explain_params(self, exc)) from None
        return self.func(ctx, **{k: getattr(parsed, k) for k in parsed.model_fields_set})


def _explain_params(spec: StepSpec, exc: ValidationError) -> str:
    msgs = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"])
        if err["type"] == "missing":
            msgs.append(f"missing param `{loc}` for `{spec.name}`")
        elif err["type"] == "extra_forbidden":
            known = list(spec.params.model_fields)
            hint = difflib.get_close_matches(loc, known, n=1)
            extra = f"; did you mean `{hint[0]}`?" if hint else f" (known: {', '.join(known)})"
            msgs.append(f"unknown param `{loc}` for `{spec.name}`{extra}")
        elif not loc:  # a model-level check such as one_of: pydantic prefixes "Value error, "
            msgs.append(str(err["msg"]).removeprefix("Value error, "))
        else:
            msgs.append(f"param `{loc}` of `{spec.name}` = {err.get('input')!r}: {err['msg']}")
    return "; ".join(msgs)


REGISTRY: dict[Kind, dict[str, StepSpec]] = {"reset": {}, "judge": {}}


def _params_model(name: str, func: Callable[..., Any], one_of: tuple[str, ...]) -> type[BaseModel]:
    fields: dict[str, Any] = {}
    for i, param in enumerate(inspect.signature(func).parameters.values()):
        if i == 0:  # ctx
            continue
        annotation = param.annotation if param.annotation is not inspect.Parameter.empty else Any
        default = param.default if param.default is not inspect.Parameter.empty else ...
        # A Python keyword as a param (``in``) is written with a trailing underscore (``in_``).
        alias = param.name[:-1] if param.name.endswith("_") else None
        fields[param.name] = (annotation, Field(default, alias=alias) if alias else default)

    # model_validator's descriptor is what create_model takes, whatever pydantic's stub says.
    validators: dict[str, Any] = {}
    if one_of:

        def _exactly_one(self: BaseModel) -> BaseModel:
            given = [k for k in one_of if getattr(self, k) is not None]
            if len(given) != 1:
                raise ValueError(f"`{name}` needs exactly one of {', '.join(one_of)} (got {given or 'none'})")
            return self

        validators["_exactly_one"] = model_validator(mode="after")(_exactly_one)
    model_name = "Params_" + name.replace(".", "_")
    return create_model(
        model_name,
        __config__=ConfigDict(extra="forbid", arbitrary_types_allowed=True, populate_by_name=True),
        __validators__=validators,
        **fields,
    )


def _register(kind: Kind, name: str, one_of: tuple[str, ...],
              live: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        # Resolve string annotations (from __future__ import annotations) before building the model.
        func.__annotations__.update(inspect.get_annotations(func, eval_str=True))
        REGISTRY[kind][name] = StepSpec(
            name=name, kind=kind, func=func, params=_params_model(name, func, one_of),
            doc=inspect.getdoc(func) or "", one_of=one_of, live=live,
        )
        return func

    return decorate


def reset_step(name: str, *, one_of: tuple[str, ...] = (),
               live: bool = False) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a reset/cleanup step ``family.name``: ``func(ctx, **params) -> None``.

    ``live``: the step needs the world's processes running (it sends keys or signals) and touches
    none of its files; cleanup otherwise runs with the world frozen."""
    return _register("reset", name, one_of, live)


def judge(name: str, *, one_of: tuple[str, ...] = ()) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a judge ``family.name``: ``func(ctx, **params) -> Verdict``.

    ``one_of`` names alternative params of which exactly one must be given
    (e.g. ``equals``/``contains``/``regex``); checked when the task loads.
    """
    return _register("judge", name, one_of)


BUILTIN_PLUGINS = [
    "deskact.reset_scripts",
    "deskact.judges",
]
_loaded = False


def load_plugins(extra: Iterable[str] = ()) -> None:
    """Import the built-in step modules (and any extra ones) so they register."""
    global _loaded
    if not _loaded:
        for mod in BUILTIN_PLUGINS:
            importlib.import_module(mod)
        _loaded = True
    for mod in extra:
        importlib.import_module(mod)


def lookup(kind: Kind, name: str) -> StepSpec:
    load_plugins()
    specs = REGISTRY[kind]
    if name in specs:
        return specs[name]
    what = "judge" if kind == "judge" else "reset step"
    hint = difflib.get_close_matches(name, list(specs), n=1)
    other: Kind = "reset" if kind == "judge" else "judge"
    if name in REGISTRY[other]:
        raise KeyError(f"`{name}` is a {'reset step' if other == 'reset' else 'judge'}, not a {what}")
    raise KeyError(f"unknown {what} `{name}`" + (f"; did you mean `{hint[0]}`?" if hint else ""))


def run_reset(name: str, params: dict[str, Any], ctx: StepContext) -> None:
    """Run a reset, before_judge or cleanup step within ``limits.reset_seconds``; whatever it raises,
    SystemExit included, is a ``StepFailed`` for this task, never the end of the run.

    The step runs in a thread of its own while the caller waits: it changes the runner's state
    (services, displays), so it cannot run in a child process as a judge does, and a thread cannot
    be killed; past the limit the task gives up on it (the world it works in goes at cleanup).
    A Ctrl-C of the runner interrupts the wait, as before."""
    spec = lookup("reset", name)
    seconds = limits.of(ctx.config).reset_seconds
    try:
        _in_thread(lambda: spec.call(ctx, params), f"step {name}", seconds)
    except _GivenUp:
        raise StepFailed(f"reset step `{name}` ran past limits.reset_seconds = {seconds:g} s: given up") from None
    except _Exited as exited:
        exc = exited.exc
        raise StepFailed(f"reset step `{name}` raised {type(exc).__name__}: {exc}") from exc


def run_judge(name: str, params: dict[str, Any], ctx: StepContext) -> Verdict:
    """Run a judge under ``config.limits`` (in a child process of its own unless
    ``limits.isolate_judges`` is off, or when already inside a judge: a judge of judges); an
    exception or a limit crossed becomes an error verdict that names the judge.

    A judge that needs the runner's own objects (``ctx.world.run``, ``ctx.services``) runs in a
    runner thread instead, within the time limit only; it is remembered, so its later calls go
    there directly."""
    expanded = expand(params, ctx.placeholders())
    step_limits = limits.of(ctx.config)
    isolated = step_limits.isolate_judges and hasattr(os, "fork") and limits.current() is None

    def call() -> Any:
        with limits.applied(step_limits):
            return lookup("judge", name).call(ctx, params)

    try:
        spec = lookup("judge", name)  # an unknown name is reported here, without a process for it
        what = f"judge `{name}`"
        if isolated and _NEEDS_RUNNER.get(name) is not spec:
            verdict = limits.run_in_child(name, params, ctx, what, step_limits)
            if isinstance(verdict, NeedsRunner):
                _NEEDS_RUNNER[name] = spec
                verdict = _judge_in_thread(call, what, step_limits.judge_seconds)
        elif isolated:
            verdict = _judge_in_thread(call, what, step_limits.judge_seconds)
        else:
            verdict = call()
        if not isinstance(verdict, Verdict):
            raise TypeError(f"judge returned {type(verdict).__name__}, not a Verdict")
    except limits.LimitExceeded as exc:
        said = str(exc)  # run_in_child's own limits name the judge already
        verdict = Verdict(passed=False, error=True,
                          feedback=said if said.startswith(f"judge `{name}`") else f"judge `{name}` stopped: {said}")
    except limits.ChildFailed as exc:
        verdict = Verdict(passed=False, error=True, feedback=f"judge `{name}` failed: {exc}")
    except (SystemExit, KeyboardInterrupt) as exc:
        if isinstance(exc, KeyboardInterrupt) and threading.current_thread() is threading.main_thread():
            raise
        verdict = Verdict(passed=False, error=True, feedback=f"judge `{name}` failed: {type(exc).__name__}: {exc}")
    except Exception as exc:  # noqa: BLE001 - a crashing judge is reported, never dropped
        verdict = Verdict(
            passed=False, error=True,
            feedback=f"judge `{name}` failed: {type(exc).__name__}: {exc}",
        )
    verdict.judge = name
    verdict.params = expanded
    verdict.feedback = relative_to_workspace(verdict.feedback, ctx.workspace)  # as the task names its files
    return verdict


_NEEDS_RUNNER: dict[str, StepSpec] = {}
"""Judges that reached for the runner's own objects from their child (``judge_server.NeedsRunner``)."""


class _GivenUp(Exception):
    """A step's thread ran past its limit."""


class _Exited(Exception):
    """The step itself raised SystemExit or KeyboardInterrupt (not the runner's own Ctrl-C)."""

    def __init__(self, exc: BaseException) -> None:
        super().__init__(str(exc))
        self.exc = exc


def _in_thread(call: Callable[[], Any], thread_name: str, seconds: float) -> Any:
    """``call()`` in a thread of its own while the caller waits; past ``seconds`` the caller gives
    up on it (``_GivenUp``: a thread cannot be killed). What ``call`` raises is raised here, in the
    caller's thread (its SystemExit or KeyboardInterrupt as ``_Exited``, told apart from a Ctrl-C of
    the runner, which interrupts the wait)."""
    outcome: list[Any] = []
    raised: list[BaseException] = []

    def work() -> None:
        try:
            outcome.append(call())
        except BaseException as exc:  # noqa: BLE001 - raised again in the caller's thread
            raised.append(exc)

    worker = threading.Thread(target=work, name=thread_name, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise _GivenUp(thread_name)
    if raised:
        if isinstance(raised[0], (SystemExit, KeyboardInterrupt)):
            raise _Exited(raised[0])
        raise raised[0]
    return outcome[0]


def _judge_in_thread(call: Callable[[], Any], what: str, seconds: float) -> Any:
    try:
        return _in_thread(call, what, seconds)
    except _GivenUp:
        raise limits.LimitExceeded(f"{what} ran past limits.judge_seconds = {seconds:g} s: given up") from None
    except _Exited as exited:
        raise exited.exc from None  # run_judge makes it this judge's error verdict
