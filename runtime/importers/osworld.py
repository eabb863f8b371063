"""OSWorld tasks (evaluation_examples/examples/<domain>/<uuid>.json) -> deskact tasks.

An OSWorld task has ``config`` (set-up, ``osworld_setup``) and an ``evaluator``
``{func, result, expected, options, postconfig, conj}``: getters (``osworld_getters``)
fetch what a metric compares. A task is converted whole or reported with every reason:
``FIELDS`` lists each field of the format this importer knows, translated or not, and a
test walks real task files to keep that table complete. Windows tasks (``Windows/``,
``C:\\`` paths) are reported, not converted as Linux tasks; files that are not tasks
(``template.json``, an empty instruction) are listed as ignored.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from pathlib import Path, PurePosixPath
from typing import Any

from ...toolkits.builtin import BROWSER_TOOLKIT, DESKTOP_TOOLKIT
from . import osworld_chrome, osworld_metrics_tables
from . import osworld_getters as getters
from .common import (
    ImportOptions,
    ImportReport,
    Untranslatable,
    escape,
    load_json_files,
    run_import,
    step,
)
from .downloads import Downloader
from .osworld_metrics import METRICS, split_parts, translate_evaluator
from .osworld_metrics_vlc import check_vlc_http
from .osworld_setup import CACHE_DIR, SETUP_REASONS, SETUP_TYPES, Setup, check_not_gnome, command_line, vm_path

__all__ = ["FIELDS", "command_line", "convert", "field_status", "import_osworld", "vm_path"]


class _Task:
    """One task being built: its steps, notes, and every reason it cannot be converted."""

    def __init__(self, task_id: str, opts: ImportOptions, downloads: Downloader) -> None:
        self.task_id, self.opts, self.downloads = task_id, opts, downloads
        self.setup = Setup(self.download_step)
        self.reset: list[dict[str, Any]] = []
        self.before: list[dict[str, Any]] = []
        self.judge: list[dict[str, Any]] = []
        self.reasons: list[str] = []
        self.display = False
        """A judge reads the task's display (its X clipboard): the task is visual, so it has one."""

    def attempt(self, fn: Callable[..., None], *args: Any) -> None:
        try:
            fn(*args)
        except Untranslatable as exc:
            self.reasons.append(str(exc))
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            self.reasons.append(f"malformed: {type(exc).__name__}: {str(exc)[:120]}")

    def download_step(self, url: str, path: str) -> dict[str, Any]:
        """``files.download`` from the web, or with ``--fetch`` (or a local mirror copy) ``files.copy``
        of the file fetched now into the suite's files/."""
        if self.opts.fetch or self.downloads.local(url):
            name = path.rstrip("/").rsplit("/", 1)[-1]
            return step("reset", "files.copy", src=self.downloads.get(url, "files", self.task_id, name), dst=path)
        return step("reset", "files.download", url=self.downloads.source(url), path=path)

    def gold(self, url: str, name: str) -> str:
        """An expected file fetched now into gold/; its path for the judge's reference param."""
        if not self.opts.fetch_gold:
            raise Untranslatable(f"gold file: the expected file {url} is not fetched (--no-fetch-gold)")
        return self.downloads.get(url, "gold", self.task_id, name)


# --- evaluator ---------------------------------------------------------------------------------

def _infeasible(t: _Task, part: dict[str, Any]) -> None:
    # Not a metric: the right answer is to say the task cannot be done (the kernel's infeasible("why")).
    t.judge.append(step("judge", "answer.infeasible"))


def _reasons(groups: dict[str, list[str]]) -> dict[str, str]:
    return {func: reason for reason, funcs in groups.items() for func in funcs}


