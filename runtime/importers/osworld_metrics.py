"""OSWorld evaluators -> deskact judges: one table, one entry point (``translate_evaluator``).

An OSWorld ``evaluator`` is ``{func, result, expected, options}``, or lists of them joined by
``conj`` ("and" unless it says "or"). Each func is a metric of ``desktop-env``
(``desktop_env/evaluators/metrics/*.py``); ``result`` and ``expected`` name getters (the output
of a command in the VM, a file in the VM, a file on the web, a fixed rule). A translation is
written only where a deskact judge decides exactly as the metric does, proved by a conformance
test that runs the metric itself on the same files (tests/runtime/importers/osworld_conformance/).
Anything else comes back as a reason sentence, never as a looser judge.

OSWorld scores a metric in [0, 1]; deskact's verdict is pass/fail. A task passes in OSWorld with
score 1, so a translated judge passes exactly when the metric returns 1; options that make a
metric return a partial similarity (``fuzzy_match``, ``content_only``) are reported.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

from pydantic import BaseModel, Field

from .common import NULL, Untranslatable, escape, has_step, step

GoldFetcher = Callable[[str, str], str]
"""(URL of an expected file, file name) -> the judge's ``gold``/``reference`` value (the file
fetched into the suite's gold/ folder). Raises ``Untranslatable`` when it cannot fetch."""


class Translation(BaseModel):
    """What one task's evaluator becomes."""

    judge: list[dict[str, Any]] = Field(default_factory=list)
    """Judge steps, all of which must pass (OSWorld's ``conj: and``)."""
    reset: list[dict[str, Any]] = Field(default_factory=list)
    """Reset steps the judges rely on (a terminal window whose text a judge reads)."""
    notes: list[str] = Field(default_factory=list)
    needs_world: bool = False
    """A judge runs a command in the task's world (``world.require`` at reset)."""
    reasons: list[str] = Field(default_factory=list)
    """Why some part has no faithful translation; the task is reported when this is not empty."""


class _Env:
    """Hooks into the importer: where agent paths go, how commands and gold files are written."""

    def __init__(self, gold: GoldFetcher, agent_path: Callable[[str], str],
                 shell_text: Callable[[str | list[str]], str], out: Translation,
                 cache_path: Callable[[str], str] | None = None) -> None:
        self.gold, self.agent_path, self.shell_text, self.out = gold, agent_path, shell_text, out
        self.cache_path = cache_path

    def judge(self, name: str, **params: Any) -> None:
        self.out.judge.append(step("judge", name, **params))


Part = dict[str, Any]
"""One func with its own result, expected and options."""


# --- command output: exact_match, check_include_exclude, is_in_list ---------------------------

def _command(env: _Env, part: Part) -> str:
    result = part.get("result") or {}
    if result.get("type") != "vm_command_line":
        raise Untranslatable(f"result type {result.get('type')}: {part['func']} is translated for vm_command_line output")
    env.out.needs_world = True
    return env.shell_text(result["command"])


def _rules(part: Part) -> dict[str, Any]:
    expected = part.get("expected") or {}
    if expected.get("type") != "rule":
        raise Untranslatable(f"expected type {expected.get('type')}: {part['func']} is translated for fixed rules")
    return expected.get("rules") or {}


def _escaped(value: Any) -> Any:
    """Source values taken literally in a step's params, strings nested in lists and dicts too."""
    if isinstance(value, str):
        return escape(value)
    if isinstance(value, list):
        return [_escaped(v) for v in value]
    if isinstance(value, dict):
        return {k: _escaped(v) for k, v in value.items()}
    return value


def _literal(text: str) -> str:
    """``text`` as a regex matching exactly it; newlines written ``\\n`` so the YAML stays readable."""
    return re.escape(text).replace("\\\n", "\\n")


def _lacks(text: str) -> str:
    """A regex that matches a text not containing ``text`` anywhere (``\\A`` anchors it once)."""
    return escape(r"\A(?![\s\S]*" + _literal(text) + ")")


def _exact_match(env: _Env, part: Part) -> None:
    """``result == expected``: the whole output, its final newline included (``\\Z`` is the very end)."""
    cmd, expected = _command(env, part), str(_rules(part)["expected"])
    env.judge("shell.output", cmd=cmd, regex=escape(r"\A" + _literal(expected) + r"\Z"), exit_code=NULL)


