"""AgentStudio tasks (eval_online_benchmarks/tasks/**/<uuid>.json, or a JSONL of them) -> deskact.

An AgentStudio task has ``reset_procedure``, ``eval_procedure`` and
``cleanup_procedure``: lists of ``{evaluator, function, params}``. Its
placeholders become deskact's: ``${AS_ROOT}`` the workspace, the calendar id
``primary``, the Gmail recipient a fixed address. Google tasks start from an
empty account (``google.reset``, an emulator by default), so the source's
"delete what a previous run left" steps are dropped.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

from ...toolkits.builtin import DESKTOP_TOOLKIT
from .agentstudio_procedures import DROPPED, PROCEDURES
from .common import (
    ImportError_,
    ImportOptions,
    ImportReport,
    Untranslatable,
    escape,
    inside,
    load_json_files,
    run_import,
    step,
)

RECIPIENT = "recipient@example.com"
PLACEHOLDERS = {"AS_ROOT": "${WORKSPACE}", "AS_HOME": "${HOME}", "AS_GCALENDAR_ID": "primary",
                "AS_GMAIL_RECIPIENT": RECIPIENT}
_PLACEHOLDER = re.compile(r"\$\{(\w+)\}")
GOOGLE = {"google_calendar", "gmail", "google_docs", "google_drive", "google_sheets", "google_slides", "google_forms"}


def text(value: str) -> str:
    """Source text with AgentStudio's placeholders replaced (an unknown one is a reason)."""

    def sub(m: re.Match[str]) -> str:
        if m.group(1) not in PLACEHOLDERS:
            raise Untranslatable(f"placeholder ${{{m.group(1)}}}: no deskact equivalent")
        return "\0" + m.group(1) + "\0"

    marked = _PLACEHOLDER.sub(sub, value)
    out = escape(marked)
    for name, repl in PLACEHOLDERS.items():
        out = out.replace("\0" + name + "\0", repl)
    return out


def param_keys(params: dict[str, Any]) -> set[str]:
    """The params an item gives, with the keys inside its ``*_info`` dicts (``event_info.colorId``)."""
    keys = set(params)
    for key, value in params.items():
        if key.endswith("_info") and isinstance(value, dict):
            keys |= {f"{key}.{k}" for k in value}
    return keys


FIELDS: dict[str, str] = {
    "task_id": "the deskact id's last part (agentstudio-<folder>-<first 8 characters>)",
    "instruction": "instruction, placeholders replaced",
    "visual": "visual: true with the gui toolkit",
    "max_steps": "max_steps",
    "max_time": "max_time (seconds)",
    "reset_procedure": "reset steps", "eval_procedure": "judges", "cleanup_procedure": "cleanup steps",
}
"""Every field of an AgentStudio task file and what it becomes; any other field is a reason."""