FUNC_REASONS: dict[str, str] = _reasons({
    "a Chrome metric on a live web page, Chrome's extensions, flags or tab session, or a GNOME shortcut: no"
    " deskact judge decides as it does offline": [
        "check_enabled_experiments", "is_added_to_steam_cart", "is_cookie_deleted", "is_shortcut_on_desktop",
        "is_expected_tabs", "is_expected_url_pattern_match", "is_expected_installed_extensions",
        "is_expected_search_query", "check_direct_json_object", "is_in_list", "compare_htmls",
        "check_html_background_image"],
    "a GIMP metric of sharpness (the variance of OpenCV's Laplacian of OpenCV's own grayscale decoding): no"
    " deskact judge decides as it does": ["check_sharper"],
    "a VLC metric of audio similarity (a DTW distance of librosa's MFCCs, solved only at exactly 0): no deskact"
    " judge decides as it does": ["compare_audios"],
    "a Thunderbird metric (the thunderbird domain's issue)": [
        "check_csv", "check_thunderbird_filter", "check_thunderbird_prefs", "run_sqlite3",
        "check_thunderbird_folder", "check_json", "check_list"],
    "a VS Code metric: VS Code is not in deskact's world (no package registry reachable here ships it)": [
        "check_json_keybindings", "check_json_settings", "compare_config", "is_extension_installed",
        "check_python_file_by_test_suite", "check_line_number"],
    "a GNOME desktop setting: deskact's desktop is not GNOME": [
        "check_gnome_favorite_apps", "check_text_enlarged", "is_utc_0"],
    "an office metric without a deskact judge yet": [
        "check_pdf_pages", "check_auto_saving_time", "check_image_stretch_and_center",
        "check_page_number_colors", "check_presenter_console_disable", "check_slide_orientation_Portrait",
        "check_transition", "contains_mp4_video", "evaluate_presentation_fill_to_rgb_distance",
        "check_highlighted_words", "check_italic_font_size_14", "check_tabstops", "compare_contains_image",
        "compare_docx_lines", "compare_font_names", "compare_highlighted_text", "compare_insert_equation",
        "compare_line_spacing", "compare_subscript_contains", "contains_page_break",
        "evaluate_colored_words_in_tables", "evaluate_strike_through_last_paragraph", "find_default_font",
        "has_page_numbers_in_footers", "is_first_line_centered", "compare_docx_tables",
        "compare_docx_files_and_ignore_new_lines", "compare_docx_images", "compare_csv", "compare_pdfs"],
    "a file metric without a deskact judge yet": [
        "check_moved_jpgs", "compare_images", "compare_conference_city_in_order",
        "compare_image_list", "compare_image_text", "compare_python_pure_text",
        "compare_references", "compare_result_files", "compare_time_in_speedtest_results",
        "diff_text_file", "file_contains", "literal_match",
        "compare_text_file"],
    "the template's placeholder func": ["func"],
})
"""OSWorld evaluator funcs that are reported, with the reason."""

TASK_KEYS: dict[str, str | None] = {
    "id": None, "snapshot": None, "instruction": None, "config": None, "evaluator": None,
    "source": "where the task came from: not needed to run it",
    "trajectory": "OSWorld's folder for recorded runs: not needed to run it",
    "related_apps": "the apps the task involves: deskact reads them from the set-up steps",
}
EVALUATOR_KEYS: dict[str, str | None] = dict.fromkeys(("func", "result", "expected", "options", "postconfig", "conj"))

FIELDS: dict[str, dict[str, str | None]] = {
    "task": TASK_KEYS,
    "evaluator": EVALUATOR_KEYS,
    "config": {**dict.fromkeys(SETUP_TYPES), **SETUP_REASONS},
    "func": {**FUNC_REASONS, "": "func empty: the task has no evaluator", "infeasible": None,
             **{k: None for k in METRICS if k != "infeasible"}},
    "getter": {**dict.fromkeys(getters.GETTER_KEYS), **getters.GETTER_REASONS},
}
"""Every field of OSWorld's task format this importer knows: None = translated, else why not."""


def field_status(kind: str, value: str) -> str | None:
    """``translated``, the reason ``value`` of ``kind`` is reported, or None for a field not in FIELDS.
    ``option`` values are ``<func>.<key>``: a translated func's metric translation reads or reports
    each of its options; an untranslated func's options share its reason."""
    if kind == "option":
        func = value.split(".", 1)[0]
        return "read or reported by osworld_metrics" if func in METRICS else field_status("func", func)
    table = FIELDS[kind]
    if value not in table:
        return None
    return table[value] or "translated"


def _evaluator(t: _Task, ev: dict[str, Any]) -> None:
    unknown = sorted(set(ev) - set(EVALUATOR_KEYS))
    if unknown:
        raise Untranslatable(f"evaluator keys {unknown}: not translated")
    if ev.get("func") == "infeasible":
        _infeasible(t, ev)
        return
    if "result" in ev:
        results = ev["result"]
        ev = {**ev, "result": [getters.stderr_as_output(r) for r in results] if isinstance(results, list)
              else getters.stderr_as_output(results)}
    for part in split_parts(ev) if ev.get("func") else []:
        if part["func"] == "infeasible":
            raise Untranslatable("func infeasible in a list: a task is either infeasible or not")
        for where in ("result", "expected"):
            if part.get(where):  # a getter this importer knows must not carry keys it does not honour
                t.attempt(getters.check_keys, part[where], where)
            if isinstance(part.get(where), dict) and "command" in part[where]:
                t.attempt(check_not_gnome, part[where]["command"], f"{where} command")
    out = translate_evaluator(ev, t.gold, vm_path, _judge_command, _cache_path)
    t.judge += out.judge
    t.reset += [s for s in out.reset if s not in t.reset]
    t.setup.notes += out.notes
    t.setup.needs_world |= out.needs_world
    t.display |= out.needs_display
    t.reasons += [_with_reason(r) for r in out.reasons]


def _cache_path(name: str) -> str:
    # Where the set-up saved a command's output (osworld_setup writes CACHE_DIR/<its base name>).
    return f"{CACHE_DIR}/{PurePosixPath(name).name}"