def _is_in_list(env: _Env, part: Part) -> None:
    """``expected in result`` on a command's output (a string) is a substring test."""
    cmd, expected = _command(env, part), str(_rules(part)["expected"])
    env.judge("shell.output", cmd=cmd, contains=escape(expected), exit_code=NULL)


def _check_direct_json_object(env: _Env, part: Part) -> None:
    """On a command's output (the getters that read a browser are the chrome domain's)."""
    _needs(part["func"], "shell.json_object")
    cmd, rules = _command(env, part), _rules(part)
    if not isinstance(rules.get("expected"), dict):
        raise Untranslatable("func check_direct_json_object: its rule has no expected object")
    unread = sorted(set(rules) - {"expected", "expect_in_result"})
    if unread:
        env.out.notes.append(f"check_direct_json_object ignores rule keys {unread} (as OSWorld does)")
    env.judge("shell.json_object", cmd=cmd, expected=_escaped(rules.get("expected") or {}),
              expect_in_result=bool(rules.get("expect_in_result")) or None)


def _check_include_exclude(env: _Env, part: Part) -> None:
    rules = _rules(part)
    result = part.get("result") or {}
    if result.get("type") == "vm_terminal_output":
        # OSWorld reads the text of the terminal it opens with ctrl+alt+t: a terminal opened at
        # reset, read back with terminal.text.
        if not any("apps.terminal" in s for s in env.out.reset):
            env.out.reset.append(step("reset", "apps.terminal"))
            env.out.notes.append("a terminal window is opened at reset (OSWorld reads its text)")
        for text in rules.get("include", []):
            env.judge("terminal.text", contains=escape(text))
        for text in rules.get("exclude", []):
            env.judge("terminal.text", regex=_lacks(text))
        return
    cmd = _command(env, part)
    for text in rules.get("include", []):
        env.judge("shell.output", cmd=cmd, contains=escape(text), exit_code=NULL)
    for text in rules.get("exclude", []):
        env.judge("shell.output", cmd=cmd, regex=_lacks(text), exit_code=NULL)


# --- files against a gold file --------------------------------------------------------------

def _listed(part: Part, where: str, kind: str) -> list[tuple[str, str]]:
    """(source path or URL, local name) of each file a ``vm_file``/``cloud_file`` getter lists; the
    first is the one the metric is given (``multi`` getters give more files, ``gives: [0]``)."""
    spec = part.get(where) or {}
    if spec.get("type") != kind:
        raise Untranslatable(f"{where} type {spec.get('type')}: {part['func']} is translated for {kind}")
    paths, dests = spec.get("path"), spec.get("dest")
    if not spec.get("multi"):
        if isinstance(paths, list) or not isinstance(paths, str):
            raise Untranslatable(f"{where} type {kind}: {part['func']} is translated for one {kind} (or multi)")
        return [(paths, dests if isinstance(dests, str) else PurePosixPath(paths).name)]
    if list(spec.get("gives", [0])) != [0]:
        raise Untranslatable(f"{where} gives {spec.get('gives')}: only a metric given the first file is translated")
    if not isinstance(paths, list) or not isinstance(dests, list) or len(paths) != len(dests):
        raise Untranslatable(f"{where} type {kind}: multi needs lists of paths and dests of the same length")
    return list(zip(paths, dests))


def _files(env: _Env, part: Part) -> tuple[str, str]:
    """(agent path of the result file, gold reference) for a vm_file against a cloud_file."""
    result, expected = _listed(part, "result", "vm_file")[0], _listed(part, "expected", "cloud_file")[0]
    name = (part["expected"].get("dest") and expected[1]) or PurePosixPath(result[0]).name
    return env.agent_path(result[0]), env.gold(expected[0], name)


def _sibling(listed: list[tuple[str, str]], sheet: str, where: str) -> tuple[str, str]:
    """The CSV OSWorld reads for ``sheet`` of the listed workbook: ``<its name>-<sheet>.csv``."""
    want = f"{PurePosixPath(listed[0][1]).stem}-{sheet}.csv"
    found = [item for item in listed[1:] if item[1] == want]
    if not found:
        raise Untranslatable(f"func compare_table: sheet_print reads {want}, which the {where} getter does not list")
    return found[0]


