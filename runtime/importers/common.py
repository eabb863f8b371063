"""What every importer shares: the report, step building, gold files and writing the suite."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, Field

from ..errors import DeskactError
from ..tasks import steps

Source = Literal["osworld", "agentstudio"]
SUITE_FILE = "imported.yaml"
REPORT_MD = "import-report.md"
REPORT_JSON = "import-report.json"


class ImportError_(DeskactError):
    """The input cannot be read at all (missing folder, not JSON): names the path."""


class Untranslatable(Exception):
    """One part of a source task has no deskact equivalent; the message says which and why."""


class Converted(BaseModel):
    task_id: str
    """The deskact id written to the suite."""
    source_id: str
    file: str
    """The source task file, relative to the import's input."""
    notes: list[str] = Field(default_factory=list)
    """Parts dropped on purpose (fixed sleeps, GUI nudges) or approximated."""


class Skipped(BaseModel):
    source_id: str
    file: str
    instruction: str
    reasons: list[str]
    """Every config type / evaluator function that has no equivalent, one sentence each."""


class ImportReport(BaseModel):
    """import-report.json: what was converted and what was not, and why."""

    version: int = 1
    source: Source
    input: str
    out: str
    converted: list[Converted] = Field(default_factory=list)
    skipped: list[Skipped] = Field(default_factory=list)
    ignored: list[str] = Field(default_factory=list)
    """Files under the input that are not tasks (OSWorld's template.json, settings files)."""

    def reason_counts(self) -> dict[str, int]:
        """How many skipped tasks each kind of reason stopped (the text before the first colon)."""
        counts: dict[str, int] = {}
        for s in self.skipped:
            for kind in {r.split(":")[0] for r in s.reasons}:
                counts[kind] = counts.get(kind, 0) + 1
        return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


class ImportOptions(BaseModel):
    out: Path
    mirror: Path | None = None
    """A mirror file: source URL -> local file or URL, one entry per URL (``downloads.load_mirror``)."""
    fetch: bool = False
    """Download every input file into SUITE/files/ now, so the suite runs with no network."""
    fetch_gold: bool = True
    """Download expected files (judges' gold) into SUITE/gold/ now; off = such tasks are skipped."""
    timeout: float = 60
    """Seconds one download may take."""
    deadline: float = 1800
    """Seconds all downloads of one import may take together; later ones become report reasons."""
    max_file_bytes: int = 200_000_000
    max_total_bytes: int = 5_000_000_000
    """All files one import downloads, together."""
    files_root: Path | None = None
    """AgentStudio: the folder its ``${AS_ROOT}`` named, holding ``data/`` (inputs and gold files)."""


NULL = object()
"""A param written as YAML null on purpose (``exit_code: null``); plain None params are left out."""


def step(kind: steps.Kind, name: str, /, **params: Any) -> dict[str, Any]:
    """A ``{name: params}`` step, checked against this deskact's registry now, so a task the
    importer writes always loads; a step this deskact lacks becomes a reason, not a broken task."""
    try:
        spec = steps.lookup(kind, name)
    except KeyError as exc:
        raise Untranslatable(f"needs {kind} step {name}, which this deskact does not have") from exc
    clean = {k: (None if v is NULL else v) for k, v in params.items() if v is not None}
    try:
        spec.validate(clean)
    except ValueError as exc:
        raise Untranslatable(f"{name}: {exc.args[0] if exc.args else exc}") from exc
    return {name: clean}


def has_step(kind: steps.Kind, name: str) -> bool:
    try:
        steps.lookup(kind, name)
    except KeyError:
        return False
    return True


def escape(text: str) -> str:
    """Source text taken literally: ``$`` would otherwise start a deskact placeholder."""
    return text.replace("$", "$$")


def inside(root: Path, rel: str) -> Path:
    """``root / rel``, refused when ``rel`` (from a task file) would lead out of ``root``."""
    target = (root / rel).resolve()
    if target != root.resolve() and root.resolve() not in target.parents:
        raise Untranslatable(f"path: {rel!r} leads out of {root}")
    return target


Convert = Callable[[dict[str, Any], str, ImportOptions], tuple[dict[str, Any], list[str]]]
"""(source task JSON, its relative file name, options) -> (deskact task mapping, notes)."""