def _judge_command(command: str | list[str]) -> str:
    # OSWorld's task files give a string command with shell true (two simple commands without it,
    # which run the same with or without a shell) and a list without.
    return command_line(command, shell=isinstance(command, str))


def _with_reason(reason: str) -> str:
    """A metric translation's reason, with this importer's word on a func it has no translation for."""
    m = re.match(r"func (\w+): no deskact judge checks the same thing$", reason)
    return f"func {m.group(1)}: {FUNC_REASONS[m.group(1)]}" if m and m.group(1) in FUNC_REASONS else reason


def _windows(raw: dict[str, Any], rel: str) -> bool:
    return rel.split("/", 1)[0].lower() == "windows" or bool(re.search(r"[A-Za-z]:\\\\", str(raw)))


def _ids(raw: dict[str, Any], rel: str) -> tuple[str, str, str]:
    """(source uid, domain, deskact task id); a task file's id or folder may not steer paths."""
    uid = str(raw.get("id") or Path(rel).stem)
    domain = str(raw.get("snapshot") or "osworld") if "/" not in rel else rel.rsplit("/", 2)[-2]
    if not re.fullmatch(r"[\w-]+", uid) or not re.fullmatch(r"[\w-]+", domain):
        raise Untranslatable(f"id: {uid!r} in {domain!r} is not made of letters, digits, '-' and '_'")
    return uid, domain, f"osworld-{domain.replace('_', '-').lower()}-{uid[:8]}"


def convert(raw: dict[str, Any], rel: str, opts: ImportOptions, downloads: Downloader) -> tuple[dict[str, Any], list[str]]:
    if _windows(raw, rel):
        raise Untranslatable("windows: a Windows task (Windows apps and C:\\ paths); deskact's worlds are Linux")
    uid, domain, task_id = _ids(raw, rel)
    t = _Task(task_id, opts, downloads)
    unknown = sorted(set(raw) - set(TASK_KEYS))
    if unknown:
        t.reasons.append(f"task keys {unknown}: not translated")
    for item in raw.get("config") or []:
        t.attempt(t.setup.item, item, t.reset, "config")
    ev = raw.get("evaluator")
    if not isinstance(ev, dict):
        downloads.discard(task_id)
        raise Untranslatable([*t.reasons, f"evaluator {str(ev)[:40]!r}: not an evaluator object"])
    ev = osworld_metrics_tables.resaved_gold(ev)  # a gold the VM saves after the episode stays on the host
    for item in ev.get("postconfig") or []:
        t.attempt(t.setup.item, item, t.before, "postconfig")
    t.attempt(_evaluator, t, ev)
    t.attempt(osworld_chrome.check_offline, t.reset, t.judge)
    t.attempt(check_vlc_http, t.reset + t.before, t.judge)
    if t.reasons:
        downloads.discard(task_id)
        raise Untranslatable(t.reasons)
    return _task(raw, t, uid, domain), t.setup.notes


def _task(raw: dict[str, Any], t: _Task, uid: str, domain: str) -> dict[str, Any]:
    # OSWorld's VM home has a Desktop folder its set-up commands write into.
    reset = ([step("reset", "world.require")] if t.setup.needs_world else []) + [
        step("reset", "files.mkdir", path="${HOME}/Desktop"), *t.reset]
    task: dict[str, Any] = {"id": t.task_id, "instruction": escape(str(raw["instruction"]))}
    # Screenshots only where an app is on screen; the rest can be done in code.
    on_screen = t.setup.keys or t.display or any(next(iter(s)).startswith("apps.") for s in t.reset + t.before)
    browser = any(next(iter(s)).startswith("browser.") for s in t.reset + t.before + t.judge)
    if domain.startswith("libreoffice") or on_screen or browser:
        task.update(visual=True, toolkits=[DESKTOP_TOOLKIT, BROWSER_TOOLKIT] if browser else [DESKTOP_TOOLKIT])
    task.update(tags=["osworld", domain], imported_from=f"osworld:{domain}/{uid}", reset=reset)
    if t.before:
        task["before_judge"] = t.before
    task["judge"] = t.judge
    if t.setup.office:
        task["cleanup"] = [{"apps.kill": {"name": "soffice"}}]
    return task


def is_task(raw: dict[str, Any]) -> bool:
    """A task file, not OSWorld's template or settings: it has an instruction to give."""
    return isinstance(raw.get("instruction"), str) and bool(raw["instruction"].strip()) and "evaluator" in raw


def import_osworld(path: Path, opts: ImportOptions) -> ImportReport:
    """Every ``*.json`` task under ``path`` (OSWorld's examples folder, one domain, or one file)."""
    found = load_json_files(path, "*.json")
    downloads = Downloader(opts)
    try:
        return run_import("osworld", [(rel, raw) for rel, raw in found if is_task(raw)],
                          partial(convert, downloads=downloads), opts, path, lambda raw: str(raw.get("id", "?")),
                          ignored=[rel for rel, raw in found if not is_task(raw)])
    finally:
        downloads.close()