class Acc:
    """One task's translation so far: reasons, notes, and what its steps need."""

    def __init__(self, opts: ImportOptions) -> None:
        self.opts = opts
        self.reasons: list[str] = []
        self.notes: list[str] = []
        self.google = False
        self.visual = False
        self.sent: list[dict[str, Any]] = []
        """Messages the reset sends (gmail.trash_message labels them TRASH)."""
        self.phase = "reset"
        """The procedure being translated: reset, eval or cleanup."""
        self.before_judge: list[dict[str, Any]] = []
        """Steps an eval procedure runs before its checks (system.exec), run after the episode."""

    def data_file(self, value: str, into: str) -> str:
        """An AgentStudio data file (``${AS_ROOT}/data/<id>/x``, or ``data/<id>/x``) copied from
        --files-root into the suite's ``files/`` (inputs) or ``gold/`` (expected files); returns its
        path relative to that folder. Nothing outside --files-root is read."""
        rel = value.removeprefix("${AS_ROOT}/")
        if not rel.startswith("data/"):
            raise Untranslatable(f"data file: {value} is not under AgentStudio's data/ folder")
        if self.opts.files_root is None:
            raise Untranslatable(f"data file: {rel} is AgentStudio data, not in the task file"
                                 " (give --files-root DIR, the folder holding data/)")
        src = inside(self.opts.files_root, rel)
        if not src.exists():
            raise Untranslatable(f"data file: {rel} is not under --files-root {self.opts.files_root}")
        target = inside(self.opts.out / into, rel)
        if src.is_dir():
            shutil.copytree(src, target, dirs_exist_ok=True, symlinks=False)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, target)
        return rel

    def translate(self, procedure: list[dict[str, Any]], where: str) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        self.phase = where
        for item in procedure or []:
            key = (str(item.get("evaluator", "?")), str(item.get("function", "?")))
            name = f"{key[0]}.{key[1]}"
            self.google |= key[0] in GOOGLE
            params = item.get("params") or {}
            known = DROPPED.get(key)
            proc = PROCEDURES.get(key)
            allowed = known if known is not None else proc.params if proc is not None else None
            if allowed is None:
                self.reasons.append(f"{name}: not a procedure this importer knows")
                continue
            unknown = sorted(param_keys(params) - allowed)
            if unknown:
                self.reasons.append(f"{name}: params {unknown} not translated")
                continue
            if known is not None or proc is None:  # a dropped procedure (only then can proc be None)
                self.notes.append(f"{where} {name} dropped (the task starts from a fresh state)")
                continue
            if proc.translate is None:
                self.reasons.append(f"{name}: {proc.reason}")
                continue
            try:
                out += proc.translate(params, self)
            except Untranslatable as exc:
                self.reasons.append(str(exc))
            except (KeyError, TypeError, ValueError, AttributeError) as exc:
                self.reasons.append(f"{name}: params not in the expected shape ({exc!r})")
        return out


def convert(raw: dict[str, Any], rel: str, opts: ImportOptions) -> tuple[dict[str, Any], list[str]]:
    uid = str(raw.get("task_id") or Path(rel).stem)
    acc = Acc(opts)
    unknown = sorted(set(raw) - set(FIELDS))
    if unknown:
        acc.reasons.append(f"fields {unknown}: not part of AgentStudio's task format as this importer knows it")
    reset = acc.translate(raw.get("reset_procedure", []), "reset")
    judge = acc.translate(raw.get("eval_procedure", []), "eval")
    cleanup = acc.translate(raw.get("cleanup_procedure", []), "cleanup")
    try:
        instruction = text(str(raw["instruction"]))
    except Untranslatable as exc:
        acc.reasons.append(str(exc))
    if not judge and not acc.reasons:
        acc.reasons.append("eval_procedure empty: nothing to judge")
    if acc.reasons:
        raise Untranslatable(acc.reasons)
    group = Path(rel).parent.name or "tasks"
    task: dict[str, Any] = {"id": f"agentstudio-{group.replace('_', '-')}-{uid[:8]}", "instruction": instruction}
    if raw.get("visual") or acc.visual:
        task.update(visual=True, toolkits=[DESKTOP_TOOLKIT])
    if acc.google:
        task["toolkits"] = [*task.get("toolkits", []), "google"]
        reset = [step("reset", "google.reset"), *reset]
    if raw.get("max_steps") is not None:
        task["max_steps"] = int(raw["max_steps"])
    if raw.get("max_time") is not None:
        task["max_time"] = float(raw["max_time"])
    task.update(tags=["agentstudio", group], imported_from=f"agentstudio:{rel}", reset=reset, judge=judge)
    if acc.before_judge:
        task["before_judge"] = acc.before_judge
    if cleanup:
        task["cleanup"] = cleanup
    return task, acc.notes


def _load(path: Path) -> list[tuple[str, dict[str, Any]]]:
    if path.is_file() and path.suffix == ".jsonl":
        rows = []
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                try:
                    rows.append((f"{path.name}:{n}", json.loads(line)))
                except json.JSONDecodeError as exc:
                    raise ImportError_(f"{path}:{n}: not a JSON line: {exc}") from exc
        return rows
    return load_json_files(path, "*.json")


def import_agentstudio(path: Path, opts: ImportOptions) -> ImportReport:
    """Every task under ``path`` (a tasks folder, one JSON file, or a JSONL file)."""
    files = [(rel, raw) for rel, raw in _load(path) if "instruction" in raw]
    return run_import("agentstudio", files, convert, opts, path, lambda raw: str(raw.get("task_id", "?")))
