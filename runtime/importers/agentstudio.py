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
import shlex
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...toolkits.builtin import DESKTOP_TOOLKIT
from .common import (
    ImportError_,
    ImportOptions,
    ImportReport,
    Untranslatable,
    escape,
    load_json_files,
    run_import,
    step,
)

RECIPIENT = "recipient@example.com"
PLACEHOLDERS = {"AS_ROOT": "${WORKSPACE}", "AS_HOME": "${HOME}", "AS_GCALENDAR_ID": "primary",
                "AS_GMAIL_RECIPIENT": RECIPIENT}
_PLACEHOLDER = re.compile(r"\$\{(\w+)\}")
# Steps that only undo what a previous run left: a deskact task starts from a fresh workspace
# and, for Google, from google.reset.
DROPPED = {("gmail", f) for f in ("delete_draft", "delete_label", "delete_sent_message")} | {
    ("google_calendar", "clear_calendar"), ("google_docs", "delete_document"), ("system", "sleep")}


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


def _event(info: dict[str, Any]) -> dict[str, Any]:
    def when(v: Any) -> str | None:
        return (v.get("dateTime") or v.get("date")) if isinstance(v, dict) else v

    out = {"summary": text(info["summary"]), "start": when(info.get("start")), "end": when(info.get("end")),
           "description": info.get("description"), "location": info.get("location"),
           "attendees": [a["email"] if isinstance(a, dict) else a for a in info.get("attendees", [])] or None}
    return {k: v for k, v in out.items() if v is not None}


def _mail(info: dict[str, Any]) -> dict[str, Any]:
    out = {"to": text(info["recipient"]) if info.get("recipient") else None,
           "subject": text(info.get("subject", "")), "body": text(info.get("body", ""))}
    return {k: v for k, v in out.items() if v is not None}


# --- one function each: (params, task) -> steps -------------------------------------------------

def _fs_exists(p: dict[str, Any], _: _Acc) -> list[dict[str, Any]]:
    return [step("judge", "files.exists" if want else "files.absent", path=text(path))
            for path, want in p["file_to_check"].items()]


def _fs_type(p: dict[str, Any], _: _Acc) -> list[dict[str, Any]]:
    kinds = {"file": "file", "folder": "dir", "directory": "dir"}
    return [step("judge", "files.exists", path=text(path), kind=kinds[kind]) for path, kind in p["file_to_check"].items()]


def _fs_content(p: dict[str, Any], _: _Acc) -> list[dict[str, Any]]:
    return [step("judge", "files.content", path=text(path), equals=text(content))
            for path, content in p["file_to_check"].items()]


def _fs_metadata(p: dict[str, Any], _: _Acc) -> list[dict[str, Any]]:
    out = []
    for path, meta in p["file_to_check"].items():
        unknown = sorted(set(meta) - {"size"})
        if unknown:
            raise Untranslatable(f"filesystem.metadata_check: fields {unknown} are not translated")
        out.append(step("judge", "files.stat", path=text(path), size=int(meta["size"])))
    return out


def _event_check(p: dict[str, Any], acc: _Acc) -> list[dict[str, Any]]:
    ev = _event(p["event_info"])
    if p.get("exists", True):
        extra = {"start": ev.get("start"), "end": ev.get("end"), "location": ev.get("location"),
                 "description_contains": ev.get("description"), "attendees": ev.get("attendees")}
        return [step("judge", "google.event_exists", summary=ev["summary"], **extra)]
    return [step("judge", "google.event_absent", summary=ev["summary"], start=ev.get("start"))]


def _sent_check(p: dict[str, Any], _: _Acc) -> list[dict[str, Any]]:
    info = p["message_info"]
    if not info.get("recipient"):
        raise Untranslatable("gmail.check_sent_message_exists without a recipient: google.email_sent needs `to`")
    m = _mail(info)
    count = None if p.get("exists", True) else 0
    return [step("judge", "google.email_sent", to=m["to"], subject_contains=m["subject"] or None,
                 body_contains=m["body"] or None, count=count)]


