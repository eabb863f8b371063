"""The OSWorld evaluator table (runtime/importers/osworld_metrics.py): what each func becomes and
what is reported, with the reason. Verdicts against desktop-env: osworld_conformance/."""

from __future__ import annotations

from typing import Any

import pytest
from deskact.runtime.importers.osworld_metrics import METRICS, Translation, translate_evaluator

FILE = {"type": "vm_file", "path": "/home/user/Desktop/a.docx"}
GOLD = {"type": "cloud_file", "path": "https://example.org/a.docx", "dest": "gold_a.docx"}


def translate(evaluator: Any) -> Translation:
    return translate_evaluator(evaluator, lambda url, name: f"t/{name}",
                               lambda p: "${HOME}" + p.removeprefix("/home/user"), lambda c: str(c))


def test_exact_match_is_the_whole_output() -> None:
    out = translate({"func": "exact_match", "result": {"type": "vm_command_line", "command": "echo $SHELL"},
                     "expected": {"type": "rule", "rules": {"expected": "/bin/bash\n"}}})
    assert out.reasons == [] and out.needs_world
    assert out.judge == [{"shell.output": {"cmd": "echo $SHELL", "regex": "\\A/bin/bash\\n\\Z", "exit_code": None}}]


def test_terminal_output_opens_a_terminal_once() -> None:
    rules = {"type": "rule", "rules": {"include": ["54\n"], "exclude": ["error"]}}
    out = translate({"func": ["check_include_exclude", "check_include_exclude"],
                     "result": [{"type": "vm_terminal_output"}] * 2, "expected": [rules, rules]})
    assert out.reset == [{"apps.terminal": {}}] and len(out.judge) == 4


def test_office_files_with_their_options() -> None:
    out = translate({"func": "compare_docx_files", "result": FILE, "expected": GOLD,
                     "options": {"ignore_blanks": False, "ignore_case": True}})
    assert out.judge == [{"docx.compare": {"path": "${HOME}/Desktop/a.docx", "reference": "t/gold_a.docx",
                                           "ignore_blanks": False, "ignore_case": True}}]
    out = translate({"func": "compare_pptx_files", "result": FILE, "expected": GOLD,
                     "options": {"examine_shape": False, "examine_image_size": True, "examine_aligment": False,
                                 "examine_top_position": True}})
    assert out.judge[0]["pptx.compare"]["ignore"] == ["shape"]
    assert out.judge[0]["pptx.compare"]["extra"] == ["image_size", "top_position"]
    assert "never reads them" in out.notes[0] and "examine_aligment" in out.notes[0]


@pytest.mark.parametrize(("evaluator", "reason"), [
    ({"func": "compare_docx_files", "result": FILE, "expected": GOLD, "options": {"fuzzy_match": True}},
     "option fuzzy_match makes the metric return a similarity"),
    ({"func": "compare_docx_files", "result": FILE, "expected": GOLD, "options": {"content_only": True}},
     "option content_only makes the metric return a similarity"),
    ({"func": "compare_table", "result": FILE, "expected": GOLD,
      "options": {"rules": [{"type": "style", "sheet_idx0": 0, "sheet_idx1": "EI0", "props": ["font_shadow"]}]}},
     "style props ['font_shadow'] are not cell properties"),
    ({"func": "compare_table", "result": FILE, "expected": GOLD,
      "options": {"rules": [{"type": "pivot_table"}]}}, "sheet index None is not a sheet of the result workbook"),
    ({"func": "compare_table", "result": FILE, "options": {"rules": [
        {"type": "check_cell", "sheet_idx": 0, "coordinate": "A1", "props": {"shadow": {"method": "eq", "ref": True}}}]}},
     "check_cell props ['shadow'] are not cell properties"),
    ({"func": "compare_table", "result": FILE, "expected": GOLD, "options": {"rules": [
        {"type": "sheet_fuzzy", "sheet_idx0": "RNSheet1", "sheet_idx1": "ENSheet1",
         "rules": [{"range": ["A1"], "type": "exact_match", "unknown": 1}]}]}}, "xlsx.ranges"),
    ({"func": "compare_table", "result": FILE, "expected": GOLD,
      "options": {"rules": [{"type": "sheet_data", "sheet_idx0": "EI0", "sheet_idx1": "EI1"}]}},
     "only a result sheet against the same expected sheet"),
    ({"func": "compare_text_file", "result": {"type": "vm_file", "path": ["a", "b"]}, "expected": GOLD},
     "is translated for one vm_file"),
    ({"func": "compare_table", "result": FILE, "expected": GOLD, "options": {"rules": [
        {"type": "sheet_print", "sheet_idx0": 0, "sheet_idx1": "EI0"}]}}, "sheet_print by position needs the result"),
    ({"func": "compare_table", "result": FILE, "expected": GOLD, "options": {"rules": [
        {"type": "sheet_print", "sheet_idx0": "RNSheet1", "sheet_idx1": "ENSheet1"}]}},
     "sheet_print reads a-Sheet1.csv, which the result getter does not list"),
    ({"func": "compare_docx_files", "result": {**FILE, "multi": True, "path": [FILE["path"]], "dest": ["a.docx"],
                                               "gives": [0, 1]}, "expected": GOLD}, "result gives [0, 1]"),
    ({"func": "contains_page_break", "result": FILE}, "without its rules argument"),
    ({"func": "compare_font_names", "result": FILE, "expected": {"type": "rule", "rules": {}}},
     "its rule has no font_name"),
    ({"func": "check_list", "result": {"type": "cache_file", "path": "apt.out"},
      "expected": {"type": "rule", "rules": {"expect": ["x"]}}}, "gives no place for set-up commands' output"),
    ({"func": "compare_images", "result": FILE, "expected": GOLD, "options": {"reference_base_result": 0.9}},
     "option reference_base_result scores the gain"),
    ({"func": ["exact_match", "exact_match"], "conj": "xor"}, "conj xor"),
    ({"func": "check_gnome_favorite_apps"}, "func check_gnome_favorite_apps: no deskact judge"),
    ({"func": ""}, "func empty"),
    ("evaluation_dir", "is not an evaluator object"),
])
def test_reported_with_the_reason(evaluator: Any, reason: str) -> None:
    out = translate(evaluator)
    assert out.judge == [] or out.reasons
    assert any(reason in r for r in out.reasons), out.reasons


def test_compare_table_sheets_by_name_and_by_position() -> None:
    by_name = translate({"func": "compare_table", "result": FILE, "expected": GOLD, "options": {"rules": [
        {"type": "sheet_data", "sheet_idx0": "RNSheet2", "sheet_idx1": "ENSheet2"}]}})
    params = by_name.judge[0]["xlsx.compare"]
    assert params["sheets"] == ["Sheet2"] and "positions" not in params and params["decimals"] == 4
    by_place = translate({"func": "compare_table", "result": FILE, "expected": GOLD, "options": {"rules": [
        {"type": "sheet_name"}, {"type": "sheet_data", "sheet_idx0": 0, "sheet_idx1": "EI0"}]}})
    assert by_place.judge[0]["xlsx.compare"]["positions"] == [0]
    assert by_place.judge[0]["xlsx.compare"]["sheet_names"] is True


def test_every_translated_func_has_a_conformance_test() -> None:
    from pathlib import Path

    folder = Path(__file__).parent / "osworld_conformance"
    corpus = "\n".join(p.read_text() for p in folder.glob("test_*.py"))
    missing = [f for f in METRICS if f != "infeasible" and f'"{f}"' not in corpus]
    assert not missing, f"funcs translated without a conformance test: {missing}"
