"""AgentStudio's procedures -> deskact steps: one table, ``PROCEDURES``, of every (evaluator,
function) its task files use, each with the params it reads and either its translation or the
reason it is reported.

The semantics are AgentStudio's own (agent_studio/envs/desktop_env/evaluators/*, read from its
public source): file contents compare exactly unless ``method: strip``; events and mails match
field by field exactly (``google.event_match``, ``google.message_match``); a Drive search sees
the trash, so "does not exist" needs the file deleted, not trashed; office files go through
OSWorld's metric table, whose functions AgentStudio copied.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from .agentstudio_docs import colored_words, highlighted_words, insert_equation, references, tabstops
from .agentstudio_google import (
    create_event,
    doc_check,
    doc_link,
    document,
    draft,
    draft_check,
    event_check,
    file_check,
    important,
    in_trash,
    label,
    label_check,
    send,
    sent_check,
    text_format,
    trash,
)
from .common import Untranslatable, escape, step
from .osworld_metrics import translate_evaluator

if TYPE_CHECKING:
    from .agentstudio import Acc

Steps = list[dict[str, Any]]
Fn = Callable[[dict[str, Any], "Acc"], Steps]

APP_WINDOWS = {"libreoffice": "LibreOffice", "soffice": "LibreOffice", "gimp": "GIMP"}
"""create_process ``wait_for`` (a process AgentStudio waits for) -> a title its window has: the
launch waits for that window, so a missing app fails the reset (an error, not a failed task)."""
LAUNCH_TIMEOUT = 120
"""Seconds a launch may take; AgentStudio waits without limit."""


@dataclass(frozen=True)
class Procedure:
    params: frozenset[str]
    """Params it reads (``event_info.colorId`` for a key inside a dict param); any other is a reason."""
    translate: Fn | None = None
    reason: str = ""
    """Why it is reported, when it has no translation."""


def _text(value: str) -> str:
    from .agentstudio import text  # the placeholders live with the importer

    return text(value)


def _exact(content: str, strip: bool) -> str:
    """A regex matching the whole text (files.content ``equals`` ignores trailing whitespace)."""
    if strip:
        return escape(r"\A\s*" + re.escape(content.strip()) + r"\s*\Z")
    return escape(r"\A" + re.escape(content) + r"\Z")


# --- filesystem ----------------------------------------------------------------------------------

def _fs_exists(p: dict[str, Any], _: Acc) -> Steps:
    return [step("judge", "files.exists" if want else "files.absent", path=_text(path))
            for path, want in p["file_to_check"].items()]


def _fs_type(p: dict[str, Any], _: Acc) -> Steps:
    kinds = {"file": "file", "folder": "dir"}
    bad = sorted(set(p["file_to_check"].values()) - set(kinds))
    if bad:
        raise Untranslatable(f"filesystem.type_check: type {bad} makes AgentStudio raise ValueError")
    return [step("judge", "files.exists", path=_text(path), kind=kinds[kind]) for path, kind in p["file_to_check"].items()]


def _fs_content(p: dict[str, Any], _: Acc) -> Steps:
    method = p.get("method", "exact")
    if method not in ("exact", "strip"):
        raise Untranslatable(f"filesystem.content_check: method {method!r} makes AgentStudio raise ValueError")
    return [step("judge", "files.content", path=_text(path), regex=_exact(content, method == "strip"))
            for path, content in p["file_to_check"].items()]


def _fs_metadata(p: dict[str, Any], _: Acc) -> Steps:
    out = []
    for path, meta in p["file_to_check"].items():
        unknown = sorted(set(meta) - {"size"})
        if unknown:
            raise Untranslatable(f"filesystem.metadata_check: fields {unknown} are not translated")
        out.append(step("judge", "files.stat", path=_text(path), size=int(meta["size"])))
    return out


def _match_file(p: dict[str, Any], acc: Acc) -> Steps:
    return [step("judge", "files.same", path=_text(path), reference=acc.data_file(ref, "gold"))
            for path, ref in p["file_to_check"].items()]


def _diff(p: dict[str, Any], acc: Acc) -> Steps:
    # AgentStudio fails only on diff's exit 1 (the files differ): the same bytes pass.
    return [step("judge", "files.same", path=_text(p["file2"]), reference=acc.data_file(p["file1"], "gold"))]


def _verify_ini(p: dict[str, Any], acc: Acc) -> Steps:
    return [step("judge", "config.same_ini", path=_text(p["target_path"]), reference=acc.data_file(p["ref_path"], "gold"))]


def _json_settings(p: dict[str, Any], _: Acc) -> Steps:
    return [step("judge", "config.value", path=_text(p["path"]), key=[key], equals=value, format="json")
            for key, value in p["settings"].items()]


def _mkdir(p: dict[str, Any], _: Acc) -> Steps:
    return [step("reset", "files.mkdir", path=_text(p["path"]))]


def _remove(p: dict[str, Any], _: Acc) -> Steps:
    return [step("reset", "files.remove", path=_text(p["path"]))]


def _create_file(p: dict[str, Any], _: Acc) -> Steps:
    return [step("reset", "files.write", path=_text(p["path"]), content=escape(p.get("content") or ""))]


def _copy(p: dict[str, Any], acc: Acc) -> Steps:
    return [step("reset", "files.copy", src=acc.data_file(p["src"], "files"), dst=_text(p["dest"]))]


# --- processes and waits -------------------------------------------------------------------------

def _launch(p: dict[str, Any], acc: Acc) -> Steps:
    cmd = p["cmd"] if isinstance(p["cmd"], str) else shlex.join(p["cmd"])
    wait_for = p.get("wait_for")
    if wait_for == "code":
        raise Untranslatable(f"process.create_process of VS Code: {_VSCODE}")
    if wait_for is not None and wait_for not in APP_WINDOWS:
        raise Untranslatable(f"process.create_process: waits for process {wait_for!r}, whose window title"
                             " this importer does not know")
    acc.visual = True
    argv = shlex.split(cmd)
    if wait_for == "gimp" and len(argv) == 2 and argv[0] == "gimp":
        # apps.gimp: GIMP from a settled profile, waited for until its window shows the image
        return [step("reset", "apps.gimp", path=_text(argv[1]), timeout=LAUNCH_TIMEOUT)]
    window = APP_WINDOWS.get(wait_for) if wait_for else None
    return [step("reset", "apps.launch", cmd=_text(cmd), window=window, timeout=LAUNCH_TIMEOUT if window else None)]


def _sleep(p: dict[str, Any], acc: Acc) -> Steps:
    seconds = float(p["seconds"])
    if not acc.visual:
        acc.notes.append(f"system.sleep {seconds:g} s dropped (no app on screen to wait for)")
        return []
    # at least the source's wait, longer while the app is still drawing
    return [step("reset", "desktop.settle", quiet=seconds, timeout=max(3 * seconds, 10.0))]


EXEC_TIMEOUT = 120
"""Seconds a system.exec command may take; AgentStudio's os.system waits without limit."""