def _known_options(part: Part, read: set[str], reported: dict[str, str]) -> dict[str, Any]:
    """The options the metric reads; an option it reads but deskact cannot honour is a reason,
    one it never reads (a typo in the task file) is ignored as OSWorld ignores it."""
    options = dict(part.get("options") or {})
    for key, why in reported.items():
        if options.get(key):
            raise Untranslatable(f"func {part['func']}: option {key} {why}")
    return {k: v for k, v in options.items() if k in read}


def _needs(func: str, judge_name: str) -> None:
    if not has_step("judge", judge_name):
        raise Untranslatable(f"func {func}: needs judge {judge_name}, which this deskact does not have")


_PARTIAL = "makes the metric return a similarity between 0 and 1, not a pass/fail"


def _compare_docx_files(env: _Env, part: Part) -> None:
    _needs(part["func"], "docx.compare")
    opts = _known_options(part, {"ignore_blanks", "ignore_case", "ignore_order", "delete_empty_lines"},
                          {"fuzzy_match": _PARTIAL, "content_only": _PARTIAL})
    path, reference = _files(env, part)
    if not path.endswith(".docx"):
        raise Untranslatable(f"func {part['func']}: only .docx files are compared (not {path.rsplit('.', 1)[-1]})")
    env.judge("docx.compare", path=path, reference=reference, **opts)


def _compare_docx_ignoring_new_lines(env: _Env, part: Part) -> None:
    """compare_docx_files' text comparison after paragraphs with no text at all are dropped."""
    _needs(part["func"], "docx.compare")
    opts = _known_options(part, {"ignore_blanks"}, {})
    path, reference = _files(env, part)
    if not path.endswith(".docx"):
        raise Untranslatable(f"func {part['func']}: only .docx files are compared")
    env.judge("docx.compare", path=path, reference=reference, drop_empty_paragraphs=True, **opts)


def _compare_references(env: _Env, part: Part) -> None:
    """At its full score (the references' mean similarity is 1): the same references."""
    _needs(part["func"], "docx.compare")
    opts = _known_options(part, {"reference_indicator", "reference_base_result"}, {})
    if float(opts.get("reference_base_result", 0.5)) > 0.99:  # 1 must reach the base + 0.01
        raise Untranslatable("func compare_references: a reference_base_result above 0.99 cannot be reached")
    path, reference = _files(env, part)
    if not path.endswith(".docx"):
        raise Untranslatable(f"func {part['func']}: only .docx files are compared")
    env.judge("docx.compare", path=path, reference=reference, compare=["references"],
              reference_indicator=escape(opts["reference_indicator"]) if "reference_indicator" in opts else None)


def _compare_docx_part(aspects: list[str]) -> Callable[[_Env, Part], None]:
    def convert(env: _Env, part: Part) -> None:
        _needs(part["func"], "docx.compare")
        path, reference = _files(env, part)
        env.judge("docx.compare", path=path, reference=reference, compare=aspects)

    return convert


def _result_file(env: _Env, part: Part) -> str:
    return env.agent_path(_listed(part, "result", "vm_file")[0][0])


def _text_result(env: _Env, part: Part) -> str:
    """A file the agent left (vm_file) or a set-up command's saved output (cache_file)."""
    result = part.get("result") or {}
    if result.get("type") == "cache_file" and isinstance(result.get("path"), str):
        if env.cache_path is None:
            raise Untranslatable("result type cache_file: the importer gives no place for set-up commands' output")
        return env.cache_path(result["path"])
    return _result_file(env, part)


def _check_list(env: _Env, part: Part) -> None:
    _needs(part["func"], "files.lines")
    rules = _rules(part)
    env.judge("files.lines", path=_text_result(env, part), expect=[escape(r) for r in rules.get("expect", [])],
              unexpect=[escape(r) for r in rules.get("unexpect", [])])


def _docx_format(func: str, with_text: bool = False, **checks: Any) -> Callable[[_Env, Part], None]:
    """A Writer metric that checks the result's own formatting (after comparing its text with the
    gold document's, for ``with_text``): docx.format with ``checks``."""

    def convert(env: _Env, part: Part) -> None:
        _needs(func, "docx.format")
        if with_text:
            path, reference = _files(env, part)
            env.judge("docx.compare", path=path, reference=reference)
        else:
            path = _result_file(env, part)
        env.judge("docx.format", path=path, **checks)

    return convert