def _draft_check(p: dict[str, Any], _: _Acc) -> list[dict[str, Any]]:
    if not p.get("exists", True):
        raise Untranslatable("gmail.check_draft_exists with exists false: no judge checks that a draft is gone")
    m = _mail(p["draft_info"])
    return [step("judge", "google.draft_exists", to=m.get("to"), subject_contains=m["subject"] or None,
                 body_contains=m["body"] or None)]


def _doc_check(p: dict[str, Any], _: _Acc) -> list[dict[str, Any]]:
    return [step("judge", "google.drive_file", name=text(p["title"]), mime_type="document",
                 content_contains=text(p["content"]) if p.get("content") else None, exists=p.get("exists", True))]


def _doc_link(p: dict[str, Any], _: _Acc) -> list[dict[str, Any]]:
    # exists false: the text is still there but links nowhere (doc_link's url "")
    url = text(p["url"]) if p.get("exists", True) else ""
    return [step("judge", "google.doc_link", title=text(p["title"]), text=text(p["text"]), url=url)]


def _file_check(p: dict[str, Any], _: _Acc) -> list[dict[str, Any]]:
    return [step("judge", "google.drive_file", name=text(p["file_name"]), exists=p.get("exists", True))]


def _mkdir(p: dict[str, Any], _: _Acc) -> list[dict[str, Any]]:
    return [step("reset", "files.mkdir", path=text(p["path"]))]


def _remove(p: dict[str, Any], _: _Acc) -> list[dict[str, Any]]:
    return [step("reset", "files.remove", path=text(p["path"]))]


def _create_file(p: dict[str, Any], _: _Acc) -> list[dict[str, Any]]:
    return [step("reset", "files.write", path=text(p["path"]), content=text(p.get("content", "")))]


def _create_event(p: dict[str, Any], acc: _Acc) -> list[dict[str, Any]]:
    return [step("reset", "google.calendar_events", events=[_event(p["event_info"])])]


def _send(p: dict[str, Any], acc: _Acc) -> list[dict[str, Any]]:
    return [step("reset", "google.emails", messages=[{**_mail(p["message_info"]), "labels": ["SENT"]}])]


def _draft(p: dict[str, Any], acc: _Acc) -> list[dict[str, Any]]:
    return [step("reset", "google.drafts", messages=[_mail(p["draft_info"])])]


def _label(p: dict[str, Any], acc: _Acc) -> list[dict[str, Any]]:
    return [step("reset", "google.labels", names=[text(p["label_name"])])]


def _document(p: dict[str, Any], acc: _Acc) -> list[dict[str, Any]]:
    if p.get("hyperlink"):
        raise Untranslatable("google_docs.create_document with a hyperlink: google.document writes plain paragraphs")
    return [step("reset", "google.document", title=text(p["title"]),
                 paragraphs=[text(p["content"])] if p.get("content") else [])]


def _kill(p: dict[str, Any], acc: _Acc) -> list[dict[str, Any]]:
    # pkill patterns like "soffice.*": apps.kill matches a plain substring of the command line.
    return [step("reset", "apps.kill", name=re.sub(r"[.*+?^$\\]+$", "", p["name"]) or p["name"])]


def _launch(p: dict[str, Any], acc: _Acc) -> list[dict[str, Any]]:
    cmd = p["cmd"] if isinstance(p["cmd"], str) else shlex.join(p["cmd"])
    acc.visual = True
    return [step("reset", "apps.launch", cmd=text(cmd))]


def _data_file(value: str, acc: _Acc, into: str) -> str:
    """An AgentStudio data file (``${AS_ROOT}/data/<id>/x``) copied from --files-root into the suite's
    ``files/`` (inputs) or ``gold/`` (expected files); returns its path relative to that folder."""
    rel = value.removeprefix("${AS_ROOT}/")
    if not rel.startswith("data/"):
        raise Untranslatable(f"data file: {value} is not under AgentStudio's data/ folder")
    if acc.opts.files_root is None:
        raise Untranslatable(f"data file: {rel} is AgentStudio data, not in the task file"
                             " (give --files-root DIR, the folder holding data/)")
    src = acc.opts.files_root / rel
    if not src.is_file():
        raise Untranslatable(f"data file: {rel} is not under --files-root {acc.opts.files_root}")
    target = acc.opts.out / into / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, target)
    return rel


