"""OSWorld tasks (evaluation_examples/examples/<domain>/<uuid>.json) -> deskact tasks.

An OSWorld task has ``config`` (set-up: download, open, launch, execute/command,
sleep, activate_window, ...) and an ``evaluator`` ``{func, result, expected,
options, postconfig}``. The VM's home ``/home/user`` (and ``~``) becomes the
task's ``${HOME}`` (its workspace); ``sudo`` is dropped because set-up commands
run as the root of the task's world (so such tasks start with ``world.require``).
Fixed sleeps and pyautogui nudges (a click in the middle of the screen) are
dropped: deskact waits on conditions. Evaluators map to judges only where the
judge checks the same thing; everything else is reported with its func name.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...toolkits.builtin import DESKTOP_TOOLKIT
from .common import (
    NULL,
    ImportOptions,
    ImportReport,
    Untranslatable,
    escape,
    fetch_gold,
    has_step,
    load_json_files,
    mirrored,
    run_import,
    step,
)

VM_HOME = "/home/user"
_SUDO = re.compile(r"echo\s+'?\"?password'?\"?\s*\|\s*sudo\s+-S\s+|\bsudo\s+(-\w+\s+)*")
OFFICE_APPS = ("soffice", "libreoffice")


def vm_path(path: str) -> str:
    """An agent-side path: the VM's home is the task's ${HOME}; relative paths are in it."""
    if path == VM_HOME or path.startswith(VM_HOME + "/"):
        return "${HOME}" + escape(path[len(VM_HOME):])
    if path == "~" or path.startswith("~/"):
        return "${HOME}" + escape(path[1:])
    if not path.startswith("/"):
        return "${HOME}/" + escape(path)
    return escape(path)


def shell_text(command: str | list[str]) -> str:
    text = command if isinstance(command, str) else shlex.join(command)
    text = _SUDO.sub("", text)
    return escape(text).replace(VM_HOME, "${HOME}")


def is_gui_nudge(command: str | list[str]) -> bool:
    text = command if isinstance(command, str) else " ".join(command)
    return "pyautogui" in text


def is_save_keystroke(command: str | list[str]) -> bool:
    text = command if isinstance(command, str) else " ".join(command)
    return "pyautogui" in text and "'s'" in text.replace('"', "'") and "ctrl" in text


class _Task:
    """Reset/before-judge/judge lists of one task being built, and what was given up and why."""

    def __init__(self, uid: str, opts: ImportOptions) -> None:
        self.uid, self.opts = uid, opts
        self.reset: list[dict[str, Any]] = []
        self.before: list[dict[str, Any]] = []
        self.judge: list[dict[str, Any]] = []
        self.cleanup: list[dict[str, Any]] = []
        self.notes: list[str] = []
        self.reasons: list[str] = []
        self.needs_world = False

    def attempt(self, fn: Callable[..., None], *args: Any) -> None:
        try:
            fn(*args)
        except Untranslatable as exc:
            self.reasons.append(str(exc))


def _config_step(t: _Task, item: dict[str, Any], into: list[dict[str, Any]], where: str) -> None:
    kind, p = item.get("type"), item.get("parameters") or {}
    if kind == "sleep":
        t.notes.append(f"{where} sleep {p.get('seconds')} s dropped (deskact waits on conditions)")
    elif kind == "activate_window":
        t.notes.append(f"{where} activate_window {p.get('window_name')!r} dropped")
    elif kind == "download":
        for f in p.get("files", []):
            into.append(step("reset", "files.download", url=mirrored(f["url"], t.opts.mirrors), path=vm_path(f["path"])))
    elif kind == "open":
        into.append(step("reset", "apps.open", path=vm_path(p["path"])))
        if p["path"].endswith((".xlsx", ".xls", ".ods", ".docx", ".doc", ".odt", ".pptx", ".ppt", ".odp", ".csv")):
            _kill_on_cleanup(t, "soffice")
    elif kind == "launch":
        cmd = p.get("command")
        into.append(step("reset", "apps.launch", cmd=shell_text(cmd)))
        if any(app in str(cmd) for app in OFFICE_APPS):
            _kill_on_cleanup(t, "soffice")
    elif kind in ("execute", "command"):
        cmd = p.get("command", "")
        if where == "postconfig" and is_save_keystroke(cmd):
            if not has_step("reset", "apps.save"):
                raise Untranslatable("postconfig save: needs before_judge step apps.save")
            if not any("apps.save" in s for s in into):
                into.append(step("reset", "apps.save"))
        elif is_gui_nudge(cmd):
            t.notes.append(f"{where} pyautogui nudge dropped: {shell_text(cmd)[:60]}")
        else:
            into.append(step("reset", "shell.run", cmd=shell_text(cmd)))
            t.needs_world = True
    else:
        raise Untranslatable(f"config type {kind}: no deskact reset step does this")


def _kill_on_cleanup(t: _Task, name: str) -> None:
    kill = {"apps.kill": {"name": name}}
    if kill not in t.cleanup:
        t.cleanup.append(kill)


# --- evaluators ---------------------------------------------------------------------------------

def _command(result: dict[str, Any]) -> str:
    if result.get("type") != "vm_command_line":
        raise Untranslatable(f"result type {result.get('type')}: only vm_command_line output is translated for this func")
    return shell_text(result["command"])


def _rules(expected: dict[str, Any]) -> dict[str, Any]:
    if expected.get("type") != "rule":
        raise Untranslatable(f"expected type {expected.get('type')}: only fixed rules are translated for this func")
    return expected.get("rules") or {}


def _exact_match(t: _Task, ev: dict[str, Any]) -> None:
    cmd = _command(ev["result"])
    t.judge.append(step("judge", "shell.output", cmd=cmd, equals=escape(_rules(ev["expected"])["expected"]),
                        exit_code=NULL))
    t.needs_world = True


def _check_include_exclude(t: _Task, ev: dict[str, Any]) -> None:
    result = ev["result"]
    if result.get("type") == "vm_terminal_output":
        _terminal_include_exclude(t, _rules(ev["expected"]))
        return
    cmd, rules = _command(result), _rules(ev["expected"])
    for text in rules.get("include", []):
        t.judge.append(step("judge", "shell.output", cmd=cmd, contains=escape(text), exit_code=NULL))
    for text in rules.get("exclude", []):
        t.judge.append(step("judge", "shell.output", cmd=cmd, regex=escape(r"\A(?![\s\S]*" + re.escape(text) + ")"),
                            exit_code=NULL))
    t.needs_world = True


def _terminal_include_exclude(t: _Task, rules: dict[str, Any]) -> None:
    """The text OSWorld reads from its terminal: a terminal opened by the reset (OSWorld opens one
    with ctrl+alt+t), read back with terminal.text."""
    if not any("apps.terminal" in s for s in t.reset):
        t.reset.append(step("reset", "apps.terminal"))
        t.notes.append("a terminal window is opened at reset (OSWorld reads its text)")
    for text in rules.get("include", []):
        t.judge.append(step("judge", "terminal.text", contains=escape(text)))
    for text in rules.get("exclude", []):
        t.judge.append(step("judge", "terminal.text", regex=escape(r"\A(?![\s\S]*" + re.escape(text) + ")")))


def _file_compare(judge_name: str, gold_param: str = "reference", **extra: Any) -> Callable[[_Task, dict[str, Any]], None]:
    """Funcs that compare the agent's file with a gold file of the same kind."""

    def convert(t: _Task, ev: dict[str, Any]) -> None:
        result, expected = ev.get("result", {}), ev.get("expected", {})
        if result.get("type") != "vm_file" or isinstance(result.get("path"), list):
            raise Untranslatable(f"result type {result.get('type')}: {ev['func']} is translated for one vm_file")
        if expected.get("type") != "cloud_file" or isinstance(expected.get("path"), list):
            raise Untranslatable(f"expected type {expected.get('type')}: {ev['func']} is translated for one cloud_file")
        if not has_step("judge", judge_name):
            raise Untranslatable(f"func {ev['func']}: needs judge {judge_name}, which this deskact does not have")
        params = {"path": vm_path(result["path"]), **extra}
        reference = fetch_gold(expected["path"], t.uid, expected.get("dest") or Path(result["path"]).name, t.opts)
        t.judge.append(step("judge", judge_name, **{gold_param: reference}, **params))

    return convert