def _rule(part: Part, key: str) -> Any:
    rules = _rules(part)
    if key not in rules:
        raise Untranslatable(f"func {part['func']}: its rule has no {key}")
    return rules[key]


def _check_tabstops(env: _Env, part: Part) -> None:
    """At its full score (1 - the tab stops' summed distance): the same tab stops everywhere."""
    _needs(part["func"], "docx.compare")
    opts = _known_options(part, {"word_number_split_by_tabstop", "index"}, {})
    path, reference = _files(env, part)
    env.judge("docx.compare", path=path, reference=reference, compare=["tab_stops"],
              words_before_tab=opts.get("word_number_split_by_tabstop"), tab_index=opts.get("index"))


def _compare_font_names(env: _Env, part: Part) -> None:
    _needs(part["func"], "docx.format")
    env.judge("docx.format", path=_result_file(env, part), font=escape(str(_rule(part, "font_name"))))


def _contains_page_break(env: _Env, part: Part) -> None:
    _needs(part["func"], "docx.format")
    if not (part.get("expected") or {}).get("type"):
        raise Untranslatable("func contains_page_break: OSWorld calls it without its rules argument here, so the"
                             " metric raises and the task never passes")
    count = _rules(part).get("page_break_count")
    env.judge("docx.format", path=_result_file(env, part), page_breaks=count, any_page_break=True)


def _pptx_format(func: str, rule_params: dict[str, str], **fixed: Any) -> Callable[[_Env, Part], None]:
    """An Impress metric on the result alone: pptx.format with ``fixed`` params and those its rule
    gives (rule key -> judge param)."""

    def convert(env: _Env, part: Part) -> None:
        _needs(func, "pptx.format")
        params = {param: _escaped(_rule(part, key)) for key, param in rule_params.items()}
        env.judge("pptx.format", path=_result_file(env, part), **fixed, **params)

    return convert


def _pptx_background(env: _Env, part: Part) -> None:
    """At its full score (1 - the mean distance to the colour): every slide's background is it."""
    _needs(part["func"], "pptx.format")
    rules = _rules(part)
    env.judge("pptx.format", path=_result_file(env, part), background_rgb=list(_rule(part, "rgb")),
              not_background_rgb=rules.get("original_rgb"))


def _pptx_stretched(env: _Env, part: Part) -> None:
    _needs(part["func"], "pptx.format")
    path, reference = _files(env, part)
    env.judge("pptx.format", path=path, stretched_picture_of=reference)


_LO_SETTINGS: dict[str, tuple[str, str, str | None, dict[str, Any]]] = {
    "check_presenter_console_disable": ("/org.openoffice.Office.Impress/Misc/Start", "EnablePresenterScreen", None,
                                        {"equals": "false", "ignore_case": True, "occurrence": "first"}),
    "check_auto_saving_time": ("/org.openoffice.Office.Common/Save/Document", "AutoSaveTimeIntervall", "minutes",
                               {"number": True}),
    "find_default_font": ("/org.openoffice.Office.Writer/DefaultFont", "Standard", "font_name", {}),
}
"""Metrics reading one setting of LibreOffice's registrymodifications.xcu: item path, prop, the
rule key giving the expected value (None: fixed in the params), judge params."""


def _libreoffice_setting(env: _Env, part: Part) -> None:
    _needs(part["func"], "config.libreoffice")
    item, prop, key, params = _LO_SETTINGS[part["func"]]
    expected = {"equals": escape(str(_rule(part, key)))} if key else {}
    env.judge("config.libreoffice", path=_result_file(env, part), item=item, prop=prop, **params, **expected)


_PPTX_ASPECTS = ("number_of_slides", "shape", "text", "indent", "font_name", "font_size", "font_bold",
                 "font_italic", "color_rgb", "font_underline", "strike_through", "alignment", "bullets",
                 "background_color", "note")
_PPTX_EXTRAS = ("image_size", "modify_height", "title_bottom_position", "table_bottom_position",
                "right_position", "top_position", "shape_for_shift_size")