def _exec(p: dict[str, Any], acc: Acc) -> Steps:
    # os.system: /bin/sh -c, the exit status ignored. In an eval procedure it runs before the checks
    # that follow it (a LibreOffice convert whose output a later check reads): a before_judge step.
    run = step("reset", "shell.run", cmd=f"/bin/sh -c {shlex.quote(_text(str(p['command'])))} || true",
               timeout=EXEC_TIMEOUT)
    if acc.phase == "eval":
        acc.before_judge.append(run)
        return []
    return [run]


def _kill(p: dict[str, Any], _: Acc) -> Steps:
    # pkill patterns like "soffice.*": apps.kill matches a plain substring of the command line.
    return [step("reset", "apps.kill", name=re.sub(r"[.*+?^$\\]+$", "", p["name"]) or p["name"])]


# --- office files through OSWorld's metric table --------------------------------------------------

def _is_data(value: Any) -> bool:
    return isinstance(value, str) and value.removeprefix("${AS_ROOT}/").startswith("data/")


def _office(family: str, func: str, keys: tuple[str, ...], options: Callable[[dict[str, Any]], dict[str, Any]],
            rules: str | None = None) -> Fn:
    """An AgentStudio office check as the OSWorld metric it copies. Of two files ``keys`` name, the
    one among AgentStudio's data files is the expected one (copied into gold/), the other the file
    the agent left; one key names the agent's file alone, with fixed ``rules`` when given."""

    def convert(p: dict[str, Any], acc: Acc) -> Steps:
        files = [str(p[k]) for k in keys]
        expected_spec: dict[str, Any] = {"type": "rule", "rules": p[rules]} if rules else {}
        if len(files) == 2:
            first, second = files
            if _is_data(first) == _is_data(second):
                raise Untranslatable(f"{family}.{func}: compares {first} with {second}; one must be an AgentStudio data file")
            result, expected = (second, first) if _is_data(first) else (first, second)
            expected_spec = {"type": "cloud_file", "path": expected, "dest": PurePosixPath(expected).name}
        else:
            result = files[0]
        evaluator = {"func": func, "result": {"type": "vm_file", "path": result}, "expected": expected_spec,
                     "options": options(p)}
        done = translate_evaluator(evaluator, lambda url, _name: acc.data_file(url, "gold"), _text,
                                   lambda cmd: _text(cmd if isinstance(cmd, str) else shlex.join(cmd)))
        if done.reasons:
            # "func compare_table: ..." -> "sheets.compare_table: ..." (the report groups by the part before ":")
            raise Untranslatable("; ".join(r.replace("func ", f"{family}.", 1) for r in done.reasons))
        acc.notes += done.notes
        return done.judge

    return convert