def _compare_table(t: _Task, ev: dict[str, Any]) -> None:
    rules = (ev.get("options") or {}).get("rules") or []
    unsupported = sorted({str(r.get("type")) for r in rules} - {"sheet_data", "sheet_print"})
    if unsupported:
        raise Untranslatable(f"func compare_table: rule types {unsupported} have no xlsx.compare option")
    # RN<name> picks a sheet by name; an index (RI0, 0) compares every sheet, which is stricter.
    names = [str(r["sheet_idx0"])[2:] for r in rules if str(r.get("sheet_idx0", "")).startswith("RN")]
    if len(names) != len(rules):
        t.notes.append("compare_table by sheet index: every sheet is compared")
    _file_compare("xlsx.compare", gold_param="gold", sheets=names or None, sheet_names=False)(t, ev)


def _infeasible(t: _Task, ev: dict[str, Any]) -> None:
    raise Untranslatable("func infeasible: the right answer is to refuse; no judge rewards a refusal")


EVALUATORS: dict[str, Callable[[_Task, dict[str, Any]], None]] = {
    "exact_match": _exact_match,
    "check_include_exclude": _check_include_exclude,
    "compare_table": _compare_table,
    "compare_docx_files": _file_compare("docx.compare"),
    "compare_pptx_files": _file_compare("pptx.compare"),
    "infeasible": _infeasible,
}
"""OSWorld evaluator func -> translation; add one here (about ten lines) to import more tasks."""