def _compare_pptx_files(env: _Env, part: Part) -> None:
    _needs(part["func"], "pptx.compare")
    read = {f"examine_{a}" for a in _PPTX_ASPECTS + _PPTX_EXTRAS} | {"approximately_tolerance"}
    opts = _known_options(part, read, {})
    unread = sorted(set(part.get("options") or {}) - read - {"enable_debug"})
    if unread:
        env.out.notes.append(f"compare_pptx_files ignores options {unread} (as OSWorld does: it never reads them)")
    path, reference = _files(env, part)
    ignore = [a for a in _PPTX_ASPECTS if opts.get(f"examine_{a}") is False]
    extra = [a for a in _PPTX_EXTRAS if opts.get(f"examine_{a}")]
    env.judge("pptx.compare", path=path, reference=reference, ignore=ignore or None, extra=extra or None,
              tolerance=opts.get("approximately_tolerance"))


def _compare_text_file(env: _Env, part: Part) -> None:
    _needs(part["func"], "files.compare_text")
    opts = _known_options(part, {"ignore_blanks", "ignore_case"}, {})
    path, reference = _files(env, part)
    env.judge("files.compare_text", path=path, reference=reference, **opts)


def _sheet_pair(rule: dict[str, Any]) -> tuple[str, str | int]:
    """("name", sheet name) or ("position", index) of a sheet_data rule comparing the result's sheet
    with the same sheet of the expected workbook, as ``_parse_sheet_idx`` reads the two indexes."""
    first, second = rule.get("sheet_idx0"), str(rule.get("sheet_idx1"))
    if isinstance(first, int) and not isinstance(first, bool):
        first = f"RI{first}"
    first = str(first)
    if first.startswith("RN") and second == "EN" + first[2:]:
        return "name", first[2:]
    if first.startswith("RI") and second == "EI" + first[2:] and first[2:].isdigit():
        return "position", int(first[2:])
    raise Untranslatable(f"func compare_table: sheet_data compares sheet {rule.get('sheet_idx0')!r} with"
                         f" {rule.get('sheet_idx1')!r}; only a result sheet against the same expected sheet is translated")


def _compare_images(env: _Env, part: Part) -> None:
    _needs(part["func"], "image.same_gray")
    _known_options(part, set(), {"reference_base_result": "scores the gain over a base similarity, not a match"})
    path, reference = _files(env, part)
    env.judge("image.same_gray", path=path, reference=reference)


def _compare_image_list(env: _Env, part: Part) -> None:
    """A list of images, each the same as its gold one; a multi getter gives the metric only the
    first of each list (gives: [0]), so only those are compared, as in OSWorld."""
    _needs(part["func"], "image.identical")
    path, reference = _files(env, part)
    env.judge("image.identical", path=path, reference=reference)


def _diff_text_file(env: _Env, part: Part) -> None:
    """difflib's ratio of the two files' lines is 1 only when the lines are the same."""
    _needs(part["func"], "files.compare_text")
    path, reference = _files(env, part)
    env.judge("files.compare_text", path=path, reference=reference, by_lines=True)


def _check_json(env: _Env, part: Part) -> None:
    _needs(part["func"], "config.rules")
    opts = _known_options(part, {"is_yaml"}, {})
    rules = _rules(part)
    env.judge("config.rules", path=_result_file(env, part), expect=_escaped(rules.get("expect") or []),
              unexpect=_escaped(rules.get("unexpect") or []), yaml_file=bool(opts.get("is_yaml")) or None)


def _compare_result_files(env: _Env, part: Part) -> None:
    _needs(part["func"], "files.compare_text")
    path, reference = _files(env, part)
    env.judge("files.compare_text", path=path, reference=reference, result_number=True)


def _compare_conference_city_in_order(env: _Env, part: Part) -> None:
    _needs(part["func"], "xlsx.contains_in_order")
    expected = _rule(part, "expected")
    env.judge("xlsx.contains_in_order", path=_result_file(env, part), cells="C2:C22", expected=_escaped(expected))


def _compare_csv(env: _Env, part: Part) -> None:
    _needs(part["func"], "csv.compare")
    opts = _known_options(part, {"strict", "ignore_case"}, {})
    path, reference = _files(env, part)
    env.judge("csv.compare", path=path, reference=reference, strip=not opts.get("strict", True) or None,
              ignore_case=opts.get("ignore_case"))