def run_import(source: Source, files: Iterable[tuple[str, dict[str, Any]]], convert: Convert,
               opts: ImportOptions, input_path: Path, id_of: Callable[[dict[str, Any]], str],
               ignored: Iterable[str] = ()) -> ImportReport:
    """Convert every (relative file, JSON) pair; write SUITE/imported.yaml and both reports."""
    report = ImportReport(source=source, input=str(input_path), out=str(opts.out), ignored=list(ignored))
    tasks: list[dict[str, Any]] = []
    opts.out.mkdir(parents=True, exist_ok=True)
    taken: dict[str, str] = {}
    for rel, raw in files:
        try:
            task, notes = convert(raw, rel, opts)
        except Untranslatable as exc:
            reasons = list(exc.args[0]) if isinstance(exc.args[0], list) else [str(exc)]
            report.skipped.append(_skipped(raw, rel, reasons, id_of))
            continue
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            # A task file in a shape the source format does not have: reported, never a crash.
            report.skipped.append(_skipped(raw, rel, [f"malformed: {type(exc).__name__}: {str(exc)[:120]}"], id_of))
            continue
        if task["id"] in taken:
            # Twins (a task copied to another folder under the same source id) keep both.
            first, n = task["id"], 2
            while f"{first}-{n}" in taken:
                n += 1
            task["id"] = f"{first}-{n}"
            notes = [*notes, f"id {first} was taken by {taken[first]}: renamed {task['id']}"]
        taken[task["id"]] = rel
        tasks.append(task)
        report.converted.append(Converted(task_id=task["id"], source_id=id_of(raw), file=rel, notes=notes))
    header = (f"# Imported from {source} ({input_path}) by `deskact import {source}`.\n"
              "# No task has a reference yet: write one under each task, then `deskact validate` this folder.\n")
    body = yaml.dump({"tasks": tasks}, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    (opts.out / SUITE_FILE).write_text(header + body, encoding="utf-8")
    (opts.out / REPORT_JSON).write_text(report.model_dump_json(indent=2) + "\n", encoding="utf-8")
    (opts.out / REPORT_MD).write_text(render_markdown(report), encoding="utf-8")
    return report


def _skipped(raw: dict[str, Any], rel: str, reasons: list[str], id_of: Callable[[dict[str, Any]], str]) -> Skipped:
    return Skipped(source_id=id_of(raw), file=rel, instruction=str(raw.get("instruction", ""))[:200], reasons=reasons)


class _Dumper(yaml.SafeDumper):
    """Multi-line strings (shell scripts, expected output) as readable ``|`` blocks."""


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value and not value.endswith((" ", "\t")) and "\n " not in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def render_markdown(report: ImportReport) -> str:
    lines = [f"# Import report: {report.source}", "",
             f"Input: `{report.input}`  ", f"Suite: `{report.out}/{SUITE_FILE}`", "",
             (f"Converted {len(report.converted)} of {len(report.converted) + len(report.skipped)} tasks;"
              f" {len(report.skipped)} not translated."), ""]
    if report.skipped:
        lines += ["## Why tasks were not translated", "", "| reason | tasks |", "|---|---|"]
        lines += [f"| {k} | {n} |" for k, n in report.reason_counts().items()]
        lines += ["", "## Not translated", ""]
        for s in report.skipped:
            lines.append(f"- `{s.file}` ({s.source_id}): {s.instruction[:100]}")
            lines += [f"  - {r}" for r in s.reasons]
    if report.ignored:
        lines += ["", "## Ignored (not task files)", ""] + [f"- `{f}`" for f in report.ignored]
    if report.converted:
        lines += ["", "## Converted", ""]
        for c in report.converted:
            lines.append(f"- `{c.task_id}` from `{c.file}`" + (f": {'; '.join(c.notes)}" if c.notes else ""))
    return "\n".join(lines) + "\n"


def load_json_files(path: Path, pattern: str) -> list[tuple[str, dict[str, Any]]]:
    """(path relative to ``path``, parsed JSON) for one file or every ``pattern`` match below a folder."""
    if not path.exists():
        raise ImportError_(f"{path}: no such file or folder")
    found = [path] if path.is_file() else sorted(path.rglob(pattern))
    out = []
    for f in found:
        rel = f.name if path.is_file() else str(f.relative_to(path))
        try:
            raw = json.loads(f.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ImportError_(f"{f}: not a JSON task file: {exc}") from exc
        items = raw if isinstance(raw, list) else [raw]
        out += [(rel, item) for item in items if isinstance(item, dict)]
    if not out:
        raise ImportError_(f"{path}: no {pattern} task files found")
    return out