def _sheets(p: dict[str, Any], acc: Acc) -> Steps:
    steps = _office("sheets", "compare_table", ("result", "expected"), lambda p: p["options"])(p, acc)
    if any("xlsx.styles" in s for s in steps):
        # xlsx.styles reads cells as desktop-env 1.0.2 does; AgentStudio's copy reads bgcolor from the
        # fill's background colour and evaluates conditional formats only as expressions.
        raise Untranslatable("sheets.compare_table: style and check_cell style props are read as AgentStudio's own"
                             " copy reads them, which xlsx.styles (desktop-env's reading) does not")
    # AgentStudio's pivot_table rule fails when either sheet has no pivot table (OSWorld's passes two without)
    return [{name: {**params, "none_fails": True} if name == "xlsx.pivots" else params for name, params in s.items()}
            for s in steps]


def _no_options(_: dict[str, Any]) -> dict[str, Any]:
    return {}


def _docx_options(p: dict[str, Any]) -> dict[str, Any]:
    opts = dict(p.get("options") or {})
    if opts.get("content_only"):
        raise Untranslatable("docs.compare_docx_files: content_only compares a similarity with a threshold;"
                             " docx.compare has none")
    # the options AgentStudio's _compare_docx_files reads; others (ignore_space) it never reads
    return {k: v for k, v in opts.items() if k in {"ignore_blanks", "ignore_case", "ignore_order"}}


def _slides(p: dict[str, Any], acc: Acc) -> Steps:
    acc.notes.append("slides.compare_pptx_files: pptx.compare is OSWorld's later metric, stricter than AgentStudio's"
                     " copy, which does not compare the shape count, table cells or text inside groups")
    return _office("slides", "compare_pptx_files", ("result", "expected"), _pptx_options)(p, acc)


def _pptx_options(p: dict[str, Any]) -> dict[str, Any]:
    # AgentStudio's copy compares positions and sizes exactly (OSWorld's later one within a tolerance)
    return {**(p.get("options") or {}), "approximately_tolerance": 0}


_VSCODE = "VS Code is not installed here (no deskact step drives its extensions)"
_GIMP = ("a GIMP check that finds a shape, text or background by colour heuristics, or resizes and measures by"
         " its own rules: no deskact judge decides as it does")


def _gimp(judge_name: str, **fixed: Any) -> Fn:
    """An AgentStudio GIMP check (its gimp_evaluator.py): the agent's image (``src_path``) against an
    AgentStudio data file (``tgt_path``, copied into gold/), its pixel arrays compared as they are
    stored (``as_stored``), as its scikit-image calls compare them."""

    def convert(p: dict[str, Any], acc: Acc) -> Steps:
        src, tgt = str(p["src_path"]), str(p["tgt_path"])
        if _is_data(src) or not _is_data(tgt):
            raise Untranslatable(f"gimp: compares {src} with {tgt}; only the agent's image against a data file is"
                                 " translated")
        if p.get("threshold") not in (None, 0.03):
            raise Untranslatable(f"gimp: threshold {p['threshold']!r} (image.adjusted keeps the 0.03 default)")
        path, reference = _text(src), acc.data_file(tgt, "gold")
        if judge_name != "palette":
            return [step("judge", judge_name, path=path, reference=reference, as_stored=True, **fixed)]
        # The palette check converts the export to RGB and compares it with the data file as stored:
        # the same as comparing both in RGB exactly when the data file is an RGB image.
        from PIL import Image

        with Image.open(acc.opts.out / "gold" / reference) as gold:
            if gold.mode != "RGB":
                raise Untranslatable(f"gimp.check_palette_and_structure_sim: {reference} is a {gold.mode} image; the"
                                     " check compares it as stored with the RGB export, which no judge does")
        return [step("judge", "image.properties", path=path, mode="P"),
                step("judge", "image.structure_similar", path=path, reference=reference, **fixed)]

    return convert