def _sheet_ref(index: Any, book: str) -> str | int:
    """A sheet of the result (``book`` "R") or expected ("E") workbook: a name (``RN``/``EN``) or a
    position (``RI``/``EI``, or a bare number for the result), as ``_parse_sheet_idx`` reads it."""
    if isinstance(index, int) and not isinstance(index, bool) and book == "R":
        return index
    text = str(index)
    if text.startswith(book + "N"):
        return text[2:]
    if text.startswith(book + "I") and text[2:].isdigit():
        return int(text[2:])
    raise Untranslatable(f"func compare_table: sheet index {index!r} is not a sheet of the"
                         f" {'result' if book == 'R' else 'expected'} workbook where this rule reads one")


def _table_files(env: _Env, part: Part, needs_gold: bool) -> tuple[str, str | None]:
    if needs_gold or (part.get("expected") or {}).get("type") is not None:
        return _files(env, part)
    return env.agent_path(_listed(part, "result", "vm_file")[0][0]), None


def _printed(env: _Env, part: Part, rule: dict[str, Any]) -> None:
    """sheet_print: the CSV LibreOffice printed for the sheet (a postconfig command makes it) against
    the gold CSV, lines stripped, trailing blank lines dropped."""
    sheet, gold_sheet = _sheet_ref(rule.get("sheet_idx0"), "R"), _sheet_ref(rule.get("sheet_idx1"), "E")
    if isinstance(sheet, int) or isinstance(gold_sheet, int):
        raise Untranslatable("func compare_table: sheet_print by position reads a CSV named after whatever the"
                             " sheet is called when the task ends; only sheets by name are translated")
    result = _sibling(_listed(part, "result", "vm_file"), sheet, "result")
    expected = _sibling(_listed(part, "expected", "cloud_file"), gold_sheet, "expected")
    env.judge("csv.compare", path=env.agent_path(result[0]), reference=env.gold(*expected), strip=True,
              ignore_trailing_blank=True, ignore_case=bool(rule.get("ignore_case")) or None)


def _cell_checks(rule: dict[str, Any]) -> list[dict[str, Any]]:
    props = rule.get("props") or {}
    if set(props) - {"value"}:
        raise Untranslatable(f"func compare_table: check_cell props {sorted(set(props) - {'value'})}"
                             " (cell styles) have no xlsx.ranges check")
    return [{"coordinate": rule["coordinate"], "method": props["value"]["method"], "ref": _escaped(props["value"]["ref"])}
            ] if props else []


