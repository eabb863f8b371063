"""Task suites: the YAML task format, its loader and its JSON Schema.

A suite is a folder under ``task_suites/`` with YAML files and a ``files/``
folder of fixtures (``gold/`` holds judge-only files the agent never sees).
A YAML file holds one task, or a list under ``tasks:`` with optional
``defaults:`` merged into each. Loading never stops at the first broken task:
each problem becomes an ``InvalidTask`` naming file, line, task id and field.
"""

from __future__ import annotations

import difflib
import json
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .. import safe_yaml
from ..errors import TaskError, ToolkitError
from . import steps
from .toolkit_steps import load_toolkit_steps

SUITES_DIR = Path(__file__).resolve().parents[2] / "task_suites"
MAX_ID_LENGTH = 200


class Step(BaseModel):
    """One reset/judge/cleanup step: ``family.name: {params}`` in YAML."""

    name: str
    params: dict[str, Any] = Field(default_factory=dict)
    line: int | None = None

    def to_yaml(self) -> dict[str, Any]:
        return {self.name: self.params}


class Counterexample(BaseModel):
    """A wrong solution (code, like ``reference``) that must get reward 0; a bare string is its code."""

    model_config = ConfigDict(extra="forbid")

    code: str
    note: str = ""
    """What is wrong with it (shown when it passes), e.g. ``copies instead of moving``."""

    @model_validator(mode="before")
    @classmethod
    def _from_code(cls, value: Any) -> Any:
        return {"code": value} if isinstance(value, str) else value


class Task(BaseModel):
    """A task as written in YAML (the public contract), plus where it came from."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    id: str
    """Unique across all suites, e.g. ``os-make-reports-folder``."""
    instruction: str
    """What the agent is asked to do; ${WORKSPACE}, ${FILES}, ${HOME} are expanded."""
    visual: bool = False
    """Send screenshots to the model (and give the task a display)."""
    max_steps: int | None = None
    """Step limit; null = config agent.max_steps."""
    max_time: float | None = None
    """Wall-clock limit for the episode in seconds; null = config agent.max_time."""
    toolkits: list[str] = Field(default_factory=list)
    """Toolkits this task needs besides the configured ones (e.g. [gui], [google])."""
    tags: list[str] = Field(default_factory=list)
    reset: list[Step] = Field(default_factory=list)
    """Host-side steps run before the agent starts."""
    before_judge: list[Step] = Field(default_factory=list)
    """Host-side steps run after the agent ends and before the judges (e.g. apps.save)."""
    judge: list[Step]
    """Host-side judges run after the agent ends; reward 1 only if all pass."""
    cleanup: list[Step] = Field(default_factory=list)
    """Steps that always run at the end, even after errors or Ctrl-C."""
    reference: str | None = None
    """A solution: what the ``reference`` model replies with."""
    counterexamples: list[Counterexample] = Field(default_factory=list)
    """Wrong solutions that must get reward 0 (``deskact validate`` runs each one)."""
    imported_from: str | None = None
    """Set by ``deskact import``: the source task (e.g. ``osworld:os/<uuid>``); such a task has no
    reference until someone writes one, and ``deskact validate`` says so."""

    @field_validator("id")
    @classmethod
    def _path_safe_id(cls, value: str) -> str:
        # The id names the task's trajectory folder: it must be one folder, and a readable one.
        if not value.strip():
            raise ValueError("a task id must not be empty")
        if value in (".", "..") or any(c in value for c in "/\\") or not value.isprintable():
            raise ValueError("a task id must be one path segment: no `/`, `\\`, control characters, `.` or `..`")
        if len(value) > MAX_ID_LENGTH:
            raise ValueError(f"a task id must be at most {MAX_ID_LENGTH} characters")
        return value

    @field_validator("max_steps", "max_time")
    @classmethod
    def _positive_finite(cls, value: float | None) -> float | None:
        if value is not None and (not math.isfinite(value) or value <= 0):
            raise ValueError("must be a positive, finite number (null for the config's default)")
        return value

    suite: str = ""
    """Set by the loader: the suite folder's name."""
    source: str = ""
    """Set by the loader: file:line of the task."""
    suite_dir: str = ""
    """Set by the loader: the suite folder (holds files/ and gold/)."""

    @property
    def files_dir(self) -> Path:
        return Path(self.suite_dir) / "files"

    @property
    def gold_dir(self) -> Path:
        return Path(self.suite_dir) / "gold"