def _copy(p: dict[str, Any], acc: _Acc) -> list[dict[str, Any]]:
    return [step("reset", "files.copy", src=_data_file(p["src"], acc, "files"), dst=text(p["dest"]))]


def _json_settings(p: dict[str, Any], acc: _Acc) -> list[dict[str, Any]]:
    return [step("judge", "config.value", path=text(p["path"]), key=[key], equals=value, format="json")
            for key, value in p["settings"].items()]


def _compare_table(p: dict[str, Any], acc: _Acc) -> list[dict[str, Any]]:
    rules = (p.get("options") or {}).get("rules") or []
    unsupported = sorted({str(r.get("type")) for r in rules} - {"sheet_data", "sheet_print"})
    if unsupported:
        raise Untranslatable(f"sheets.compare_table: rule types {unsupported} have no xlsx.compare option")
    names = [str(r["sheet_idx0"])[2:] for r in rules if str(r.get("sheet_idx0", "")).startswith("RN")]
    return [step("judge", "xlsx.compare", path=text(p["result"]), gold=_data_file(p["expected"], acc, "gold"),
                 sheets=names or None, sheet_names=False)]


Fn = Callable[[dict[str, Any], "_Acc"], list[dict[str, Any]]]
FUNCTIONS: dict[tuple[str, str], Fn] = {
    ("filesystem", "exists"): _fs_exists, ("filesystem", "type_check"): _fs_type,
    ("filesystem", "content_check"): _fs_content, ("filesystem", "metadata_check"): _fs_metadata,
    ("filesystem", "mkdir"): _mkdir, ("filesystem", "rmdir"): _remove, ("filesystem", "rm"): _remove,
    ("filesystem", "create_file"): _create_file,
    ("google_calendar", "check_event_exists"): _event_check, ("google_calendar", "create_event"): _create_event,
    ("gmail", "check_sent_message_exists"): _sent_check, ("gmail", "check_draft_exists"): _draft_check,
    ("gmail", "send_message"): _send, ("gmail", "create_draft"): _draft, ("gmail", "create_label"): _label,
    ("google_docs", "check_doc_exists"): _doc_check, ("google_docs", "hyperlink_match"): _doc_link, ("google_docs", "create_document"): _document,
    ("google_drive", "check_file_exists"): _file_check, ("process", "pkill_by_name"): _kill,
    ("process", "create_process"): _launch, ("filesystem", "copy"): _copy,
    ("filesystem", "check_json_settings"): _json_settings, ("sheets", "compare_table"): _compare_table,
}
"""(evaluator, function) -> translation; add one here to import more tasks."""
GOOGLE = {"google_calendar", "gmail", "google_docs", "google_drive", "google_sheets", "google_slides", "google_forms"}


class _Acc:
    def __init__(self, opts: ImportOptions) -> None:
        self.opts = opts
        self.reasons: list[str] = []
        self.notes: list[str] = []
        self.google = False
        self.visual = False

    def translate(self, procedure: list[dict[str, Any]], where: str) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for item in procedure or []:
            key = (item.get("evaluator", "?"), item.get("function", "?"))
            self.google |= key[0] in GOOGLE
            if key in DROPPED:
                self.notes.append(f"{where} {key[0]}.{key[1]} dropped (the task starts from a fresh state)")
                continue
            fn = FUNCTIONS.get(key)
            if fn is None:
                self.reasons.append(f"{key[0]}.{key[1]}: no deskact {'judge' if where == 'eval' else 'step'}"
                                    " does the same")
                continue
            try:
                out += fn(item.get("params") or {}, self)
            except Untranslatable as exc:
                self.reasons.append(str(exc))
            except (KeyError, TypeError) as exc:
                self.reasons.append(f"{key[0]}.{key[1]}: params not in the expected shape ({exc!r})")
        return out


def convert(raw: dict[str, Any], rel: str, opts: ImportOptions) -> tuple[dict[str, Any], list[str]]:
    uid = str(raw.get("task_id") or Path(rel).stem)
    acc = _Acc(opts)
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
    task.update(tags=["agentstudio", group], imported_from=f"agentstudio:{rel}", reset=reset, judge=judge)
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