_GIMP_CHECKS: dict[str, Fn] = {
    "check_structure_sim": _gimp("image.structure_similar", min_ssim=0.9),
    "check_file_exists_and_structure_sim": _gimp("image.structure_similar", min_ssim=0.9),
    "check_image_mirror": _gimp("image.structure_similar", min_ssim=0.99, flip="horizontal"),
    "check_palette_and_structure_sim": _gimp("palette", min_ssim=0.9),
    "check_brightness_decrease_and_structure_sim": _gimp("image.adjusted", change="darker"),
    "check_saturation_increase_and_structure_sim": _gimp("image.adjusted", change="more_saturated"),
    "check_contrast_increase_and_structure_sim": _gimp("image.adjusted", change="more_contrast"),
}
"""AgentStudio's GIMP checks with a faithful judge (table-driven cases:
tests/runtime/importers/test_agentstudio_gimp.py)."""


def _reported(params: set[str], why: str) -> Procedure:
    return Procedure(frozenset(params), None, why)


PROCEDURES: dict[tuple[str, str], Procedure] = {
    ("filesystem", "exists"): Procedure(frozenset({"file_to_check"}), _fs_exists),
    ("filesystem", "type_check"): Procedure(frozenset({"file_to_check"}), _fs_type),
    ("filesystem", "content_check"): Procedure(frozenset({"file_to_check", "method"}), _fs_content),
    ("filesystem", "metadata_check"): Procedure(frozenset({"file_to_check"}), _fs_metadata),
    ("filesystem", "match_file"): Procedure(frozenset({"file_to_check"}), _match_file),
    ("filesystem", "check_json_settings"): Procedure(frozenset({"path", "settings"}), _json_settings),
    ("filesystem", "verify_ini"): Procedure(frozenset({"target_path", "ref_path"}), _verify_ini),
    ("filesystem", "mkdir"): Procedure(frozenset({"path"}), _mkdir),
    ("filesystem", "rm"): Procedure(frozenset({"path"}), _remove),
    ("filesystem", "rmdir"): Procedure(frozenset({"path"}), _remove),
    ("filesystem", "create_file"): Procedure(frozenset({"path", "content"}), _create_file),
    ("filesystem", "copy"): Procedure(frozenset({"src", "dest"}), _copy),
    ("system", "diff"): Procedure(frozenset({"file1", "file2"}), _diff),
    ("system", "sleep"): Procedure(frozenset({"seconds"}), _sleep),
    ("system", "exec"): Procedure(frozenset({"command"}), _exec),
    ("process", "create_process"): Procedure(frozenset({"cmd", "wait_for"}), _launch),
    ("process", "pkill_by_name"): Procedure(frozenset({"name"}), _kill),
    ("process", "match_process"): _reported({"name"}, "a process name matched from its start (re.match):"
                                            " process.running matches anywhere"),
    ("google_calendar", "check_event_exists"): Procedure(
        frozenset({"event_info", "exists", *(f"event_info.{k}" for k in (
            "summary", "start", "end", "description", "location", "attendees", "colorId", "reminders",
            "recurrence"))}), event_check),
    ("google_calendar", "create_event"): Procedure(
        frozenset({"event_info", *(f"event_info.{k}" for k in ("summary", "start", "end", "description", "location"))}),
        create_event),
    ("gmail", "check_sent_message_exists"): Procedure(
        frozenset({"message_info", "exists", *(f"message_info.{k}" for k in (
            "subject", "recipient", "body", "cc", "attachment", "in", "body_contains"))}),
        sent_check),
    ("gmail", "check_draft_exists"): Procedure(
        frozenset({"draft_info", "exists", *(f"draft_info.{k}" for k in (
            "subject", "recipient", "body", "cc", "attachment", "in"))}), draft_check),
    ("gmail", "is_email_in_trash"): Procedure(
        frozenset({"message_info", "in_trash", *(f"message_info.{k}" for k in ("subject", "recipient", "body", "body_contains"))}),
        in_trash),
    ("gmail", "is_email_marked_important"): Procedure(
        frozenset({"message_info", "gt", *(f"message_info.{k}" for k in ("subject", "recipient", "body"))}),
        important),
    ("gmail", "check_label_exists"): Procedure(frozenset({"label_name", "exists"}), label_check),
    ("gmail", "send_message"): Procedure(
        frozenset({"message_info", *(f"message_info.{k}" for k in ("subject", "recipient", "body"))}), send),
    ("gmail", "trash_message"): Procedure(
        frozenset({"message_info", *(f"message_info.{k}" for k in ("subject", "body_contains"))}), trash),
    ("gmail", "create_draft"): Procedure(
        frozenset({"draft_info", *(f"draft_info.{k}" for k in ("subject", "recipient", "body"))}), draft),
    ("gmail", "create_label"): Procedure(frozenset({"label_name"}), label),
    ("google_docs", "create_document"): Procedure(frozenset({"title", "content", "hyperlink"}), document),
    ("google_docs", "check_doc_exists"): Procedure(frozenset({"title", "content", "exists"}), doc_check),
    ("google_docs", "hyperlink_match"): Procedure(frozenset({"title", "text", "url", "exists"}), doc_link),
    ("google_docs", "text_format_match"): Procedure(frozenset({"title", "text", "font", "size"}), text_format),
    ("google_drive", "check_file_exists"): Procedure(frozenset({"file_name", "exists"}), file_check),
    ("sheets", "compare_table"): Procedure(frozenset({"result", "expected", "options"}), _sheets),
    ("slides", "compare_pptx_files"): Procedure(frozenset({"result", "expected", "options"}), _slides),
    ("docs", "compare_docx_files"): Procedure(frozenset({"docx_file1", "docx_file2", "options"}),
                                              _office("docs", "compare_docx_files", ("docx_file1", "docx_file2"), _docx_options)),
    **{("docs", f): Procedure(frozenset({"docx_file1", "docx_file2"}),
                              _office("docs", f, ("docx_file1", "docx_file2"), _no_options))
       for f in ("compare_docx_tables", "compare_line_spacing", "compare_subscript_contains", "compare_contains_image")},
    ("docs", "check_tabstops"): Procedure(frozenset({"docx_ref", "docx_file", "kwargs"}), tabstops),
    ("docs", "compare_docx_lines"): Procedure(frozenset({"file1", "file2"}),
                                              _office("docs", "compare_docx_lines", ("file1", "file2"), _no_options)),
    ("docs", "evaluate_strike_through_last_paragraph"): Procedure(
        frozenset({"docx_ref", "docx_file"}),
        _office("docs", "evaluate_strike_through_last_paragraph", ("docx_file", "docx_ref"), _no_options)),
    **{("docs", f): Procedure(frozenset({"docx_file"}), _office("docs", f, ("docx_file",), _no_options))
       for f in ("is_first_line_centered", "has_page_numbers_in_footers")},
    ("docs", "compare_font_names"): Procedure(frozenset({"docx_file", "rules", "rules.font_name"}),
                                              _office("docs", "compare_font_names", ("docx_file",), _no_options, "rules")),
    ("docs", "compare_docx_images"): Procedure(frozenset({"docx_file1", "docx_file2"}), _office(
        "docs", "compare_docx_images", ("docx_file1", "docx_file2"), _no_options)),
    ("docs", "compare_insert_equation"): Procedure(frozenset({"docx_file1", "docx_file2"}), insert_equation),
    ("docs", "evaluate_colored_words_in_tables"): Procedure(frozenset({"docx_ref", "docx_file"}), colored_words),
    ("docs", "compare_references"): Procedure(frozenset({"docx_file1", "docx_file2", "options"}), references),
    ("docs", "check_highlighted_words"): Procedure(frozenset({"docx_ref", "docx_file"}), highlighted_words),
    **{("vscode", f): _reported({"extension_id", "extension_list", "exists", "published_before", "version"}, _VSCODE)
       for f in ("install_extension", "uninstall_all_extensions", "extension_installed", "is_extension_disabled")},
    **{("gimp", f): Procedure(frozenset({"src_path", "tgt_path", "threshold"}), convert)
       for f, convert in _GIMP_CHECKS.items()},
    **{("gimp", f): _reported({"src_path", "tgt_path", "threshold", "rule", "rules"}, _GIMP)
       for f in ("check_green_background", "check_image_file_size", "check_image_size", "check_structure_sim_resized",
                 "check_textbox_on_leftside", "check_triangle_position")},
}
"""(evaluator, function) -> its params and its translation (or the reason it is reported)."""

DROPPED: dict[tuple[str, str], frozenset[str]] = {
    ("gmail", "delete_draft"): frozenset({"draft_info", "draft_info.subject", "draft_info.recipient", "draft_info.body"}),
    ("gmail", "delete_label"): frozenset({"label_name"}),
    ("gmail", "delete_sent_message"): frozenset({"message_info", "include_trash", *(f"message_info.{k}" for k in (
        "subject", "recipient", "body", "body_contains"))}),
    ("google_calendar", "clear_calendar"): frozenset(),
    ("google_docs", "delete_document"): frozenset({"title", "content"}),
}
"""Steps that only undo what a previous run left: a Google task starts from google.reset's empty account."""