class InvalidTask(BaseModel):
    """A task that failed to load. In a run it is reported as ``invalid``, never dropped."""

    file: str
    line: int | None = None
    task_id: str | None = None
    suite: str = ""
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        who = f" task `{self.task_id}`" if self.task_id else ""
        return f"{where}:{who} {self.message}"


class LoadResult(BaseModel):
    tasks: list[Task] = Field(default_factory=list)
    invalid: list[InvalidTask] = Field(default_factory=list)


# --- YAML with line numbers -------------------------------------------------


class _LineDict(dict[Any, Any]):
    line: int = 0
    key_lines: dict[str, int]


class _LineLoader(safe_yaml.SafeLoader):
    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> _LineDict:
        mapping = _LineDict(super().construct_mapping(node, deep=True))
        mapping.line = node.start_mark.line + 1
        mapping.key_lines = {str(k.value): k.start_mark.line + 1 for k, _ in node.value}
        return mapping


_LineLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _LineLoader.construct_mapping
)


def _line_of(mapping: Any, key: str | None = None) -> int | None:
    if not isinstance(mapping, _LineDict):
        return None
    if key is not None and key in mapping.key_lines:
        return mapping.key_lines[key]
    return mapping.line


# --- parsing ----------------------------------------------------------------

_TASK_FIELDS = [n for n in Task.model_fields if n not in ("suite", "source", "suite_dir")]


def _parse_steps(raw: Any, field: str, kind: steps.Kind, errors: list[_FieldError]) -> list[Step]:
    """The valid steps of ``field``; each broken one adds its error to ``errors``."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise ValueError(f"field `{field}` must be a list of steps, got {type(raw).__name__}")
    out = []
    for i, item in enumerate(raw):
        where = f"{field}[{i}]"
        if isinstance(item, str):
            item = {item: {}}
        if not isinstance(item, dict) or len(item) != 1:
            errors.append(_FieldError(f"{where} must be a one-key mapping `family.name: {{params}}`, got {item!r}",
                                      _line_of(raw)))
            continue
        (name, params), = item.items()
        try:
            spec = steps.lookup(kind, str(name))
            clean = spec.validate(params)
        except (KeyError, ValueError) as exc:
            msg = exc.args[0] if exc.args else str(exc)
            errors.append(_FieldError(f"{where}: {msg}", _line_of(item)))
            continue
        out.append(Step(name=str(name), params=clean, line=_line_of(item)))
    return out


class _FieldError(ValueError):
    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.line = line


class _TaskErrors(ValueError):
    """Every problem of one task (a user fixes them all in one go), in line order."""

    def __init__(self, errors: list[_FieldError]) -> None:
        self.errors = sorted(errors, key=lambda e: e.line or 0)
        super().__init__(str(self.errors[0]))
        self.line = self.errors[0].line


def _check_placeholders(value: Any, where: str) -> None:
    if isinstance(value, str):
        unknown = steps.placeholder_names(value) - set(steps.PLACEHOLDERS)
        if unknown:
            name = sorted(unknown)[0]
            hint = difflib.get_close_matches(name, steps.PLACEHOLDERS, n=1)
            raise ValueError(
                f"{where}: unknown placeholder ${{{name}}}"
                + (f"; did you mean ${{{hint[0]}}}?" if hint else f" (known: {', '.join(steps.PLACEHOLDERS)})")
            )
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _check_placeholders(v, f"{where}[{i}]")
    elif isinstance(value, dict):
        for k, v in value.items():
            _check_placeholders(v, f"{where}.{k}")


def _load_task_toolkits(names: Any, line: int | None, errors: list[_FieldError]) -> None:
    """The task's own toolkits register their steps before its steps are looked up."""
    for name in names if isinstance(names, list) else []:
        try:
            load_toolkit_steps([str(name)])
        except ToolkitError as exc:
            errors.append(_FieldError(f"toolkits: {exc}", line))


