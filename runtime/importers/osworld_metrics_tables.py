"""OSWorld's spreadsheet metrics (``compare_table`` and its rules, ``compare_csv``, the conference
cities) -> deskact judges (``TABLES``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

from .common import Untranslatable
from .osworld_metrics_env import (
    MetricEnv,
    Part,
    escaped,
    known_options,
    listed_files,
    needs_judge,
    result_and_gold,
    result_file,
    rule_value,
)


def _sibling(listed: list[tuple[str, str]], sheet: str, where: str) -> tuple[str, str]:
    """The CSV OSWorld reads for ``sheet`` of the listed workbook: ``<its name>-<sheet>.csv``."""
    want = f"{PurePosixPath(listed[0][1]).stem}-{sheet}.csv"
    found = [item for item in listed[1:] if item[1] == want]
    if not found:
        raise Untranslatable(f"func compare_table: sheet_print reads {want}, which the {where} getter does not list")
    return found[0]


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


def _own_pair(rule: dict[str, Any]) -> tuple[str | int, str | int] | None:
    """The two result sheets a sheet_data rule compares with each other (a sheet and its copy), or
    None when it does not compare two sheets of the result."""
    try:
        return _sheet_ref(rule.get("sheet_idx0"), "R"), _sheet_ref(rule.get("sheet_idx1"), "R")
    except Untranslatable:
        return None


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


RESAVED = "deskact_resaved_in_vm"
"""Key ``resaved_gold`` adds to a rewritten evaluator's options: its gold is the file OSWorld's
VM downloads, opens and saves with LibreOffice after the episode."""


def _kind(item: Any) -> tuple[Any, dict[str, Any]]:
    if not isinstance(item, dict):
        return None, {}
    params = item.get("parameters")
    return item.get("type"), params if isinstance(params, dict) else {}


def _saves(item: Any) -> bool:
    """A postconfig execute pressing ctrl+s (the pyautogui line OSWorld's tasks use)."""
    kind, params = _kind(item)
    text = str(params.get("command"))
    return kind == "execute" and "hotkey" in text and '"ctrl"' in text and '"s"' in text


def resaved_gold(ev: dict[str, Any]) -> dict[str, Any]:
    """A compare_table whose expected workbook is a ``vm_file`` that the postconfig downloads into
    the VM, opens and then saves (ctrl+s) with LibreOffice: that gold becomes a host gold fetched
    from the same URL and saved by LibreOffice when judging (``xlsx.compare`` ``gold_resaved``),
    and the postconfig items that put it into the world (its download, open and window
    activation) are dropped, so the gold never enters the agent's world. Any other evaluator is
    returned as it is."""
    expected, post = ev.get("expected"), ev.get("postconfig")
    if ev.get("func") != "compare_table" or not isinstance(expected, dict) or expected.get("type") != "vm_file":
        return ev
    path = expected.get("path")
    if not isinstance(path, str) or not isinstance(post, list):
        return ev
    name = PurePosixPath(path).name
    opened = [n for n, item in enumerate(post) if _kind(item) == ("open", {"path": path})]
    urls = [f.get("url") for item in post if _kind(item)[0] == "download"
            for f in _kind(item)[1].get("files") or [] if isinstance(f, dict) and f.get("path") == path]
    if len(urls) != 1 or not isinstance(urls[0], str) or len(opened) != 1 or not any(map(_saves, post[opened[0]:])):
        return ev
    kept: list[Any] = []
    for item in post:
        kind, params = _kind(item)
        if kind == "download":
            rest = [f for f in params.get("files") or [] if not (isinstance(f, dict) and f.get("path") == path)]
            if rest:
                kept.append({**item, "parameters": {**params, "files": rest}})
        elif not ((kind == "open" and params.get("path") == path) or (
                kind == "activate_window" and str(params.get("window_name", "")).startswith(f"{name} - "))):
            kept.append(item)
    gold = {"type": "cloud_file", "path": urls[0], "dest": expected.get("dest") or name}
    given = ev.get("options")
    options: dict[str, Any] = given if isinstance(given, dict) else {}
    return {**ev, "expected": gold, "postconfig": kept, "options": {**options, RESAVED: True}}


def _table_files(env: MetricEnv, part: Part, needs_gold: bool) -> tuple[str, str | None]:
    if (part.get("expected") or {}).get("type") == "vm_file":
        raise Untranslatable("func compare_table: the expected workbook is a vm_file the postconfig does not download,"
                             " open and save with LibreOffice; a gold in the world is within the agent's reach")
    if needs_gold or (part.get("expected") or {}).get("type") is not None:
        return result_and_gold(env, part)
    return env.agent_path(listed_files(part, "result", "vm_file")[0][0]), None


def _printed_name(listed: list[tuple[str, str]], where: str) -> str:
    """The sheet name in the one CSV a getter lists beside its workbook (``<stem>-<sheet>.csv``)."""
    prefix = f"{PurePosixPath(listed[0][1]).stem}-"
    names = [item[1][len(prefix):-4] for item in listed[1:] if item[1].startswith(prefix) and item[1].endswith(".csv")]
    if len(names) != 1:
        raise Untranslatable(f"func compare_table: sheet_print by position needs the {where} getter to list one"
                             f" {prefix}<sheet>.csv beside the workbook, not {len(names)}")
    return names[0]


def _printed_at(part: Part, rule: dict[str, Any]) -> tuple[str, str, dict[int, str], dict[int, str]]:
    """sheet_print by position reads the CSV named after whatever the sheet at that position is
    called when the task ends, and only the listed CSV is fetched: the same as the listed CSV's
    sheet by name, with the sheet at that position having that name (in either workbook)."""
    at, gold_at = _sheet_ref(rule.get("sheet_idx0"), "R"), _sheet_ref(rule.get("sheet_idx1"), "E")
    sheet = _printed_name(listed_files(part, "result", "vm_file"), "result") if isinstance(at, int) else at
    gold_sheet = _printed_name(listed_files(part, "expected", "cloud_file"), "expected") if isinstance(gold_at, int) else gold_at
    return (sheet, gold_sheet, {at: sheet} if isinstance(at, int) else {},
            {gold_at: gold_sheet} if isinstance(gold_at, int) else {})


def _printed(env: MetricEnv, part: Part, rule: dict[str, Any]) -> None:
    """sheet_print: the CSV LibreOffice printed for the sheet (a postconfig command makes it) against
    the gold CSV, lines stripped, trailing blank lines dropped."""
    sheet, gold_sheet, _, _ = _printed_at(part, rule)
    result = _sibling(listed_files(part, "result", "vm_file"), sheet, "result")
    expected = _sibling(listed_files(part, "expected", "cloud_file"), gold_sheet, "expected")
    env.judge("csv.compare", path=env.agent_path(result[0]), reference=env.gold(*expected), strip=True,
              ignore_trailing_blank=True, ignore_case=bool(rule.get("ignore_case")) or None)


STYLE_PROPS = {"number_format", "font_name", "font_family", "font_color", "font_bold", "font_italic", "font_underline",
               "font_size", "fill_type", "bgcolor", "fgcolor", "hyperlink", "merge"}
"""The cell properties desktop-env's ``_read_cell_style`` reads (xlsx.styles reads them alike)."""


def _cell_checks(rule: dict[str, Any]) -> list[dict[str, Any]]:
    props = rule.get("props") or {}
    if set(props) - {"value"} - STYLE_PROPS:
        raise Untranslatable(f"func compare_table: check_cell props {sorted(set(props) - {'value'} - STYLE_PROPS)}"
                             " are not cell properties desktop-env reads")
    return [{"coordinate": rule["coordinate"], "method": props["value"]["method"], "ref": escaped(props["value"]["ref"])}
            ] if "value" in props else []


def _style_checks(rule: dict[str, Any]) -> list[dict[str, Any]]:
    """check_cell's style props -> xlsx.styles checks (its value prop goes to xlsx.ranges)."""
    return [{"coordinate": rule["coordinate"], "prop": prop, "method": check["method"], "ref": escaped(check["ref"])}
            for prop, check in (rule.get("props") or {}).items() if prop != "value"]


def _styles(rule: dict[str, Any]) -> list[str]:
    props = list(rule.get("props") or [])
    if set(props) - STYLE_PROPS:
        raise Untranslatable(f"func compare_table: style props {sorted(set(props) - STYLE_PROPS)} are not cell"
                             " properties desktop-env reads")
    return props


def _compare_table(env: MetricEnv, part: Part) -> None:
    """sheet_data (pandas' DataFrame.equals after rounding floats to ``precision``, 4 by default:
    every value, text taken exactly, a column of numbers and numeric text read as numbers; a result
    sheet against the expected one, or two result sheets against each other) and sheet_name rules
    -> one xlsx.compare (which also opens both workbooks, as the metric does
    first); sheet_fuzzy and check_cell (values) -> xlsx.ranges; sheet_print -> csv.compare;
    chart -> xlsx.charts; pivot_table -> xlsx.pivots; freeze, zoom, row_props and col_props ->
    xlsx.view; data_validation -> xlsx.validation_rules; style and check_cell's style props ->
    xlsx.styles."""
    needs_judge(part["func"], "xlsx.compare")
    rules = (part.get("options") or {}).get("rules") or []
    unsupported = sorted({str(r.get("type")) for r in rules}
                         - {"sheet_data", "sheet_name", "sheet_fuzzy", "check_cell", "sheet_print", "chart",
                            "freeze", "zoom", "pivot_table", "row_props", "col_props", "data_validation", "style"})
    if unsupported:
        raise Untranslatable(f"func compare_table: rule types {unsupported} have no xlsx.compare option")
    data = [r for r in rules if r["type"] == "sheet_data"]
    own = [pair for r in data if (pair := _own_pair(r)) is not None]
    pairs = [_sheet_pair(r) for r in data if _own_pair(r) is None]
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
    names_at: dict[int, str] = {}
    gold_names_at: dict[int, str] = {}
    for rule in printed:
        _, _, at, gold_at = _printed_at(part, rule)
        names_at.update(at)
        gold_names_at.update(gold_at)
    charted = any(r["type"] in ("chart", "freeze", "pivot_table", "row_props", "col_props", "style") for r in rules)
    path, gold = _table_files(env, part, needs_gold=bool(data or names_too or fuzzy or printed or charted))
    resaved = bool((part.get("options") or {}).get(RESAVED))
    if resaved and {str(r.get("type")) for r in rules} - {"sheet_data", "sheet_name"}:
        raise Untranslatable("func compare_table: a gold saved in the VM is translated for sheet_data and sheet_name rules")
    if resaved:
        env.out.notes.append("compare_table: the gold OSWorld's VM downloads, opens and saves after the episode is"
                             " fetched at import and saved by LibreOffice when judging; it never enters the world")
    if data or names_too or names_at or gold_names_at or not (fuzzy or checks):
        picked = [value for _, value in pairs]
        # No sheet_data rule (a sheet_name rule alone): no position is compared, only the names.
        env.judge("xlsx.compare", path=path, gold=gold, sheet_names=names_too, exact_text=True, numeric_text=True,
                  decimals=data[0].get("precision", 4) if data else None, tolerance=0,
                  sheets=picked if kinds == {"name"} else None, positions=None if kinds == {"name"} else picked,
                  within=[list(pair) for pair in own] or None, names_at=names_at or None,
                  gold_names_at=gold_names_at or None, gold_resaved=resaved or None)
    for sheet, gold_sheet, range_rules in ranges:
        env.judge("xlsx.ranges", path=path, sheet=sheet, gold=gold, gold_sheet=gold_sheet, ranges=escaped(range_rules))
    for (sheet, sheet_checks), rule in zip(cells, checks):
        if sheet_checks or not _style_checks(rule):  # a check_cell without props still needs its sheet
            env.judge("xlsx.ranges", path=path, sheet=sheet, checks=sheet_checks)
        if _style_checks(rule):
            needs_judge(part["func"], "xlsx.styles")
            env.judge("xlsx.styles", path=path, sheet=_sheet_ref(rule.get("sheet_idx"), "R"), checks=_style_checks(rule))
    for rule in (r for r in rules if r["type"] == "style"):
        needs_judge(part["func"], "xlsx.styles")
        env.judge("xlsx.styles", path=path, gold=gold, same=_styles(rule), sheet=_sheet_ref(rule.get("sheet_idx0"), "R"),
                  gold_sheet=_sheet_ref(rule.get("sheet_idx1"), "E"))
        env.out.notes.append("compare_table: style evaluates conditional formatting only where desktop-env needs no"
                             " formula engine (cellIs with literal values); a sheet with other rules fails")
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
                  rules=escaped(rule.get("dv_props") or []))
    for rule in (r for r in rules if r["type"] == "pivot_table"):
        env.judge("xlsx.pivots", path=path, gold=gold, props=list(rule.get("pivot_props") or []),
                  sheet=_sheet_ref(rule.get("sheet_idx0"), "R"), gold_sheet=_sheet_ref(rule.get("sheet_idx1"), "E"))
    for rule in (r for r in rules if r["type"] == "chart"):
        env.judge("xlsx.charts", path=path, gold=gold, props=list(rule.get("chart_props") or []),
                  sheet=_sheet_ref(rule.get("sheet_idx0"), "R"), gold_sheet=_sheet_ref(rule.get("sheet_idx1"), "E"))


def _compare_csv(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "csv.compare")
    opts = known_options(part, {"strict", "ignore_case"}, {})
    path, reference = result_and_gold(env, part)
    env.judge("csv.compare", path=path, reference=reference, strip=not opts.get("strict", True) or None,
              ignore_case=opts.get("ignore_case"))


def _compare_conference_city_in_order(env: MetricEnv, part: Part) -> None:
    needs_judge(part["func"], "xlsx.contains_in_order")
    expected = rule_value(part, "expected")
    env.judge("xlsx.contains_in_order", path=result_file(env, part), cells="C2:C22", expected=escaped(expected))


TABLES: dict[str, Callable[[MetricEnv, Part], None]] = {
    "compare_table": _compare_table,
    "compare_csv": _compare_csv,
    "compare_conference_city_in_order": _compare_conference_city_in_order,
}