def _evaluator(t: _Task, ev: dict[str, Any]) -> None:
    funcs = ev.get("func")
    if not funcs:
        raise Untranslatable("func empty: the task has no evaluator")
    if isinstance(funcs, list):
        if ev.get("conj", "and") != "and":
            raise Untranslatable(f"conj {ev.get('conj')}: only all-must-pass evaluator lists are translated")
        parts = [{"func": f, **{k: (ev[k][i] if isinstance(ev.get(k), list) else ev.get(k) or {})
                                for k in ("result", "expected", "options")}} for i, f in enumerate(funcs)]
    else:
        parts = [ev]
    for part in parts:
        convert = EVALUATORS.get(part["func"])
        if convert is None:
            t.reasons.append(f"func {part['func']}: no deskact judge checks the same thing")
            continue
        t.attempt(convert, t, part)


def convert(raw: dict[str, Any], rel: str, opts: ImportOptions) -> tuple[dict[str, Any], list[str]]:
    uid = str(raw.get("id") or Path(rel).stem)
    domain = Path(rel).parent.name or str(raw.get("snapshot", "osworld"))
    task_id = f"osworld-{domain.replace('_', '-')}-{uid[:8]}"
    t = _Task(task_id, opts)
    for item in raw.get("config") or []:
        t.attempt(_config_step, t, item, t.reset, "config")
    ev = raw.get("evaluator") or {}
    for item in ev.get("postconfig") or []:
        t.attempt(_config_step, t, item, t.before, "postconfig")
    t.attempt(_evaluator, t, ev)
    if t.reasons:
        raise Untranslatable(t.reasons)
    # OSWorld's VM home has a Desktop folder its set-up commands write into.
    reset = ([step("reset", "world.require")] if t.needs_world else []) + [
        step("reset", "files.mkdir", path="${HOME}/Desktop"), *t.reset]
    task: dict[str, Any] = {"id": task_id, "instruction": escape(str(raw["instruction"]))}
    # Screenshots only where an app is on screen; the rest can be done in code.
    if domain.startswith("libreoffice") or any(next(iter(s)).startswith("apps.") for s in t.reset + t.before):
        task.update(visual=True, toolkits=[DESKTOP_TOOLKIT])
    task.update(tags=["osworld", domain], imported_from=f"osworld:{domain}/{uid}", reset=reset)
    if t.before:
        task["before_judge"] = t.before
    task["judge"] = t.judge
    if t.cleanup:
        task["cleanup"] = t.cleanup
    return task, t.notes


def import_osworld(path: Path, opts: ImportOptions) -> ImportReport:
    """Every ``*.json`` task under ``path`` (OSWorld's examples folder, one domain, or one file)."""
    files = [(rel, raw) for rel, raw in load_json_files(path, "*.json") if "instruction" in raw]
    return run_import("osworld", files, convert, opts, path, lambda raw: str(raw.get("id", "?")))