def parse_task(raw: Any, suite_dir: Path, file: Path, defaults: dict[str, Any] | None = None) -> Task:
    """Build one Task from its YAML mapping; raises _TaskErrors naming every broken field."""
    if not isinstance(raw, dict):
        raise ValueError(f"a task must be a mapping, got {type(raw).__name__}")
    errors: list[_FieldError] = []
    hinted: set[str] = set()  # `instrution` already says `instruction` is missing
    data: dict[str, Any] = {**(defaults or {}), **raw}
    for key in list(data):
        if key not in _TASK_FIELDS:
            hint = difflib.get_close_matches(key, _TASK_FIELDS, n=1)
            hinted.update(hint)
            errors.append(_FieldError(
                f"unknown field `{key}`" + (f"; did you mean `{hint[0]}`?" if hint else ""), _line_of(raw, key)
            ))
            del data[key]
    _load_task_toolkits(data.get("toolkits"), _line_of(raw, "toolkits"), errors)
    judge_errors = 0
    for field, kind in (("reset", "reset"), ("before_judge", "reset"), ("judge", "judge"), ("cleanup", "reset")):
        before = len(errors)
        try:
            data[field] = _parse_steps(data.get(field), field, kind, errors)  # type: ignore[arg-type]
        except ValueError as exc:
            errors.append(_FieldError(str(exc), _line_of(raw, field)))
            data[field] = []
        if field == "judge":
            judge_errors = len(errors) - before
    if not data.get("judge") and not judge_errors:
        errors.append(_FieldError("field `judge` needs at least one judge (a task must be checkable)", _line_of(raw)))
    for field in ("instruction", "reference"):
        try:
            _check_placeholders(data.get(field), field)
        except ValueError as exc:
            errors.append(_FieldError(str(exc), _line_of(raw, field)))
    for i, example in enumerate(data.get("counterexamples") or []):
        try:
            _check_placeholders(example.get("code") if isinstance(example, dict) else example, f"counterexamples[{i}]")
        except ValueError as exc:
            errors.append(_FieldError(str(exc), _line_of(raw, "counterexamples")))
    for field in ("reset", "before_judge", "judge", "cleanup"):
        for i, step in enumerate(data[field]):
            try:
                _check_placeholders(step.params, f"{field}[{i}] `{step.name}`")
            except ValueError as exc:
                errors.append(_FieldError(str(exc), step.line))
    data.update(
        suite=suite_dir.name,
        suite_dir=str(suite_dir),
        source=f"{file}:{_line_of(raw) or 1}",
    )
    try:
        task = Task.model_validate(data)
    except ValidationError as exc:
        for err in exc.errors():
            field = ".".join(str(p) for p in err["loc"])
            if err["type"] == "missing" and field in hinted:
                continue
            what = (f"missing field `{field}`" if err["type"] == "missing"
                    else f"field `{field}` = {err.get('input')!r}: {err['msg']}")
            errors.append(_FieldError(what, _line_of(raw, str(err["loc"][0]))))
    if errors:
        raise _TaskErrors(errors)
    return task


def load_file(file: Path, suite_dir: Path | None = None) -> LoadResult:
    """Load the tasks in one YAML file; problems become InvalidTask entries."""
    suite_dir = suite_dir or _suite_dir_of(file)
    result = LoadResult()
    try:
        doc = safe_yaml.load_file(file, loader=_LineLoader)
    except UnicodeDecodeError as exc:
        result.invalid.append(InvalidTask(file=str(file), suite=suite_dir.name, message=f"not UTF-8 text: {exc}"))
        return result
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        result.invalid.append(
            InvalidTask(file=str(file), line=mark.line + 1 if mark else None, suite=suite_dir.name,
                        message=f"not valid YAML: {getattr(exc, 'problem', exc)}")
        )
        return result
    except OSError as exc:
        raise TaskError(f"{file}: cannot read: {exc}") from None
    if doc is None:
        return result
    if isinstance(doc, dict) and "tasks" in doc:
        defaults = doc.get("defaults") or {}
        extra = set(doc) - {"tasks", "defaults"}
        if extra:
            result.invalid.append(InvalidTask(file=str(file), line=_line_of(doc, sorted(extra)[0]),
                                              suite=suite_dir.name,
                                              message=f"unknown top-level key `{sorted(extra)[0]}` (expected tasks, defaults)"))
        raw_tasks = doc["tasks"] or []
        if not isinstance(raw_tasks, list):
            result.invalid.append(InvalidTask(file=str(file), line=_line_of(doc, "tasks"), suite=suite_dir.name,
                                              message="`tasks` must be a list"))
            return result
    else:
        defaults, raw_tasks = {}, [doc]
    for raw in raw_tasks:
        task_id = raw.get("id") if isinstance(raw, dict) else None
        try:
            result.tasks.append(parse_task(raw, suite_dir, file, defaults))
        except ValueError as exc:
            line = getattr(exc, "line", None) or _line_of(raw)
            more = [f"\n  {file}:{e.line or line}: {e}" for e in getattr(exc, "errors", [])[1:]]
            result.invalid.append(
                InvalidTask(file=str(file), line=line, task_id=task_id, suite=suite_dir.name,
                            message=str(exc) + "".join(more))
            )
    return result