def _compare_table(env: _Env, part: Part) -> None:
    """sheet_data (pandas' DataFrame.equals after rounding floats to ``precision``, 4 by default:
    every value, text taken exactly, a column of numbers and numeric text read as numbers) and
    sheet_name rules -> one xlsx.compare (which also opens both workbooks, as the metric does
    first); sheet_fuzzy and check_cell (values) -> xlsx.ranges; sheet_print -> csv.compare;
    chart -> xlsx.charts; pivot_table -> xlsx.pivots; freeze, zoom, row_props and col_props ->
    xlsx.view; data_validation -> xlsx.validation_rules."""
    _needs(part["func"], "xlsx.compare")
    rules = (part.get("options") or {}).get("rules") or []
    unsupported = sorted({str(r.get("type")) for r in rules}
                         - {"sheet_data", "sheet_name", "sheet_fuzzy", "check_cell", "sheet_print", "chart",
                            "freeze", "zoom", "pivot_table", "row_props", "col_props", "data_validation"})
    if unsupported:
        raise Untranslatable(f"func compare_table: rule types {unsupported} have no xlsx.compare option")
    data = [r for r in rules if r["type"] == "sheet_data"]
    pairs = [_sheet_pair(r) for r in data]
    kinds = {kind for kind, _ in pairs}
    names_too = any(r["type"] == "sheet_name" for r in rules)
    if len(kinds) > 1 or (kinds == {"name"} and names_too):
        raise Untranslatable("func compare_table: sheets picked both by name and by position (or names with a"
                             " sheet_name rule) have no single xlsx.compare")
    if len({r.get("precision", 4) for r in data}) > 1:
        raise Untranslatable("func compare_table: sheet_data rules with different precisions")
    if any(r.get("ignore_case") for r in data):
        env.out.notes.append("compare_table: ignore_case on sheet_data is not read by OSWorld either")
    fuzzy = [r for r in rules if r["type"] == "sheet_fuzzy"]
    checks = [r for r in rules if r["type"] == "check_cell"]
    ranges = [(_sheet_ref(r.get("sheet_idx0"), "R"), _sheet_ref(r.get("sheet_idx1"), "E"), r.get("rules") or [])
              for r in fuzzy]
    cells = [(_sheet_ref(r.get("sheet_idx"), "R"), _cell_checks(r)) for r in checks]
    printed = [r for r in rules if r["type"] == "sheet_print"]
    charted = any(r["type"] in ("chart", "freeze", "pivot_table", "row_props", "col_props") for r in rules)
    path, gold = _table_files(env, part, needs_gold=bool(data or names_too or fuzzy or printed or charted))
    if data or names_too or not (fuzzy or checks):
        picked = [value for _, value in pairs]
        # No sheet_data rule (a sheet_name rule alone): no position is compared, only the names.
        env.judge("xlsx.compare", path=path, gold=gold, sheet_names=names_too, exact_text=True, numeric_text=True,
                  decimals=data[0].get("precision", 4) if data else None, tolerance=0,
                  sheets=picked if kinds == {"name"} else None, positions=None if kinds == {"name"} else picked)
    for sheet, gold_sheet, range_rules in ranges:
        env.judge("xlsx.ranges", path=path, sheet=sheet, gold=gold, gold_sheet=gold_sheet, ranges=_escaped(range_rules))
    for sheet, sheet_checks in cells:
        env.judge("xlsx.ranges", path=path, sheet=sheet, checks=sheet_checks)
    for rule in printed:
        _printed(env, part, rule)
    for rule in (r for r in rules if r["type"] == "freeze"):
        env.judge("xlsx.view", path=path, gold=gold, same_freeze=True, sheet=_sheet_ref(rule.get("sheet_idx0"), "R"),
                  gold_sheet=_sheet_ref(rule.get("sheet_idx1"), "E"))
    for rule in (r for r in rules if r["type"] == "zoom"):
        env.judge("xlsx.view", path=path, sheet=_sheet_ref(rule.get("sheet_idx"), "R"),
                  zoom={"coordinate": "", "method": rule["method"], "ref": rule["ref"]})
    for rule in (r for r in rules if r["type"] in ("row_props", "col_props")):
        which = "same_rows" if rule["type"] == "row_props" else "same_columns"
        env.judge("xlsx.view", path=path, gold=gold, sheet=_sheet_ref(rule.get("sheet_idx0"), "R"),
                  gold_sheet=_sheet_ref(rule.get("sheet_idx1"), "E"), **{which: list(rule.get("props") or [])})
    for rule in (r for r in rules if r["type"] == "data_validation"):
        env.judge("xlsx.validation_rules", path=path, sheet=_sheet_ref(rule.get("sheet_idx"), "R"),
                  rules=_escaped(rule.get("dv_props") or []))
    for rule in (r for r in rules if r["type"] == "pivot_table"):
        env.judge("xlsx.pivots", path=path, gold=gold, props=list(rule.get("pivot_props") or []),
                  sheet=_sheet_ref(rule.get("sheet_idx0"), "R"), gold_sheet=_sheet_ref(rule.get("sheet_idx1"), "E"))
    for rule in (r for r in rules if r["type"] == "chart"):
        env.judge("xlsx.charts", path=path, gold=gold, props=list(rule.get("chart_props") or []),
                  sheet=_sheet_ref(rule.get("sheet_idx0"), "R"), gold_sheet=_sheet_ref(rule.get("sheet_idx1"), "E"))


def _infeasible(env: _Env, part: Part) -> None:
    raise Untranslatable("func infeasible: a whole task's evaluator, translated by the importer (answer.infeasible),"
                         " not one metric among others")


METRICS: dict[str, Callable[[_Env, Part], None]] = {
    "exact_match": _exact_match,
    "check_include_exclude": _check_include_exclude,
    "is_in_list": _is_in_list,
    "check_direct_json_object": _check_direct_json_object,
    "compare_table": _compare_table,
    "compare_docx_files": _compare_docx_files,
    "compare_docx_tables": _compare_docx_part(["tables"]),
    "compare_line_spacing": _compare_docx_part(["text", "line_spacing"]),
    "compare_docx_lines": _compare_docx_part(["line_set"]),
    "compare_subscript_contains": _compare_docx_part(["subscript"]),
    "check_italic_font_size_14": _docx_format("check_italic_font_size_14", with_text=True, italic_size=14),
    "evaluate_strike_through_last_paragraph": _docx_format("evaluate_strike_through_last_paragraph", with_text=True,
                                                           last_paragraph_struck=True),
    "is_first_line_centered": _docx_format("is_first_line_centered", first_line_centered=True),
    "has_page_numbers_in_footers": _docx_format("has_page_numbers_in_footers", footer_page_numbers=True),
    "compare_font_names": _compare_font_names,
    "compare_contains_image": _compare_docx_part(["images"]),
    "compare_docx_images": _compare_docx_part(["pictures"]),
    "compare_references": _compare_references,
    "compare_docx_files_and_ignore_new_lines": _compare_docx_ignoring_new_lines,
    "check_tabstops": _check_tabstops,
    "contains_page_break": _contains_page_break,
    "compare_pptx_files": _compare_pptx_files,
    "check_slide_orientation_Portrait": _pptx_format("check_slide_orientation_Portrait", {}, portrait=True),
    "check_transition": _pptx_format("check_transition", {"slide_idx": "transition_slide",
                                                          "transition_type": "transition"}),
    "check_page_number_colors": _pptx_format("check_page_number_colors", {"color": "number_color"}),
    "evaluate_presentation_fill_to_rgb_distance": _pptx_background,
    "check_image_stretch_and_center": _pptx_stretched,
    **dict.fromkeys(_LO_SETTINGS, _libreoffice_setting),
    "compare_text_file": _compare_text_file,
    "compare_csv": _compare_csv,
    "compare_conference_city_in_order": _compare_conference_city_in_order,
    "check_list": _check_list,
    "check_json": _check_json,
    "compare_images": _compare_images,
    "compare_image_list": _compare_image_list,
    "diff_text_file": _diff_text_file,
    "compare_result_files": _compare_result_files,
    "infeasible": _infeasible,
}
"""OSWorld metric func -> translation. Each entry has a conformance test against desktop-env."""


def split_parts(evaluator: dict[str, Any]) -> list[Part]:
    """One ``{func, result, expected, options}`` per func of a (possibly list) evaluator."""
    funcs = evaluator.get("func")
    if not isinstance(funcs, list):
        return [dict(evaluator)]

    def nth(key: str, i: int) -> Any:
        value = evaluator.get(key)
        return (value[i] if i < len(value) else {}) if isinstance(value, list) else value or {}

    return [{"func": f, "result": nth("result", i), "expected": nth("expected", i), "options": nth("options", i)}
            for i, f in enumerate(funcs)]


def translate_evaluator(evaluator: dict[str, Any], gold: GoldFetcher, agent_path: Callable[[str], str],
                        shell_text: Callable[[str | list[str]], str],
                        cache_path: Callable[[str], str] | None = None) -> Translation:
    """An OSWorld task's ``evaluator`` as deskact judge steps (``Translation.judge``, all must
    pass), with the reset steps they rely on; or, in ``Translation.reasons``, why it cannot be.

    ``gold(url, name)`` fetches an expected file and returns the judge's reference to it;
    ``agent_path`` turns a VM path into the task's path (``/home/user`` -> ``${HOME}``);
    ``shell_text`` writes a VM command for a deskact step; ``cache_path`` gives where a
    ``cache_file`` getter's file (a set-up command's saved output) is in the task's world (without
    it such getters are reported). ``postconfig`` is not read here.
    """
    out = Translation()
    if not isinstance(evaluator, dict):
        out.reasons.append(f"evaluator: {str(evaluator)[:40]!r} is not an evaluator object")
        return out
    if not evaluator.get("func"):
        out.reasons.append("func empty: the task has no evaluator")
        return out
    if isinstance(evaluator["func"], list) and evaluator.get("conj", "and") != "and":
        out.reasons.append(f"conj {evaluator.get('conj')}: only all-must-pass evaluator lists are translated")
        return out
    env = _Env(gold, agent_path, shell_text, out, cache_path)
    for part in split_parts(evaluator):
        convert = METRICS.get(str(part["func"]))
        if convert is None:
            out.reasons.append(f"func {part['func']}: no deskact judge checks the same thing")
            continue
        try:
            convert(env, part)
        except Untranslatable as exc:
            out.reasons.append(str(exc))
    return out