def _suite_dir_of(file: Path) -> Path:
    """A task file's suite is the nearest folder above it that is not files/ or gold/."""
    return file.resolve().parent


def load_tasks(paths: Iterable[str | Path], toolkits: Iterable[str] = ()) -> LoadResult:
    """Load suite folders (recursively: a folder of suites works too) and/or YAML files.

    A bare name that is no existing path is a built-in suite (``os`` = task_suites/os).

    Checks that task ids are unique across everything loaded. ``toolkits`` (the config's
    ``toolkits.enabled``) register their reset steps and judges first; a task's own
    ``toolkits:`` do so before its steps are checked.
    """
    from .suites import resolve_suite_path  # suites.py imports this module

    load_toolkit_steps(toolkits)
    result = LoadResult()
    for path in paths:
        path = resolve_suite_path(path)
        if path.is_file():
            part = load_file(path)
        elif path.is_dir():
            part = LoadResult()
            for file in sorted(path.rglob("*.y*ml")):
                if file.suffix not in (".yaml", ".yml") or {"files", "gold"} & set(file.relative_to(path).parts):
                    continue
                sub = load_file(file, file.resolve().parent)
                part.tasks += sub.tasks
                part.invalid += sub.invalid
        else:
            raise TaskError(f"{path}: no such suite folder or task file")
        result.tasks += part.tasks
        result.invalid += part.invalid
    seen: dict[str, Task] = {}
    unique = []
    for task in result.tasks:
        if task.id in seen:
            result.invalid.append(InvalidTask(
                file=task.source.rsplit(":", 1)[0], line=int(task.source.rsplit(":", 1)[1]),
                task_id=task.id, suite=task.suite,
                message=f"duplicate task id (first defined at {seen[task.id].source})",
            ))
        else:
            seen[task.id] = task
            unique.append(task)
    result.tasks = unique
    return result


def json_schema() -> dict[str, Any]:
    """JSON Schema of the task format, with every registered step and its params."""
    steps.load_plugins()

    def step_schema(kind: steps.Kind) -> dict[str, Any]:
        options = []
        for name, spec in sorted(steps.REGISTRY[kind].items()):
            params = spec.params.model_json_schema()
            params.pop("title", None)
            options.append({
                "type": "object", "description": spec.doc.split("\n\n")[0],
                "properties": {name: params}, "required": [name], "additionalProperties": False,
            })
        return {"oneOf": options}

    task = Task.model_json_schema()
    props = {k: v for k, v in task["properties"].items() if k in _TASK_FIELDS}
    for field, kind in (("reset", "reset"), ("before_judge", "reset"), ("cleanup", "reset"), ("judge", "judge")):
        props[field] = {"type": "array", "items": {"$ref": f"#/$defs/{kind}_step"},
                        "description": task["properties"][field].get("description", "")}
    props["counterexamples"] = {
        "type": "array", "description": task["properties"]["counterexamples"].get("description", ""),
        "items": {"oneOf": [{"type": "string"}, {
            "type": "object", "required": ["code"], "additionalProperties": False,
            "properties": {"code": {"type": "string"}, "note": {"type": "string"}}}]},
    }
    task_def = {"type": "object", "properties": props, "required": ["id", "instruction", "judge"],
                "additionalProperties": False}
    defaults_def = {**task_def, "required": []}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "deskact task file",
        "$defs": {"task": task_def, "reset_step": step_schema("reset"), "judge_step": step_schema("judge")},
        "oneOf": [
            {"$ref": "#/$defs/task"},
            {"type": "object", "required": ["tasks"], "additionalProperties": False,
             "properties": {"defaults": defaults_def, "tasks": {"type": "array", "items": {"$ref": "#/$defs/task"}}}},
        ],
    }


def write_schema(path: Path = SUITES_DIR / "schema.json") -> None:
    path.write_text(json.dumps(json_schema(), indent=1) + "\n")
